/**
 * Token storage (SPEC §4): the access JWT, the rotating refresh token and the user id live in
 * localStorage so that every tab shares them. localStorage is read at each use, never cached, so
 * a refresh done by another tab is picked up.
 */
import { clientNow, learnFromToken } from '../api/clock.ts'

const KEYS = { access: 'cockpit.access', refresh: 'cockpit.refresh', userId: 'cockpit.userId' } as const

export interface Tokens {
  access: string | null
  refresh: string | null
  userId: number | null
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key)
  } catch {
    return null
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) localStorage.removeItem(key)
    else localStorage.setItem(key, value)
  } catch {
    // storage unavailable (private mode quota): the session lasts as long as the page
  }
}

export function readTokens(): Tokens {
  const id = Number(read(KEYS.userId))
  return { access: read(KEYS.access), refresh: read(KEYS.refresh), userId: Number.isInteger(id) && id > 0 ? id : null }
}

/** Store a new access/refresh pair (login or rotation); the user id comes from the access JWT. */
export function writeTokens(access: string, refresh: string): void {
  write(KEYS.access, access)
  write(KEYS.refresh, refresh)
  const payload = decodeJwt(access)
  if (payload && typeof payload.user_id === 'number') write(KEYS.userId, String(payload.user_id))
  // Every caller stores a pair the server has just issued: its iat is the server's clock.
  learnFromToken(payload?.iat)
}

export function clearTokens(): void {
  write(KEYS.access, null)
  write(KEYS.refresh, null)
  write(KEYS.userId, null)
}

/** SPEC §4: logged in means a refresh token and a user id are both present. */
export function hasSession(): boolean {
  const t = readTokens()
  return t.refresh !== null && t.userId !== null
}

/** True when `key` is one of the token keys (for cross-tab `storage` events). */
export function isTokenKey(key: string | null): boolean {
  return key === null || Object.values(KEYS).includes(key as (typeof KEYS)[keyof typeof KEYS])
}

/** The JWT payload, decoded without verification (the server verifies); null when malformed. */
export function decodeJwt(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1]
  if (!part) return null
  try {
    const b64 = part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '=')
    const json = decodeURIComponent(
      Array.from(atob(b64), (c) => '%' + c.charCodeAt(0).toString(16).padStart(2, '0')).join(''),
    )
    const value: unknown = JSON.parse(json)
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** True when the access token expires within `skewMs` (or cannot be read). */
export function isExpiring(access: string, skewMs = 10_000, now = clientNow()): boolean {
  const exp = decodeJwt(access)?.exp
  return typeof exp !== 'number' || exp * 1000 - skewMs <= now
}
