import type { PeriodDataQuality, RatiosAnswer } from '../../../shared/schemas/statistics.ts'
import type { ZevRow, ZevSummary } from '../../../shared/schemas/zev.ts'
import { apiFetch } from '../../api/http.ts'
import type { Granularity } from '../../../shared/rules/granularity.ts'

/** One bucket of a statistics series (server/domain/statistics/service.ts). */
export interface Bucket {
  start: string
  value: number
}

/**
 * GET /api/statistics/{id}: series by bucket with their units, and where the answer's meters sent no
 * readings or had readings set aside (`data_quality`, shared/schemas/statistics.ts PeriodDataQuality).
 */
export interface Statistics {
  start: string
  end: string
  granularity: Granularity
  timezone: string
  units: Record<string, string>
  series: Record<string, Bucket[]>
  data_quality?: PeriodDataQuality
}

/**
 * GET /api/statistics/{id}/battery/states: battery_soc buckets are null without a reading;
 * `average_soc` is the period's time-weighted average state of charge (%), null without readings.
 */
export interface BatteryStates extends Omit<Statistics, 'series'> {
  series: Record<string, { start: string; value: number | null }[]>
  average_soc: number | null
}

/** GET /api/statistics/{id}/totals: the same series summed over the range. */
export interface Totals {
  start: string
  end: string
  units: Record<string, string>
  series: Record<string, number>
}

/** The query of one chart period (SPEC §9): start, next period's start, granularity. */
export interface RangeQuery {
  start: string
  end: string
  granularity: Granularity
}

/**
 * Query keys of the charts, under `['installations', id, 'charts']` so a save that changes
 * figures (rates, ZEV settings) can drop every chart of the installation with one prefix.
 */
export const chartKeys = {
  all: (installationId: number) => ['installations', installationId, 'charts'] as const,
  /** One kind of the facility charts for one period (its series, the period's totals, the ZEV report). */
  facility: (installationId: number, kind: string, range: RangeQuery) => [...chartKeys.all(installationId), 'facility', kind, range.start, range.end, range.granularity] as const,
  /** Self-sufficiency, self-consumption and the previous period's figures of one chart period. */
  ratios: (installationId: number, period: string, date: string) => [...chartKeys.all(installationId), 'ratios', period, date] as const,
  /** A meter's or a flat's charts for one period. */
  scoped: (installationId: number, scope: ChartScope, range: RangeQuery) => [...chartKeys.all(installationId), scope.kind, scope.id, range.start, range.end, range.granularity] as const,
  /** A flat's name for its charts' heading (not a chart figure: under the objects). */
  objectName: (installationId: number, objectId: number) => ['installations', installationId, 'objects', objectId, 'description'] as const,
}

const query = (r: RangeQuery, flow: boolean) =>
  new URLSearchParams({ start: r.start, end: r.end, granularity: r.granularity, ...(flow ? { flow: 'true' } : {}) }).toString()

/** Installation statistics for a range; `flow` adds the kW series. */
export function fetchStatistics(installationId: number, range: RangeQuery, flow: boolean, signal?: AbortSignal): Promise<Statistics> {
  return apiFetch<Statistics>(`/api/statistics/${installationId}?${query(range, flow)}`, { signal })
}

/** Installation totals for a range (same series as {@link fetchStatistics}). */
export function fetchTotals(installationId: number, range: RangeQuery, flow: boolean, signal?: AbortSignal): Promise<Totals> {
  return apiFetch<Totals>(`/api/statistics/${installationId}/totals?${query(range, flow)}`, { signal })
}

/** The ZEV report of a range: participant rows and the summary (model, cap, warning, total row); CHF only under the cost switch. */
export interface ZevData {
  allocation: ZevRow[]
  zev: ZevSummary
}

/** GET /api/statistics/{id}/zev: the ZEV report of the range. */
export async function fetchZev(installationId: number, range: RangeQuery, signal?: AbortSignal): Promise<ZevData> {
  const r = await apiFetch<ZevData>(`/api/statistics/${installationId}/zev?${query(range, false)}`, { signal })
  return { allocation: r.allocation, zev: r.zev }
}

/** GET /api/statistics/{id}/flow: the flow meter's average power per bucket (kW); needs the overview switch for more than stations. */
export function fetchFlow(installationId: number, range: RangeQuery, signal?: AbortSignal): Promise<Statistics> {
  return apiFetch<Statistics>(`/api/statistics/${installationId}/flow?${query(range, false)}`, { signal })
}

/** GET /api/statistics/{id}/battery/states: battery_soc (%), battery_charge and battery_discharge (kWh) per bucket; needs overview. */
export function fetchBatteryStates(installationId: number, range: RangeQuery, signal?: AbortSignal): Promise<BatteryStates> {
  return apiFetch<BatteryStates>(`/api/statistics/${installationId}/battery/states?${query(range, false)}`, { signal })
}

/** What a scoped chart shows: one meter, or one object (a flat) with its meters. */
export interface ChartScope {
  kind: 'meter' | 'object'
  id: number
}

/**
 * GET /api/statistics/{id}/meter/{meter_id} (one meter's series, with the meter's name) or
 * …/object/{object_id} (a flat's electricity, heat, water and stations), kW series included.
 */
export function fetchScoped(installationId: number, scope: ChartScope, range: RangeQuery, signal?: AbortSignal): Promise<Statistics & { meter?: { id: number; name: string; meter_type: string } }> {
  return apiFetch(`/api/statistics/${installationId}/${scope.kind}/${scope.id}?${query(range, scope.kind === 'meter')}`, { signal })
}

/** GET …/objects/{id}: the object's description (a flat's name) for the scoped chart's heading. */
export async function fetchObjectName(installationId: number, objectId: number, signal?: AbortSignal): Promise<string> {
  return (await apiFetch<{ description: string }>(`/api/cockpit/installations/${installationId}/objects/${objectId}`, { signal })).description
}

/**
 * GET /api/statistics/{id}/ratios?period&date → self-sufficiency and self-consumption (%) of the chart
 * period containing `date` and of the one before, with the change (points, and percent for kWh totals).
 */
export function fetchRatios(installationId: number, period: string, date: string, signal?: AbortSignal): Promise<RatiosAnswer> {
  return apiFetch<RatiosAnswer>(`/api/statistics/${installationId}/ratios`, { query: { period, date }, signal })
}
