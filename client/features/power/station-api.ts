import { apiFetch } from '../../api/http.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { Timer } from '../../../shared/schemas/timer.ts'
import type { JournalEntry } from '../../../shared/schemas/journal.ts'
import type { Rfid } from '../../../shared/schemas/rfid.ts'
import type { OcppBinding } from '../../../shared/schemas/ocpp.ts'
import { ApiError } from '../../api/errors.ts'
import type { ChargePlan, ChargePlanPut } from '../../../shared/schemas/charge-plan.ts'

const base = (installationId: number) => `/api/cockpit/installations/${installationId}`

/**
 * Query keys of a station's tabs: all under `['installations', id, 'stations', stationId]`,
 * so a save invalidates exactly the tab it changes and one prefix drops a station's data.
 */
export const stationKeys = {
  /** Every station of the installation: the prefix of all station keys. */
  stations: (installationId: number) => ['installations', installationId, 'stations'] as const,
  /** The key segment after `all(…)` that marks a station's statistics (see {@link stationKeys.statistics}). */
  statisticsSegment: 'statistics' as const,
  all: (installationId: number, stationId: number) => [...stationKeys.stations(installationId), stationId] as const,
  timers: (installationId: number, stationId: number) => [...stationKeys.all(installationId, stationId), 'timers'] as const,
  /** Every payment filter of the journal (the prefix a save invalidates). */
  journals: (installationId: number, stationId: number) => [...stationKeys.all(installationId, stationId), 'journal'] as const,
  journal: (installationId: number, stationId: number, paymentStatus: string) => [...stationKeys.journals(installationId, stationId), paymentStatus] as const,
  rfids: (installationId: number, stationId: number) => [...stationKeys.all(installationId, stationId), 'rfids'] as const,
  ocpp: (installationId: number, stationId: number) => [...stationKeys.all(installationId, stationId), 'ocpp'] as const,
  plan: (installationId: number, stationId: number) => [...stationKeys.all(installationId, stationId), 'plan'] as const,
  statistics: (installationId: number, stationId: number, range: { start: string; end: string; granularity: string }) =>
    [...stationKeys.all(installationId, stationId), stationKeys.statisticsSegment, range.start, range.end, range.granularity] as const,
}

/** GET /api/statistics/{id}/charging_station/{stationId}?flow=true: energy (kWh) and average power (kW) per bucket. */
export interface StationStatistics {
  series: Record<string, { start: string; value: number }[]>
}

/** The station's statistics for one period (SPEC §9 range and granularity), kW series included. */
export function stationStatistics(installationId: number, stationId: number, range: { start: string; end: string; granularity: string }, signal?: AbortSignal): Promise<StationStatistics> {
  return apiFetch<StationStatistics>(`/api/statistics/${installationId}/charging_station/${stationId}`, {
    query: { start: range.start, end: range.end, granularity: range.granularity, flow: 'true' },
    signal,
  })
}

/** The fields of a timer form (SPEC §3): repeat days, "HH:mm" start, description, charging mode. */
export type TimerFields = Omit<Timer, 'id' | 'installation_id'>

/** GET …/timers?object_type=charging_station&object_id={stationId} → the station's timers. */
export function listTimers(installationId: number, stationId: number, signal?: AbortSignal): Promise<PageOf<Timer>> {
  return apiFetch<PageOf<Timer>>(`${base(installationId)}/timers/`, { query: { object_type: 'charging_station', object_id: stationId }, signal })
}

/** POST …/timers → the new timer (400 `{start_time: [...]}` for a bad time). */
export function createTimer(installationId: number, fields: TimerFields): Promise<Timer> {
  return apiFetch<Timer>(`${base(installationId)}/timers/`, { method: 'POST', body: fields })
}

