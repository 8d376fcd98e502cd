import type { QueryClient } from '@tanstack/react-query'
import { apiFetch } from '../../api/http.ts'
import { figuresChanged } from '../../api/figures.ts'
import type { Rate, RateKind, TimeSpan } from '../../../shared/schemas/rates.ts'
import { RATE_PRICES } from '../../../shared/rules/choices.ts'

export type { Rate, RateKind, TimeSpan }

/** Price fields per kind, CHF per kWh or m3. */
export const RATE_FIELDS: Record<RateKind, readonly string[]> = RATE_PRICES

export type RateInput = Omit<Rate, 'id' | 'kind' | 'editable' | 'installation'>

/**
 * Query keys of the rates screen: `all` is every kind of one installation, `list` one kind's
 * list (what a save or delete of a rate of that kind changes).
 */
export const rateKeys = {
  all: (installationId: number) => ['installations', installationId, 'rates'] as const,
  list: (installationId: number, kind: RateKind) => ['installations', installationId, 'rates', kind] as const,
}

/**
 * After a rate of `kind` was created, changed or deleted: its list, and every chart, total and Overview
 * figure of the installation, since costs are priced at the rate in force when read (client/api/figures.ts).
 */
export async function ratesChanged(queryClient: QueryClient, installationId: number, kind: RateKind): Promise<void> {
  await Promise.all([queryClient.invalidateQueries({ queryKey: rateKeys.list(installationId, kind) }), figuresChanged(queryClient, installationId)])
}

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
