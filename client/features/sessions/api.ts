import { apiFetch, refreshTokens } from '../../api/http.ts'
import { ApiError, apiErrorFrom } from '../../api/errors.ts'
import { readTokens, isExpiring } from '../../session/tokens.ts'
import { forceLogout } from '../../session/session.ts'
import { currentLanguage } from '../../i18n/index.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { ChargingSession } from '../../../shared/schemas/session.ts'

/** GET /api/rfids-charge/?start__gte&end__lte (installation header) → sessions of the period, newest first. */
export function listSessions(installationId: number, range: { start: string; end: string }, signal?: AbortSignal): Promise<PageOf<ChargingSession>> {
  return apiFetch<PageOf<ChargingSession>>('/api/rfids-charge/', {
    query: { installation: installationId, start__gte: range.start, end__lte: range.end, limit: 1000 },
    signal,
  })
}

/** GET /api/rfids-charge/{id}/ → one session; 404 "Session is not found" (SPEC §8). */
export function getSession(id: string | number, signal?: AbortSignal): Promise<ChargingSession> {
  return apiFetch<ChargingSession>(`/api/rfids-charge/${encodeURIComponent(String(id))}/`, { signal })
}

/**
 * Fetch the invoice PDF of a session (`invoice_url` with the bearer token and the UI language) and hand
 * it to the browser as a download. Throws {@link ApiError} like apiFetch.
 */
export async function downloadInvoice(invoiceUrl: string, filename: string): Promise<void> {
  const lang = currentLanguage()
  const url = `${invoiceUrl}?lang=${lang}`
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
