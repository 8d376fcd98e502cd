import type { Granularity } from '../../../shared/rules/granularity.ts'
import type { Bucket } from './api.ts'

/**
 * Where a kind's series come from: `statistics` GET /api/statistics/{id} (with `flow=true` for kW),
 * `flow` GET …/flow (the flow meter's kW averages), `battery` GET …/battery/states (charge, discharge
 * and state of charge).
 */
export type ChartSource = 'statistics' | 'flow' | 'battery'

/** Chart kinds of the Charts screen (SPEC §2) and the statistics series each one draws. */
export const CHART_KINDS = [
  { key: 'consumption', series: ['consumption'], flow: false, source: 'statistics' },
  { key: 'power', series: ['grid_flow', 'pv_flow', 'charging_stations_flow'], flow: true, source: 'statistics' },
  // The flow meter (SPEC §2): kW between grid, PV, battery, building and stations; building is derived.
  { key: 'flowMeter', series: ['grid_flow', 'pv_flow', 'battery_charge_flow', 'battery_discharge_flow', 'building_flow', 'charging_stations_flow'], flow: true, source: 'flow' },
  { key: 'solar', series: ['pv_production'], flow: false, source: 'statistics' },
  { key: 'ownConsumption', series: ['own_consumption'], flow: false, source: 'statistics' },
  { key: 'grid', series: ['grid_import', 'grid_export'], flow: false, source: 'statistics' },
  { key: 'battery', series: ['battery_charge', 'battery_discharge', 'battery_soc'], flow: false, source: 'battery' },
  { key: 'heating', series: ['heat'], flow: false, source: 'statistics' },
  { key: 'water', series: ['cold_water', 'hot_water'], flow: false, source: 'statistics' },
  { key: 'cost', series: ['cost'], flow: false, source: 'statistics' },
  { key: 'chargingStations', series: ['charging_stations'], flow: false, source: 'statistics' },
  // ZEV: the facility inputs by bucket; the page adds the allocation to the units (GET …/zev).
  { key: 'zev', series: ['consumption', 'pv_production', 'grid_import'], flow: false, source: 'statistics' },
] as const satisfies readonly { key: string; series: readonly string[]; flow: boolean; source: ChartSource }[]
export type ChartKind = (typeof CHART_KINDS)[number]['key']

/**
 * The kinds the caller can see: those whose series all come back for them (without the overview
 * switch only charging stations; without the cost switch no cost). `units` is the answer's units.
 */
export function availableKinds(units: Record<string, string>): ChartKind[] {
  // kW series, the state of charge and the derived building flow come from other calls; like the grid
  // they need the overview switch, so the grid stands in for them.
  const needs = (s: string) => (s.endsWith('_flow') || s === 'battery_soc' ? 'grid_import' : s)
  return CHART_KINDS.filter((k) => k.series.every((s) => needs(s) in units)).map((k) => k.key)
}

/**
 * Series drawn as lines (lightweight-charts): power in kW and the state of charge in %. Everything
 * else (kWh, m3, CHF per bucket) is drawn as bars (Tremor).
 */
export const isLineSeries = (name: string, unit: string | undefined) => unit === 'kW' || unit === '%' || name.endsWith('_flow') || name === 'battery_soc'

/**
 * The building's power per bucket (kW) for the flow meter: what enters (grid import, PV, battery
 * discharge) minus what leaves elsewhere (battery charge, charging stations), never below 0. The grid
 * series is net (+ import, − export), so export is already subtracted. Buckets follow `grid_flow`.
 */
export function buildingFlow(series: Readonly<Record<string, readonly Bucket[]>>): Bucket[] {
  const at = (name: string, i: number) => series[name]?.[i]?.value ?? 0
  return (series.grid_flow ?? []).map((b, i) => ({
    start: b.start,
    value: Math.round(Math.max(0, b.value + at('pv_flow', i) + at('battery_discharge_flow', i) - at('battery_charge_flow', i) - at('charging_stations_flow', i)) * 100) / 100,
  }))
}

/**
 * A state series (the battery's state of charge) up to `now`: the API answers 0 for buckets without a
 * reading, which for the rest of today or this month would read as an empty battery.
 */
export function upTo(buckets: readonly Bucket[], now: number): Bucket[] {
  return buckets.filter((b) => Date.parse(b.start) <= now)
}

