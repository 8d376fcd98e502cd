import { apiFetch } from '../../api/http.ts'
import type { Pricing } from '../../../shared/schemas/pricing.ts'

export type { Pricing }

/** The tariff in force; 404 "Pricing is not found" when there is none. */
export function fetchPricing(installationId: number, signal?: AbortSignal): Promise<Pricing> {
  return apiFetch<Pricing>('/api/electricity-tariff/', { query: { installation: installationId }, signal })
}