/** PATCH …/timers/{id} → the changed timer. */
export function updateTimer(installationId: number, id: number, fields: Partial<TimerFields>): Promise<Timer> {
  return apiFetch<Timer>(`${base(installationId)}/timers/${id}/`, { method: 'PATCH', body: fields })
}

/** DELETE …/timers/{id}. */
export function deleteTimer(installationId: number, id: number): Promise<void> {
  return apiFetch<void>(`${base(installationId)}/timers/${id}/`, { method: 'DELETE' })
}

/** GET …/charging_stations/{id}/journal (entry_type, payment_status; "all" omits the filter). */
export function stationJournal(installationId: number, stationId: number, q: { payment_status: string }, signal?: AbortSignal): Promise<PageOf<JournalEntry>> {
  return apiFetch<PageOf<JournalEntry>>(`${base(installationId)}/charging_stations/${stationId}/journal`, { query: { ...q, limit: 100 }, signal })
}

/** GET …/charging_stations/{id}/rfids → the cards that may charge at the station. */
export function stationRfids(installationId: number, stationId: number, signal?: AbortSignal): Promise<PageOf<Rfid>> {
  return apiFetch<PageOf<Rfid>>(`${base(installationId)}/charging_stations/${stationId}/rfids`, { signal })
}

/** GET …/charging_stations/{id}/ocpp → the station's OCPP charge point (admins); null when not bound (404). */
export async function stationOcpp(installationId: number, stationId: number, signal?: AbortSignal): Promise<OcppBinding | null> {
  try {
    return await apiFetch<OcppBinding>(`${base(installationId)}/charging_stations/${stationId}/ocpp`, { signal })
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return null
    throw err
  }
}

/** PUT …/charging_stations/{id}/ocpp → the binding with its password (shown once). */
export function bindOcpp(installationId: number, stationId: number, body: { charge_point_id: string; connector_id: number }): Promise<OcppBinding & { password: string }> {
  return apiFetch(`${base(installationId)}/charging_stations/${stationId}/ocpp`, { method: 'PUT', body })
}

/** DELETE …/charging_stations/{id}/ocpp: the simulator runs the station again. */
export function unbindOcpp(installationId: number, stationId: number): Promise<void> {
  return apiFetch<void>(`${base(installationId)}/charging_stations/${stationId}/ocpp`, { method: 'DELETE' })
}

/**
 * POST …/charging_stations/{id}/ocpp/commands: 200 with the connected charger's answer (`status` Accepted,
 * Rejected, Unlocked, UnlockFailed…, or `failed` with the OCPP error in `error`), or 202 `queued`/`sent` while it is offline.
 */
export function ocppCommand(installationId: number, stationId: number, body: { action: 'RemoteStartTransaction' | 'RemoteStopTransaction' | 'UnlockConnector'; id_tag?: string }): Promise<{ id: number; action: string; status: string; error: string | null }> {
  return apiFetch(`${base(installationId)}/charging_stations/${stationId}/ocpp/commands`, { method: 'POST', body })
}

/** GET …/charging_stations/{id}/charge_plan → the plan of the session charging there, or null. */
export function stationPlan(installationId: number, stationId: number, signal?: AbortSignal): Promise<ChargePlan | null> {
  return apiFetch<ChargePlan | null>(`${base(installationId)}/charging_stations/${stationId}/charge_plan`, { signal })
}

/** PUT …/charging_stations/{id}/charge_plan → the plan (400 with field errors; 409 without a car). */
export function setStationPlan(installationId: number, stationId: number, body: ChargePlanPut): Promise<ChargePlan> {
  return apiFetch<ChargePlan>(`${base(installationId)}/charging_stations/${stationId}/charge_plan`, { method: 'PUT', body })
}

/** DELETE …/charging_stations/{id}/charge_plan. */
export function deleteStationPlan(installationId: number, stationId: number): Promise<void> {
  return apiFetch<void>(`${base(installationId)}/charging_stations/${stationId}/charge_plan`, { method: 'DELETE' })
}
