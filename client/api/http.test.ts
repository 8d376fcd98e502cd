import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const forceLogout = vi.fn()
vi.mock('../session/session.ts', () => ({ forceLogout: () => forceLogout() }))
vi.mock('../i18n/index.ts', () => ({ currentLanguage: () => 'de' }))

const { apiFetch, resetRefreshForTests, keepSessionAlive } = await import('./http.ts')
const { ApiError, errorMessage, isTimeoutError } = await import('./errors.ts')
const { readTokens, writeTokens } = await import('../session/tokens.ts')

class MemoryStorage {
  private data = new Map<string, string>()
  getItem(k: string) {
    return this.data.get(k) ?? null
  }
  setItem(k: string, v: string) {
    this.data.set(k, String(v))
  }
  removeItem(k: string) {
    this.data.delete(k)
  }
  clear() {
    this.data.clear()
  }
}

/** An unsigned JWT with the claims the client reads. */
function jwt(userId: number, expInSeconds: number, salt = ''): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  return `${b64({ alg: 'HS256' })}.${b64({ user_id: userId, exp: Math.floor(Date.now() / 1000) + expInSeconds, salt })}.sig`
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } })
}

type Call = { url: string; method: string; auth: string | null; body: unknown; lang: string | null }
let calls: Call[]

function mockFetch(handler: (call: Call) => Response | Promise<Response>) {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit = {}) => {
    const headers = (init.headers ?? {}) as Record<string, string>
    const call = {
      url,
      method: init.method ?? 'GET',
      auth: headers.Authorization ?? null,
      body: init.body ? JSON.parse(String(init.body)) : undefined,
      lang: headers['Accept-Language'] ?? null,
    }
    calls.push(call)
    return handler(call)
  })
}

