import type { Granularity } from '../../../shared/rules/granularity.ts'
import type { Bucket } from './api.ts'

/** Chart kinds of the Charts screen (SPEC §2) and the statistics series each one draws. */
export const CHART_KINDS = [
  { key: 'consumption', series: ['consumption'], flow: false },
  { key: 'power', series: ['grid_flow', 'pv_flow', 'charging_stations_flow'], flow: true },
  { key: 'solar', series: ['pv_production'], flow: false },
  { key: 'ownConsumption', series: ['own_consumption'], flow: false },
  { key: 'grid', series: ['grid_import', 'grid_export'], flow: false },
  { key: 'battery', series: ['battery_charge', 'battery_discharge'], flow: false },
  { key: 'heating', series: ['heat'], flow: false },
  { key: 'water', series: ['cold_water', 'hot_water'], flow: false },
  { key: 'cost', series: ['cost'], flow: false },
  { key: 'chargingStations', series: ['charging_stations'], flow: false },
  // ZEV: the facility inputs by bucket; the page adds the allocation to the units (GET …/zev).
  { key: 'zev', series: ['consumption', 'pv_production', 'grid_import'], flow: false },
] as const
export type ChartKind = (typeof CHART_KINDS)[number]['key']

/**
 * The kinds the caller can see: those whose series all come back for them (without the overview
 * switch only charging stations; without the cost switch no cost). `units` is the answer's units.
 */
export function availableKinds(units: Record<string, string>): ChartKind[] {
  // kW series are asked for separately (flow=true); the power chart needs the overview like the grid.
  const needs = (s: string) => (s.endsWith('_flow') ? 'grid_import' : s)
  return CHART_KINDS.filter((k) => k.series.every((s) => needs(s) in units)).map((k) => k.key)
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

/** Whether a granularity shows times of day (else only dates) on the axis. */
export const showsTime = (g: Granularity) => g === 'hour' || g === 'fifteen_minutes'