/**
 * Rows for a Tremor bar chart: one row per bucket, `index` holding the bucket's label and one
 * property per series named by its (translated) label.
 */
export function barRows(series: Readonly<Record<string, readonly Bucket[]>>, labels: Readonly<Record<string, string>>, bucketLabel: (start: string) => string, index = 'bucket'): Record<string, string | number>[] {
  const names = Object.keys(series)
  return (series[names[0]] ?? []).map((b, i) => {
    const row: Record<string, string | number> = { [index]: bucketLabel(b.start) }
    for (const n of names) row[labels[n] ?? n] = series[n][i]?.value ?? 0
    return row
  })
}

/** A chart point: `time` in seconds with the bucket's local wall clock read as UTC (how the chart labels). */
export interface ChartPoint {
  time: number
  value: number
}

/**
 * Buckets to chart points on the installation's wall clock: the chart library labels times as UTC, so
 * each start is shifted by its own offset. The repeated autumn hour would collide; it is moved one
 * second later so times stay strictly increasing (the library requires it).
 */
export function chartPoints(buckets: readonly Bucket[]): ChartPoint[] {
  const out: ChartPoint[] = []
  for (const b of buckets) {
    const m = /([+-])(\d{2}):(\d{2})$/.exec(b.start)
    const offset = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0
    let time = Math.floor(Date.parse(b.start) / 1000) + offset
    if (out.length && time <= out[out.length - 1].time) time = out[out.length - 1].time + 1
    out.push({ time, value: b.value })
  }
  return out
}

/** A point without a value: the chart draws nothing there and breaks the line (lightweight-charts whitespace). */
export interface ChartBreak {
  time: number
}

/** A bucket's nominal length in seconds (a day or month as its longest, so DST and long months are no gap). */
const STEP_S: Record<Granularity, number> = { fifteen_minutes: 900, hour: 3600, day: 25 * 3600, month: 31 * 86_400 }

/**
 * Chart points with a break after each point whose next one is more than one bucket away: a kW series
 * has no bucket where nothing was read (server/domain/statistics/service.ts), and a line drawn straight
 * across that time would show readings that never came (SPEC §2: gaps show as such).
 */
export function withBreaks(points: readonly ChartPoint[], granularity: Granularity): (ChartPoint | ChartBreak)[] {
  const step = STEP_S[granularity]
  const out: (ChartPoint | ChartBreak)[] = []
  points.forEach((p, i) => {
    out.push(p)
    const next = points[i + 1]
    if (next && next.time - p.time > step * 1.5) out.push({ time: p.time + (granularity === 'day' ? 86_400 : granularity === 'month' ? 28 * 86_400 : step) })
  })
  return out
}

/**
 * The starts of the buckets that overlap a stretch without readings (GET /api/statistics data_quality
 * gaps, UTC instants): each bucket runs from its start to the next one's (the last to `periodEnd`).
 */
export function incompleteBuckets(buckets: readonly Bucket[], gaps: readonly { start: string; end: string }[], periodEnd: string): Set<string> {
  const out = new Set<string>()
  if (!gaps.length) return out
  const spans = gaps.map((g) => [Date.parse(g.start), Date.parse(g.end)] as const)
  buckets.forEach((b, i) => {
    const from = Date.parse(b.start)
    const to = i + 1 < buckets.length ? Date.parse(buckets[i + 1].start) : Date.parse(periodEnd)
    if (spans.some(([s, e]) => s < to && e > from)) out.add(b.start)
  })
  return out
}

/** Whether a granularity shows times of day (else only dates) on the axis. */
export const showsTime = (g: Granularity) => g === 'hour' || g === 'fifteen_minutes'

/**
 * The time-weighted average of per-bucket values (kW averages) over [first start, `end`): each bucket
 * weighs by its length, so a 31-day month or a 25-hour DST day counts for what it lasts.
 * 0 without buckets.
 */
export function timeWeightedAverage(buckets: readonly Bucket[], end: string): number {
  let sum = 0
  let span = 0
  buckets.forEach((b, i) => {
    const from = Date.parse(b.start)
    const to = i + 1 < buckets.length ? Date.parse(buckets[i + 1].start) : Date.parse(end)
    if (!(to > from)) return
    sum += b.value * (to - from)
    span += to - from
  })
  return span > 0 ? sum / span : 0
}
