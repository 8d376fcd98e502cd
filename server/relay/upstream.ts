import { RELAY } from '../../config/defaults.ts'
import { RELAY_USER_AGENT } from '../api/request-log.ts'

/** An upstream answer that was not 2xx (status 0: network error or timeout). */
export class UpstreamError extends Error {
  readonly status: number
  constructor(status: number, text: string) {
    super(`upstream ${status}: ${text}`)
    this.status = status
  }
}

/**
 * The relay's HTTP client for the API (ARCHITECTURE §1: the relay talks to the API only over HTTP).
 * Polls run with the relay's own account (login, refresh on 401, login again when the refresh fails);
 * `asUser` forwards a subscriber's bearer token unchanged.
 */
export function createUpstream({ base, credentials, timeoutMs = RELAY.upstreamTimeoutMs }: {
  base: () => string
  credentials: { email: string; password: string }
  timeoutMs?: number
}) {
  let tokens: { access: string; refresh: string } | null = null
  let signingIn: Promise<void> | null = null

  async function call(path: string, init: RequestInit = {}): Promise<Response> {
    try {
      return await fetch(base() + path, { ...init, headers: { ...(init.headers as Record<string, string>), 'user-agent': RELAY_USER_AGENT }, signal: AbortSignal.timeout(timeoutMs) })
    } catch (err) {
      throw new UpstreamError(0, (err as Error).message)
    }
  }

  async function json<T>(res: Response): Promise<T> {
    if (!res.ok) throw new UpstreamError(res.status, (await res.text()).slice(0, 200))
    return (await res.json()) as T
  }

  async function signIn(): Promise<void> {
    if (tokens) {
      const r = await call('/authentication/token/refresh/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh: tokens.refresh }) })
      if (r.ok) {
        tokens = (await r.json()) as { access: string; refresh: string }
        return
      }
    }
    tokens = null
    const r = await call('/authentication/token/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(credentials) })
    tokens = await json<{ access: string; refresh: string }>(r)
  }

  // Single-flight: concurrent polls that meet a 401 share one sign-in.
  const ensureSignedIn = () => (signingIn ??= signIn().finally(() => (signingIn = null)))

  return {
    /** GET `path` with the relay's account. Throws UpstreamError. */
    async get<T>(path: string): Promise<T> {
      if (!tokens) await ensureSignedIn()
      let r = await call(path, { headers: { authorization: `Bearer ${tokens!.access}` } })
      if (r.status === 401) {
        await ensureSignedIn()
        r = await call(path, { headers: { authorization: `Bearer ${tokens!.access}` } })
      }
      return json<T>(r)
    },
    /**
     * Null when the relay's own account is signed in upstream (signing in now if it is not), else why
     * not: GET /api/ready reports it (an account that does not exist, a wrong password, an API that is
     * down), where every topic would otherwise just be "down".
     */
    async signInProblem(): Promise<string | null> {
      if (tokens) return null
      try {
        await ensureSignedIn()
        return null
      } catch (err) {
        return `cannot sign in at ${base()} as ${credentials.email}: ${(err as Error).message}`
      }
    },
    /** GET `path` as the subscriber whose bearer token this is. Throws UpstreamError with their status. */
    async asUser<T>(authorization: string, path: string, lang?: string): Promise<T> {
      return json<T>(await call(path, { headers: { authorization, ...(lang ? { 'accept-language': lang } : {}) } }))
    },
  }
}
export type Upstream = ReturnType<typeof createUpstream>
