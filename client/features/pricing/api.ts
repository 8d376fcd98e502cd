import type { QueryClient } from '@tanstack/react-query'
import { apiFetch } from '../../api/http.ts'
import { figuresChanged } from '../../api/figures.ts'
import type { Pricing, PricingUpdate } from '../../../shared/schemas/pricing.ts'
import type { Installation, Operator } from '../../../shared/schemas/installation.ts'
import type { ZevSettings } from '../../../shared/schemas/zev.ts'

export type { Pricing }
export type TariffInput = Omit<PricingUpdate, 'id' | 'valid_to' | 'editable'>

/**
 * Query keys of the pricing screen. `all` is what saving a tariff version changes (the
 * tariff in force and the versions); the ZEV billing model is saved on its own.
 */
export const pricingKeys = {
  all: (installationId: number) => ['installations', installationId, 'pricing'] as const,
  current: (installationId: number) => ['installations', installationId, 'pricing', 'current'] as const,
  versions: (installationId: number) => ['installations', installationId, 'pricing', 'versions'] as const,
  zev: (installationId: number) => ['installations', installationId, 'zev-settings'] as const,
}

/**
 * After a tariff version was saved: the tariff in force and the versions, and every figure of the
 * installation, since station energy is priced at the tariff of its day when read (client/api/figures.ts).
 */
export async function tariffSaved(queryClient: QueryClient, installationId: number): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: pricingKeys.all(installationId) }), figuresChanged(queryClient, installationId)])
}

/** After the ZEV model was saved (answer `saved`): the stored settings, and the figures (the ZEV report bills by it). */
export async function zevSaved(queryClient: QueryClient, installationId: number, saved: ZevSettings): Promise<void> {
  queryClient.setQueryData(pricingKeys.zev(installationId), saved)
  await figuresChanged(queryClient, installationId)
}

/** The tariff in force; 404 "Pricing is not found" when there is none. */
export function fetchPricing(installationId: number, signal?: AbortSignal): Promise<Pricing> {
  return apiFetch<Pricing>('/api/electricity-tariff/', { query: { installation: installationId }, signal })
}

/** Every tariff version, newest first. */
export function fetchTariffVersions(installationId: number, signal?: AbortSignal): Promise<Pricing[]> {
  return apiFetch<Pricing[]>('/api/electricity-tariff/versions/', { query: { installation: installationId }, signal })
}

/** PUT /api/electricity-tariff/ (admins): the version from `valid_from` (after today) on; 400 with field messages. */
export function saveTariff(installationId: number, body: TariffInput): Promise<Pricing> {
  return apiFetch<Pricing>('/api/electricity-tariff/', { method: 'PUT', query: { installation: installationId }, body })
}

/** PATCH /api/cockpit/installations/{id}/ {operator} (admins): who bills charging; 400 by field. */
export function saveOperator(installationId: number, operator: Operator): Promise<Installation> {
  return apiFetch<Installation>(`/api/cockpit/installations/${installationId}/`, { method: 'PATCH', body: { operator } })
}