describe('apiFetch', () => {
  beforeEach(() => {
    vi.stubGlobal('localStorage', new MemoryStorage())
    calls = []
    forceLogout.mockReset()
    resetRefreshForTests()
  })
  afterEach(() => vi.unstubAllGlobals())

  it('sends the bearer token and Accept-Language and parses JSON', async () => {
    const access = jwt(7, 300)
    writeTokens(access, 'r1')
    mockFetch(() => json(200, { ok: true }))
    await expect(apiFetch('/api/users/7/', { query: { a: 1, b: null } })).resolves.toEqual({ ok: true })
    expect(calls).toEqual([{ url: '/api/users/7/?a=1', method: 'GET', auth: `Bearer ${access}`, body: undefined, lang: 'de' }])
    expect(readTokens().userId).toBe(7)
  })

  it('shares one refresh among concurrent 401s, stores the rotated pair and retries once', async () => {
    const stale = jwt(7, 300, 'old')
    const fresh = jwt(7, 300, 'new')
    writeTokens(stale, 'r1')
    let release!: () => void
    const gate = new Promise<void>((r) => (release = r))
    mockFetch(async (c) => {
      if (c.url === '/api/authentication/token/refresh/') {
        await gate
        return c.body && (c.body as { refresh: string }).refresh === 'r1' ? json(200, { access: fresh, refresh: 'r2' }) : json(401, { detail: 'reused' })
      }
      return c.auth === `Bearer ${fresh}` ? json(200, { url: c.url }) : json(401, { detail: 'expired' })
    })
    const all = Promise.all([apiFetch('/api/a'), apiFetch('/api/b'), apiFetch('/api/c')])
    await new Promise((r) => setTimeout(r, 10))
    release()
    await expect(all).resolves.toEqual([{ url: '/api/a' }, { url: '/api/b' }, { url: '/api/c' }])
    expect(calls.filter((c) => c.url.includes('refresh')).length).toBe(1)
    expect(readTokens()).toMatchObject({ access: fresh, refresh: 'r2' })
    expect(forceLogout).not.toHaveBeenCalled()
  })

  it('a 401 after another refresh already happened uses the stored pair without refreshing again', async () => {
    const fresh = jwt(7, 300, 'new')
    writeTokens(jwt(7, 300, 'old'), 'r1')
    mockFetch((c) => {
      if (c.url.includes('refresh')) return json(200, { access: fresh, refresh: 'r2' })
      return c.auth === `Bearer ${fresh}` ? json(200, 1) : json(401, { detail: 'expired' })
    })
    await apiFetch('/api/a')
    // Another tab or an earlier refresh already stored `fresh`: a late 401 for the old token only retries.
    calls = []
    await apiFetch('/api/b')
    expect(calls.map((c) => c.url)).toEqual(['/api/b'])
  })

  it('refreshes an expired access token before sending', async () => {
    const fresh = jwt(7, 300)
    writeTokens(jwt(7, -10), 'r1')
    mockFetch((c) => (c.url.includes('refresh') ? json(200, { access: fresh, refresh: 'r2' }) : json(200, 'ok')))
    await apiFetch('/api/x')
    expect(calls.map((c) => c.url)).toEqual(['/api/authentication/token/refresh/', '/api/x'])
    expect(calls[1].auth).toBe(`Bearer ${fresh}`)
  })

  it('logs out when the refresh answers 401', async () => {
    writeTokens(jwt(7, 300), 'r1')
    mockFetch((c) => (c.url.includes('refresh') ? json(401, { detail: 'invalid' }) : json(401, { detail: 'expired' })))
    const err = await apiFetch('/api/x').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as InstanceType<typeof ApiError>).loggedOut).toBe(true)
    expect(forceLogout).toHaveBeenCalledTimes(1)
  })

  it('logs out when there is no refresh token', async () => {
    localStorage.setItem('cockpit.access', jwt(7, 300))
    mockFetch(() => json(401, { detail: 'expired' }))
    await expect(apiFetch('/api/x')).rejects.toBeInstanceOf(ApiError)
    expect(forceLogout).toHaveBeenCalledTimes(1)
  })

  it('lets other refresh failures propagate without logging out', async () => {
    writeTokens(jwt(7, 300), 'r1')
    mockFetch((c) => (c.url.includes('refresh') ? json(503, { detail: 'down' }) : json(401, { detail: 'expired' })))
    const err = await apiFetch('/api/x').catch((e: unknown) => e)
    expect((err as InstanceType<typeof ApiError>).status).toBe(503)
    expect(forceLogout).not.toHaveBeenCalled()
  })

  it('does not refresh for unauthenticated calls (login) and reports Retry-After', async () => {
    mockFetch(() => json(429, { detail: 'Too many attempts.' }, { 'Retry-After': '42' }))
    const err = (await apiFetch('/api/authentication/token/', { method: 'POST', auth: false, body: { email: 'a' } }).catch((e: unknown) => e)) as InstanceType<typeof ApiError>
    expect(err.status).toBe(429)
    expect(err.retryAfter).toBe(42)
    expect(calls).toHaveLength(1)
    expect(calls[0].auth).toBeNull()
  })

  it('a page kept open for a week stays signed in: the session is renewed before the 24 h refresh token lapses', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] })
    try {
      // A server whose refresh tokens live 24 h and rotate (ARCHITECTURE §3).
      const issued = new Map<string, number>([['r0', Date.now()]])
      let n = 0
      mockFetch((c) => {
        if (!c.url.includes('refresh')) return json(200, 'ok')
        const token = (c.body as { refresh: string }).refresh
        const at = issued.get(token)
        if (at === undefined || Date.now() - at > 24 * 3600_000) return json(401, { detail: 'expired' })
        issued.delete(token)
        const next = `r${++n}`
        issued.set(next, Date.now())
        return json(200, { access: jwt(7, 300, next), refresh: next })
      })
      writeTokens(jwt(7, 300), 'r0')
      const stop = keepSessionAlive()
      for (let day = 0; day < 7; day++) await vi.advanceTimersByTimeAsync(24 * 3600_000)
      await expect(apiFetch('/api/x')).resolves.toBe('ok')
      expect(forceLogout).not.toHaveBeenCalled()
      stop()
      // Without it the same week ends in a forced logout.
      await vi.advanceTimersByTimeAsync(25 * 3600_000)
      await expect(apiFetch('/api/y')).rejects.toBeInstanceOf(ApiError)
      expect(forceLogout).toHaveBeenCalled()
    } finally {
      vi.useRealTimers()
    }
  })
  it('gives up on a server that does not answer after the timeout, with a message that says so', async () => {
    writeTokens(jwt(7, 300), 'r1')
    // A hung server: the answer never comes; only the request's signal ends the wait.
    vi.stubGlobal('fetch', (_url: string, init: RequestInit = {}) =>
      new Promise<Response>((_resolve, reject) => init.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
    )
    const started = Date.now()
    const err = await apiFetch('/api/slow/', { timeoutMs: 50 }).catch((e: unknown) => e)
    expect(Date.now() - started).toBeLessThan(2000)
    expect(isTimeoutError(err)).toBe(true)
    expect(errorMessage(err, (key) => key)).toBe('errors.timeout')
    // A page that cancels its own request is told nothing new: still a cancellation, not a timeout.
    const ctrl = new AbortController()
    const pending = apiFetch('/api/slow/', { signal: ctrl.signal }).catch((e: unknown) => e)
    ctrl.abort()
    expect(isTimeoutError(await pending)).toBe(false)
  })
})
