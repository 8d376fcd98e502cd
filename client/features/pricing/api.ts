import { apiFetch } from '../../api/http.ts'
import type { ScheduleEntry } from '../../../shared/rules/tariff.ts'

/** GET /api/electricity-tariff/ (server/domain/tariffs/pricing.ts): CHF, CHF/kWh, validity, schedule. */
export interface Pricing {
  id: number
  name: string
  basic_tariff: number
  high_tariff: number
  low_tariff: number
  flat_tariff: number | null
  flat: boolean
  valid_from: string
  valid_to: string | null
  schedule: ScheduleEntry[]
}

/** The tariff in force; 404 "Pricing is not found" when there is none. */
export function fetchPricing(installationId: number, signal?: AbortSignal): Promise<Pricing> {
  return apiFetch<Pricing>('/api/electricity-tariff/', { query: { installation: installationId }, signal })
}
