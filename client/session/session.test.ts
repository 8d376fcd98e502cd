import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const navigate = vi.fn()
vi.mock('wouter/use-browser-location', () => ({ navigate: (...args: unknown[]) => navigate(...args) }))

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
}
const storage = new MemoryStorage()
vi.stubGlobal('localStorage', storage)
vi.stubGlobal('window', { location: { pathname: '/facility/3/power', search: '?x=1' } })

const { session, startSession, selectInstallation, onInstallationChange, onLogout, logout, forceLogout, forcedLoginUrl } = await import(
  './session.ts'
)
const { readTokens } = await import('./tokens.ts')

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
const access = `${b64({ alg: 'HS256' })}.${b64({ user_id: 5, exp: 9_999_999_999 })}.sig`

describe('session', () => {
  beforeEach(() => {
    navigate.mockReset()
    startSession(access, 'refresh-1')
  })
  afterEach(() => vi.clearAllMocks())

  it('is logged in with a refresh token and the user id from the JWT (SPEC §4)', () => {
    expect(session.loggedIn).toBe(true)
    expect(session.userId).toBe(5)
    expect(readTokens()).toEqual({ access, refresh: 'refresh-1', userId: 5 })
  })

  it('announces an installation change with the previous and the next id', () => {
    const seen: Array<[number | null, number]> = []
    const off = onInstallationChange((prev, next) => seen.push([prev, next]))
    selectInstallation(1)
    selectInstallation(1)
    selectInstallation(2)
    off()
    // The first selection has nothing to reset; selecting the same one again is no change.
    expect(seen).toEqual([[1, 2]])
    expect(localStorage.getItem('cockpit.lastInstallation')).toBe('2')
  })

  it('logout clears tokens, user data and installations and tells the live store', () => {
    const dropped = vi.fn()
    const off = onLogout(dropped)
    session.installations = []
    logout()
    off()
    expect(dropped).toHaveBeenCalledTimes(1)
    expect(readTokens()).toEqual({ access: null, refresh: null, userId: null })
    expect(session).toMatchObject({ loggedIn: false, userId: null, user: null, installations: null, currentInstallationId: null })
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true })
  })

  it('logout revokes the refresh token on the server, and still logs out when offline', async () => {
    const fetchMock = vi.fn(() => Promise.reject(new TypeError('Failed to fetch')))
    vi.stubGlobal('fetch', fetchMock)
    try {
      logout()
      expect(fetchMock).toHaveBeenCalledTimes(1)
      const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
      expect(url).toBe('/api/authentication/logout/')
      expect(init).toMatchObject({ method: 'POST', keepalive: true })
      expect(JSON.parse(String(init.body))).toEqual({ refresh: 'refresh-1' })
      // The request failed (offline): the browser is logged out all the same.
      expect(readTokens()).toEqual({ access: null, refresh: null, userId: null })
      expect(navigate).toHaveBeenCalledWith('/login', { replace: true })
      await Promise.resolve()
    } finally {
      vi.unstubAllGlobals()
      vi.stubGlobal('localStorage', storage)
      vi.stubGlobal('window', { location: { pathname: '/facility/3/power', search: '?x=1' } })
    }
  })

  it('a forced logout sends to login with the installation and the encoded path, once', () => {
    selectInstallation(3)
    forceLogout()
    forceLogout()
    expect(navigate).toHaveBeenCalledTimes(1)
    expect(navigate).toHaveBeenCalledWith('/login?installation=3&redirectFrom=%2Ffacility%2F3%2Fpower%3Fx%3D1', { replace: true })
  })

  it('never redirects back to the login page itself', () => {
    expect(forcedLoginUrl(null, '/login?installation=3')).toBe('/login')
  })
})
