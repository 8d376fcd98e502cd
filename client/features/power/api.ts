import { apiFetch } from '../../api/http.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { Display, DisplayCreated, DisplaySelf } from '../../../shared/schemas/display.ts'
import type { ChargingMode } from '../../../shared/rules/status.ts'
import type { MeterDataState } from '../../../shared/schemas/statistics.ts'
import type { MetricsSample } from '../../live/store.ts'
import { HISTORY_MS } from '../../live/store.ts'
import { POLL_INTERVALS_MS } from '../../../config/defaults.ts'
import { clientNow } from '../../api/clock.ts'

const QUARTER_MS = 15 * 60_000

/** GET /api/statistics/{id}/flow answer: average kW per bucket of each series the caller may see. */
export interface FlowAnswer {
  series: Record<string, Array<{ start: string; value: number }>>
}

/**
 * GET /api/statistics/{id}/flow for the last hour in 15-minute buckets (SPEC §7): the stored power
 * history the "last hour" chart starts from before live samples arrive.
 */
export function fetchRecentFlow(installationId: number, now: number = clientNow(), signal?: AbortSignal, credential?: string): Promise<FlowAnswer> {
  const start = new Date(Math.floor((now - HISTORY_MS) / QUARTER_MS) * QUARTER_MS).toISOString()
  const query = new URLSearchParams({ start, end: new Date(now).toISOString(), granularity: 'fifteen_minutes' })
  return apiFetch<FlowAnswer>(`/api/statistics/${installationId}/flow?${query.toString()}`, { signal, credential })
}

/** GET /api/display/ with a display link's key: the link and its installation. 401 when revoked. */
export function fetchDisplay(key: string): Promise<DisplaySelf> {
  return apiFetch<DisplaySelf>('/api/display/', { credential: key })
}

/** Query keys of the Power feature's REST reads. */
export const powerKeys = {
  displays: (installationId: number) => ['installations', installationId, 'displays'] as const,
  /** The stored last hour of power the Power page's chart starts from (seeded into the live store). */
  recentFlow: (installationId: number) => ['installations', installationId, 'flow', 'recent'] as const,
  /** Each meter's source, newest reading and data quality (the Power page's meters tile). */
  meterData: (installationId: number) => ['installations', installationId, 'meter_data'] as const,
}

/** GET …/installations/{id}/meter_data (overview): each meter's source, newest reading, its age, stale, data quality. */
export function fetchMeterData(installationId: number, signal?: AbortSignal): Promise<MeterDataState[]> {
  return apiFetch<MeterDataState[]>(`/api/cockpit/installations/${installationId}/meter_data`, { signal })
}

/** GET …/installations/{id}/displays (admins): the display links, without keys. */
export async function listDisplays(installationId: number, signal?: AbortSignal): Promise<Display[]> {
  return (await apiFetch<{ results: Display[] }>(`/api/cockpit/installations/${installationId}/displays/`, { signal })).results
}

/** POST …/installations/{id}/displays {name, valid_until?} → the link with its URL (shown once). */
export function createDisplay(installationId: number, body: { name: string; valid_until?: string | null }): Promise<DisplayCreated> {
  return apiFetch<DisplayCreated>(`/api/cockpit/installations/${installationId}/displays/`, { method: 'POST', body })
}

/** DELETE …/installations/{id}/displays/{displayId}: revoke (its screens stop within one relay poll). */
export function revokeDisplay(installationId: number, displayId: number): Promise<void> {
  return apiFetch<void>(`/api/cockpit/installations/${installationId}/displays/${displayId}/`, { method: 'DELETE' })
}

/**
 * Chart samples from a flow answer, one every `stepMs` (the live metrics interval) over the hour
 * before `now`, each with its 15-minute bucket's average power: the chart spaces points by index, so
 * the stored hour must come at the live rate to span the hour. Battery is charge − discharge and
 * building the balance grid + PV − battery − stations, as in the live metrics; series the caller may
 * not see stay null.
 */
export function flowSamples(answer: FlowAnswer, now: number = clientNow(), stepMs: number = POLL_INTERVALS_MS.metrics): MetricsSample[] {
  const at = (name: string) => new Map((answer.series[name] ?? []).map((b) => [Date.parse(b.start), b.value]))
  const grid = at('grid_flow')
  const pv = at('pv_flow')
  const charge = at('battery_charge_flow')
  const discharge = at('battery_discharge_flow')
  const stations = at('charging_stations_flow')
  const overview = answer.series.grid_flow !== undefined
  const r2 = (x: number) => Math.round(x * 100) / 100
  const byBucket = new Map<number, MetricsSample>()
  for (const [start, charging] of stations) {
    if (!overview) {
      byBucket.set(start, { t: start, grid: null, pv: null, battery: null, building: null, charging: r2(charging) })
      continue
    }
    const g = grid.get(start) ?? 0
    const p = pv.get(start) ?? 0
    const b = (charge.get(start) ?? 0) - (discharge.get(start) ?? 0)
    byBucket.set(start, { t: start, grid: r2(g), pv: r2(p), battery: r2(b), building: r2(Math.max(0, g + p - b - charging)), charging: r2(charging) })
  }
  const out: MetricsSample[] = []
  for (let t = Math.ceil((now - HISTORY_MS) / stepMs) * stepMs; t < now; t += stepMs) {
    const bucket = byBucket.get(Math.floor(t / QUARTER_MS) * QUARTER_MS)
    if (bucket) out.push({ ...bucket, t })
  }
  return out
}

/**
 * PATCH /api/cockpit/installations/{id}/charging_stations/{station_id}/ {name?, charging_mode?} → Station.
 * For the station management tab of a later issue; live changes arrive through the stream.
 */
export function updateStation(
  installationId: number,
  stationId: number,
  patch: { name?: string; charging_mode?: ChargingMode },
): Promise<Station> {
  return apiFetch<Station>(`/api/cockpit/installations/${installationId}/charging_stations/${stationId}/`, {
    method: 'PATCH',
    body: patch,
  })
}
