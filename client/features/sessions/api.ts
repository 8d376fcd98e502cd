import { apiFetch, refreshTokens } from '../../api/http.ts'
import { ApiError, apiErrorFrom } from '../../api/errors.ts'
import { readTokens, isExpiring } from '../../session/tokens.ts'
import { forceLogout } from '../../session/session.ts'
import { currentLanguage } from '../../i18n/index.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { ChargingSession, SessionReviewInput, SessionTotals } from '../../../shared/schemas/session.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { ManagedUser } from '../../../shared/schemas/accounts.ts'

/** The list's and export's station and person filters (ids; absent: all the caller may see). */
export interface SessionFilters {
  station_id?: number
  user_id?: number
}

/** A page of the sessions list with the totals of the whole period. */
export type SessionPage = PageOf<ChargingSession> & { totals: SessionTotals }

/**
 * Query keys of the sessions screens: pages of a period's list and single sessions, all
 * under the installation they belong to.
 */
export const sessionKeys = {
  all: (installationId: number) => ['installations', installationId, 'sessions'] as const,
  page: (installationId: number, range: { start: string; end: string }, offset: number, limit: number, filters: SessionFilters = {}) =>
    [...sessionKeys.all(installationId), 'list', range.start, range.end, offset, limit, filters.station_id ?? null, filters.user_id ?? null] as const,
  stations: (installationId: number) => [...sessionKeys.all(installationId), 'stations'] as const,
  people: (installationId: number) => [...sessionKeys.all(installationId), 'people'] as const,
  detail: (installationId: number, sessionId: string) => [...sessionKeys.all(installationId), 'detail', sessionId] as const,
  held: (installationId: number) => [...sessionKeys.all(installationId), 'held'] as const,
}

/** Held sessions fetched at once by the review screen: more wait rarely; the screen says when some are not shown. */
export const HELD_LIMIT = 100

/**
 * GET /api/rfids-charge/?status=held (installation query) → the sessions held for an admin's review
 * (a charger figure broke a rule or a debit ceiling held it), newest first, up to HELD_LIMIT; `count`
 * is how many wait in all.
 */
export function listHeldSessions(installationId: number, signal?: AbortSignal): Promise<SessionPage> {
  return apiFetch<SessionPage>('/api/rfids-charge/', { query: { installation: installationId, status: 'held', limit: HELD_LIMIT, offset: 0 }, signal })
}

/**
 * POST /api/cockpit/installations/{id}/charging_sessions/{sessionId}/review {action, energy_kwh?, reason}
 * → the session after the review (admins): corrected, released as it is, or void. 400 by field
 * (`energy_kwh`, `reason`), 409 while it charges or once it is paid.
 */
export function reviewSession(installationId: number, sessionId: number, body: SessionReviewInput): Promise<ChargingSession> {
  return apiFetch<ChargingSession>(`/api/cockpit/installations/${installationId}/charging_sessions/${sessionId}/review`, { method: 'POST', body })
}

/**
 * POST /api/cockpit/installations/{id}/charging_sessions/{sessionId}/end {reason} → the session, ended now
 * (admins; a charger that never stopped it). 400 `reason` (3–500 characters), 409 once it has ended.
 */
export function endSession(installationId: number, sessionId: number, reason: string): Promise<ChargingSession> {
  return apiFetch<ChargingSession>(`/api/cockpit/installations/${installationId}/charging_sessions/${sessionId}/end`, { method: 'POST', body: { reason } })
}

/**
 * GET /api/rfids-charge/?start__gte&end__lte&running=true&station_id&user_id&limit&offset (installation
 * query) → one page of the period's sessions (of one station or person when `filters` say so), running
 * ones first, with the totals of all of them.
 */
export function listSessions(installationId: number, range: { start: string; end: string }, page: { limit: number; offset: number }, signal?: AbortSignal, filters: SessionFilters = {}): Promise<SessionPage> {
  return apiFetch<SessionPage>('/api/rfids-charge/', {
    query: { installation: installationId, start__gte: range.start, end__lte: range.end, running: 'true', ...filters, limit: page.limit, offset: page.offset },
    signal,
  })
}

/** Download the period's sessions (with the same filters) as CSV or XLSX (GET /api/rfids-charge/export, in the UI language). */
export function exportSessions(installationId: number, range: { start: string; end: string }, format: 'csv' | 'xlsx', filename: string, filters: SessionFilters = {}): Promise<void> {
  const query = new URLSearchParams({ installation: String(installationId), start__gte: range.start, end__lte: range.end, running: 'true', format, lang: currentLanguage() })
  if (filters.station_id) query.set('station_id', String(filters.station_id))
  if (filters.user_id) query.set('user_id', String(filters.user_id))
  return downloadFile(`/api/rfids-charge/export?${query}`, filename)
}

/** GET /api/cockpit/installations/{id}/charging_stations/?limit=1000 → the stations the caller may read (the station filter). */
export async function fetchSessionStations(installationId: number, signal?: AbortSignal): Promise<Pick<Station, 'id' | 'name'>[]> {
  return (await apiFetch<PageOf<Station>>(`/api/cockpit/installations/${installationId}/charging_stations/`, { query: { limit: 1000 }, signal })).results
}

/** GET /api/cockpit/users/?installation&role=all → the installation's people (admins: the person filter). */
export async function fetchSessionPeople(installationId: number, signal?: AbortSignal): Promise<Pick<ManagedUser, 'id' | 'full_name' | 'email'>[]> {
  return (await apiFetch<PageOf<ManagedUser>>('/api/cockpit/users/', { query: { installation: installationId, role: 'all', limit: 1000 }, signal })).results
}

/** GET /api/rfids-charge/{id}/ → one session; 404 "Session is not found" (SPEC §8). */
export function getSession(id: string | number, signal?: AbortSignal): Promise<ChargingSession> {
  return apiFetch<ChargingSession>(`/api/rfids-charge/${encodeURIComponent(String(id))}/`, { signal })
}

/**
 * Fetch the invoice PDF of a session (`invoice_url` with the bearer token and the UI language) and hand
 * it to the browser as a download. Throws {@link ApiError} like apiFetch.
 */
export function downloadInvoice(invoiceUrl: string, filename: string): Promise<void> {
  return downloadFile(`${invoiceUrl}?lang=${currentLanguage()}`, filename)
}

/** Fetch `url` with the bearer token and hand the answer to the browser as the download `filename`. */
async function downloadFile(url: string, filename: string): Promise<void> {
  const lang = currentLanguage()
  let access = readTokens().access
  if (!access || isExpiring(access)) {
    if ((await refreshTokens(access)) === 'logout') {
      forceLogout()
      throw new ApiError(url, 401, 'Unauthorized', null)
    }
    access = readTokens().access
  }
  const res = await fetch(url, { headers: { Authorization: `Bearer ${access}`, 'Accept-Language': lang } })
  if (!res.ok) throw await apiErrorFrom(res)
  const blob = await res.blob()
  const href = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = href
  a.download = filename
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(href), 10_000)
}
