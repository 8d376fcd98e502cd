import { ApiError, apiErrorFrom } from './errors.ts'
import { readTokens, writeTokens, isExpiring } from '../session/tokens.ts'
import { forceLogout } from '../session/session.ts'
import { currentLanguage } from '../i18n/index.ts'

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** JSON body. */
  body?: unknown
  /** Query parameters; undefined and null values are left out. */
  query?: Record<string, string | number | boolean | null | undefined>
  signal?: AbortSignal
  /** Send the bearer token and handle 401 with one refresh (default true). */
  auth?: boolean
  /**
   * A display link's key sent as the bearer instead of the session's token; a 401 then
   * throws without refreshing or logging anyone out.
   */
  credential?: string
  /** Give up after this many ms (default {@link REQUEST_TIMEOUT_MS}); the error is a `TimeoutError`. */
  timeoutMs?: number
}

/**
 * How long a request may take before it is abandoned, ms. Long enough for a year of
 * 15-minute statistics on a loaded server, short enough that a hung one shows an error, not a spinner.
 */
export const REQUEST_TIMEOUT_MS = 30_000

type RefreshOutcome = 'ok' | 'logout'
let inflight: Promise<RefreshOutcome> | null = null

/**
 * Refresh the tokens once for all concurrent callers (SPEC §8 single-flight). Tabs coordinate
 * through a Web Lock, and a tab that finds a fresh pair already stored by another tab uses it
 * instead of spending the rotated refresh token twice (reuse would revoke the family).
 * Resolves 'logout' when there is no refresh token or the server answers 401; other failures reject.
 */
export function refreshTokens(staleAccess: string | null, force = false): Promise<RefreshOutcome> {
  inflight ??= runExclusive(() => doRefresh(staleAccess, force)).finally(() => {
    inflight = null
  })
  return inflight
}

function runExclusive<T>(fn: () => Promise<T>): Promise<T> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined
  return locks ? (locks.request('cockpit-token-refresh', fn) as Promise<T>) : fn()
}

async function doRefresh(staleAccess: string | null, force: boolean): Promise<RefreshOutcome> {
  const tokens = readTokens()
  if (!force && tokens.access && tokens.access !== staleAccess && !isExpiring(tokens.access)) return 'ok'
  if (!tokens.refresh) return 'logout'
  const res = await fetch('/api/authentication/token/refresh/', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Accept-Language': currentLanguage() },
    body: JSON.stringify({ refresh: tokens.refresh }),
  })
  if (res.status === 401) return 'logout'
  if (!res.ok) throw await apiErrorFrom(res)
  const body = (await res.json()) as { access: string; refresh: string }
  writeTokens(body.access, body.refresh)
  return 'ok'
}

function buildUrl(path: string, query: RequestOptions['query']): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, String(v))
  const qs = params.toString()
  return qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path
}

function send(url: string, opts: RequestOptions, access: string | null): Promise<Response> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS)
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLanguage() }
  if (opts.body !== undefined) headers['Content-Type'] = 'application/json'
  if (opts.auth !== false && access) headers.Authorization = `Bearer ${access}`
  return fetch(url, {
    method: opts.method ?? 'GET',
    headers,
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    signal: opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout,
  })
}

async function loggedOutError(url: string): Promise<ApiError> {
  forceLogout()
  const err = new ApiError(url, 401, 'Unauthorized', null)
  err.loggedOut = true
  return err
}

/**
 * Call the API (same origin) and parse its JSON answer. Sends the bearer token and Accept-Language.
 * On 401: one shared refresh, then one retry; no refresh token or a 401 from the refresh logs the
 * user out and sends them to /login (SPEC §8). Non-2xx answers throw {@link ApiError}.
 */
export async function apiFetch<T>(path: string, opts: RequestOptions = {}): Promise<T> {
  const url = buildUrl(path, opts.query)
  if (opts.credential) {
    const res = await send(url, opts, opts.credential)
    if (!res.ok) throw await apiErrorFrom(res)
    return (res.status === 204 ? undefined : await res.json()) as T
  }
  const auth = opts.auth !== false
  let access = auth ? readTokens().access : null
  // An access token known to be expired would only earn a 401: refresh first.
  if (auth && (!access || isExpiring(access))) {
    if ((await refreshTokens(access)) === 'logout') throw await loggedOutError(url)
    access = readTokens().access
  }
  let res = await send(url, opts, access)
  if (auth && res.status === 401) {
    if ((await refreshTokens(access)) === 'logout') throw await loggedOutError(url)
    res = await send(url, opts, readTokens().access)
  }
  if (!res.ok) throw await apiErrorFrom(res)
  if (res.status === 204) return undefined as T
  const text = await res.text()
  return (text ? JSON.parse(text) : undefined) as T
}

/** How often an open page renews its session: well inside the 24 h a refresh token lives (ARCHITECTURE §3). */
export const RENEW_EVERY_MS = 60 * 60_000

/**
 * Keep the session alive while a page is open (a wall display showing Power was logged out
 * once its 24 h refresh token lapsed, since an open live page makes no API calls): rotate the refresh
 * token every {@link RENEW_EVERY_MS}, which gives it a fresh 24 h. Failures are left to the next call
 * (a 401 there logs out as usual). Returns the stop function.
 */
export function keepSessionAlive(everyMs = RENEW_EVERY_MS): () => void {
  const timer = setInterval(() => {
    if (readTokens().refresh) refreshTokens(readTokens().access, true).catch(() => undefined)
  }, everyMs)
  return () => clearInterval(timer)
}

/** Test hook: forget a pending refresh. */
export function resetRefreshForTests(): void {
  inflight = null
}
