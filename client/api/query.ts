/**
 * Data loading for the REST screens: one TanStack Query client with the product's rules,
 * so pages declare what they read (`useQuery`) and what a save changes (`invalidateQueries`) instead of
 * fetching by hand. The live store (valtio, client/live/) is not part of it: live data comes by SSE.
 *
 * - Cache: answers stay fresh for {@link STALE_MS}; returning to a screen shows the cached answer at once
 *   and refetches in the background. The whole cache is dropped on logout (another person may sign in
 *   next on the same browser).
 * - Dedupe: concurrent reads of one key share one request (TanStack Query's own behaviour).
 * - Retries: reads are retried {@link MAX_RETRIES} times with capped exponential backoff and jitter,
 *   honouring a 429's Retry-After, but only where another try can help (network errors, timeouts, 5xx,
 *   408, 429); a 4xx is an answer, not a failure. Saves are never retried (they are not all idempotent).
 * - Timeout: every request gives up after {@link REQUEST_TIMEOUT_MS} (apiFetch), so a hung server shows
 *   an error the user can act on instead of a spinner forever.
 */
import { QueryClient } from '@tanstack/react-query'
import { ApiError, isAbortError } from './errors.ts'
import { onLogout } from '../session/session.ts'

/** How long an answer counts as fresh, ms: within it a screen opened again makes no request. */
export const STALE_MS = 30_000
/** Retries of a failed read (so at most 4 requests). */
export const MAX_RETRIES = 3
/** Backoff cap, ms. */
export const MAX_RETRY_DELAY_MS = 8_000

/**
 * Whether a failed read is worth another try: network errors and timeouts, 5xx, 408 and 429. Never a
 * 4xx answer (the server has decided), a 401 that ended the session, or a request the page cancelled.
 */
export function shouldRetry(failureCount: number, err: unknown): boolean {
  if (failureCount >= MAX_RETRIES) return false
  if (isAbortError(err)) return false
  if (err instanceof ApiError) {
    if (err.loggedOut) return false
    return err.status >= 500 || err.status === 408 || err.status === 429
  }
  return true
}

/**
 * Delay before retry number `attempt` (0-based), ms: 500 ms doubled per attempt, capped at
 * {@link MAX_RETRY_DELAY_MS}, with ±50 % jitter so many clients that failed together do not come back
 * together; a 429's Retry-After (RFC 9110 §10.2.3) is honoured when longer.
 */
export function retryDelay(attempt: number, err: unknown, random: () => number = Math.random): number {
  const base = Math.min(500 * 2 ** attempt, MAX_RETRY_DELAY_MS)
  const jittered = Math.round(base * (0.5 + random()))
  const after = err instanceof ApiError && err.retryAfter ? err.retryAfter * 1000 : 0
  return Math.max(jittered, after)
}

/** A query client with the rules above (a fresh one per test; the app uses {@link queryClient}). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: STALE_MS, retry: shouldRetry, retryDelay },
      mutations: { retry: false },
    },
  })
}

/** The app's query client (client/main.tsx provides it). */
export const queryClient = createQueryClient()

// Logging out drops everything read under the old session.
onLogout(() => queryClient.clear())
