import { apiFetch } from '../../api/http.ts'

export type RateKind = 'power' | 'water' | 'heat'

/** Price fields per kind (server/domain/rates/service.ts RATE_PRICES), CHF per kWh or m3. */
export const RATE_FIELDS: Record<RateKind, readonly string[]> = {
  power: ['general', 'peak', 'low', 'flat', 'main_power_purchase', 'solar_recovery_compensation', 'electric_car'],
  water: ['fresh_water', 'warm_water_production'],
  heat: ['heat'],
}

export interface TimeSpan {
  start: string
  end: string
  repetition: string[]
}

/** A rate as the API sends it; `editable` false once it has started (only the name may change, SPEC §4). */
export interface Rate {
  id: number
  kind: RateKind
  name: string
  start_date: string | null
  end_date: string | null
  prices: Record<string, number>
  time_spans?: TimeSpan[]
  flat_enabled?: boolean
  editable: boolean
}

export type RateInput = Omit<Rate, 'id' | 'kind' | 'editable'>

const base = (installationId: number, kind: RateKind) => `/api/cockpit/installations/${installationId}/rates/${kind}/`

/** GET …/rates/{kind}/ */
export async function listRates(installationId: number, kind: RateKind, signal?: AbortSignal): Promise<Rate[]> {
  return (await apiFetch<{ results: Rate[] }>(base(installationId, kind), { signal })).results
}

/** POST …/rates/{kind}/ → 201 Rate; 400 with field messages. */
export function createRate(installationId: number, kind: RateKind, body: RateInput): Promise<Rate> {
  return apiFetch<Rate>(base(installationId, kind), { method: 'POST', body })
}

/** PUT …/rates/{kind}/{id}/ (a rate that has not started). */
export function replaceRate(installationId: number, kind: RateKind, id: number, body: RateInput): Promise<Rate> {
  return apiFetch<Rate>(`${base(installationId, kind)}${id}/`, { method: 'PUT', body })
}

/** PATCH …/rates/{kind}/{id}/ {name}: the only change to a started rate. */
export function renameRate(installationId: number, kind: RateKind, id: number, name: string): Promise<Rate> {
  return apiFetch<Rate>(`${base(installationId, kind)}${id}/`, { method: 'PATCH', body: { name } })
}

/** DELETE …/rates/{kind}/{id}/ */
export function deleteRate(installationId: number, kind: RateKind, id: number): Promise<void> {
  return apiFetch<void>(`${base(installationId, kind)}${id}/`, { method: 'DELETE' })
}
