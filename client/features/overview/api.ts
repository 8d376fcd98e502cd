import { apiFetch } from '../../api/http.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { EnergyReturn } from '../../../shared/schemas/installation.ts'

/**
 * GET …/{id}/overview (server/domain/measurements/overview.ts): the live power flow of GET /api/metrics/
 * plus today's water (m3), heat (kWh), energy return (kWh) and statistics totals. Without the overview
 * switch the main-meter parts (grid, PV, battery, building, water, heat, energy_return) are null and
 * `today` holds only the caller's charging stations.
 */
export interface Overview extends Omit<Metrics, 'water'> {
  water: { today_m3: number; cold_m3: number; hot_m3: number } | null
  heat: { today_kwh: number } | null
  energy_return: EnergyReturn | null
  today: { start: string; end: string; units: Record<string, string>; series: Record<string, number> }
}

/** Query keys of the Overview screen. */
export const overviewKeys = {
  overview: (installationId: number) => ['installations', installationId, 'overview'] as const,
}

/** The Overview screen's data in one call. */
export function fetchOverview(installationId: number, signal?: AbortSignal): Promise<Overview> {
  return apiFetch<Overview>(`/api/cockpit/installations/${installationId}/overview`, { signal })
}
