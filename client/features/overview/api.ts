import { apiFetch } from '../../api/http.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { EnergyReturn } from '../../../shared/schemas/installation.ts'

/** GET …/{id}/overview: the live power flow (null parts without the overview switch). */
export function fetchOverview(installationId: number, signal?: AbortSignal): Promise<Metrics> {
  return apiFetch<Metrics>(`/api/cockpit/installations/${installationId}/overview`, { signal })
}

/** GET …/{id}/energy_return: PV fed into the grid today, this month, this year (kWh); 403 without overview. */
export function fetchEnergyReturn(installationId: number, signal?: AbortSignal): Promise<EnergyReturn> {
  return apiFetch<EnergyReturn>(`/api/cockpit/installations/${installationId}/energy_return`, { signal })
}

/** GET /api/statistics/{id}/totals for a range: series sums with units. */
export function fetchTotals(installationId: number, start: string, end: string, signal?: AbortSignal): Promise<{ units: Record<string, string>; series: Record<string, number> }> {
  return apiFetch(`/api/statistics/${installationId}/totals`, { query: { start, end }, signal })
}
