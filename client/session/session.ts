import { proxy } from 'valtio/vanilla'
import { navigate } from 'wouter/use-browser-location'
import type { User } from '../../shared/schemas/auth.ts'
import type { Installation } from '../../shared/schemas/installation.ts'
import { clearTokens, hasSession, isTokenKey, readTokens, writeTokens } from './tokens.ts'

/**
 * The session store (SPEC §4): who is logged in, their user record and installations, and which
 * installation is open. Tokens themselves stay in localStorage (tokens.ts).
 */
export interface SessionState {
  /** SPEC §4: refresh token and user id present. */
  loggedIn: boolean
  userId: number | null
  user: User | null
  installations: Installation[] | null
  /** When the installation list was loaded (ms), for the 6 h refresh (SPEC §9). */
  installationsLoadedAt: number | null
  /** The installation the UI shows, from the route. */
  currentInstallationId: number | null
}

function initialState(): SessionState {
  const t = readTokens()
  return {
    loggedIn: hasSession(),
    userId: t.userId,
    user: null,
    installations: null,
    installationsLoadedAt: null,
    currentInstallationId: null,
  }
}

export const session = proxy<SessionState>(initialState())

type Listener = (previousInstallationId: number | null, nextInstallationId: number) => void
const logoutListeners = new Set<() => void>()
const installationListeners = new Set<Listener>()

/** Run `fn` on every logout (to drop installation data and close streams). Returns an unsubscribe. */
export function onLogout(fn: () => void): () => void {
  logoutListeners.add(fn)
  return () => logoutListeners.delete(fn)
}

/** Run `fn` when the open installation changes (SPEC §4: installation-bound data is reset). */
export function onInstallationChange(fn: Listener): () => void {
  installationListeners.add(fn)
  return () => installationListeners.delete(fn)
}

const LAST_INSTALLATION = 'cockpit.lastInstallation'

/** The installation opened last in this browser, if any. */
export function lastInstallationId(): number | null {
  try {
    const id = Number(localStorage.getItem(LAST_INSTALLATION))
    return Number.isInteger(id) && id > 0 ? id : null
  } catch {
    return null
  }
}

/** Make `id` the open installation; a change resets the previous installation's data. */
export function selectInstallation(id: number): void {
  const previous = session.currentInstallationId
  if (previous === id) return
  session.currentInstallationId = id
  try {
    localStorage.setItem(LAST_INSTALLATION, String(id))
  } catch {
    // not remembered
  }
  if (previous !== null) for (const fn of installationListeners) fn(previous, id)
}

/** Store the tokens of a successful login and mark the session as logged in. */
export function startSession(access: string, refresh: string): void {
  writeTokens(access, refresh)
  const t = readTokens()
  session.userId = t.userId
  session.loggedIn = hasSession()
  session.user = null
  session.installations = null
  session.installationsLoadedAt = null
}

function clearState(): void {
  clearTokens()
  Object.assign(session, {
    loggedIn: false,
    userId: null,
    user: null,
    installations: null,
    installationsLoadedAt: null,
    currentInstallationId: null,
  } satisfies SessionState)
  for (const fn of logoutListeners) fn()
}

/**
 * Ask the server to revoke the refresh token's family (ARCHITECTURE §3), fire and forget: the browser
 * logs out whatever the answer, also offline. `keepalive` lets the request outlive a page being closed.
 */
function revokeOnServer(refresh: string): void {
  try {
    fetch('/api/authentication/logout/', {
      method: 'POST',
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ refresh }),
    }).catch(() => {})
  } catch {
    // no fetch at all: nothing to tell the server
  }
}

/** Log out (SPEC §4): clear tokens, user id, user data, installations and installation data; go to /login. */
export function logout(): void {
  const { refresh } = readTokens()
  if (refresh) revokeOnServer(refresh)
  clearState()
  navigate('/login', { replace: true })
}

/** The login URL for a forced logout (SPEC §2): installation id and the encoded path the user was on. */
export function forcedLoginUrl(installationId: number | null, from: string): string {
  const params = new URLSearchParams()
  if (installationId !== null) params.set('installation', String(installationId))
  if (from && !from.startsWith('/login')) params.set('redirectFrom', from)
  const query = params.toString()
  return query ? `/login?${query}` : '/login'
}

/** Forced logout (SPEC §8: the refresh failed with 401 or there is no refresh token). */
export function forceLogout(): void {
  // Concurrent requests that all lost the session each end up here: only the first one acts.
  if (!session.loggedIn) return
  const installationId = session.currentInstallationId
  const from = window.location.pathname + window.location.search
  clearState()
  navigate(forcedLoginUrl(installationId, from), { replace: true })
}

/** Follow logouts and logins of other tabs through the shared localStorage. */
export function watchOtherTabs(): () => void {
  const onStorage = (e: StorageEvent) => {
    if (!isTokenKey(e.key)) return
    if (session.loggedIn && !hasSession()) forceLogout()
    else if (!session.loggedIn && hasSession()) {
      session.userId = readTokens().userId
      session.loggedIn = true
    }
  }
  window.addEventListener('storage', onStorage)
  return () => window.removeEventListener('storage', onStorage)
}

/** True for installation admins and superusers (SPEC §6: they can unlock stations). */
export function isAdmin(installation: Pick<Installation, 'role'> | null | undefined): boolean {
  return installation?.role === 'installation_admin' || installation?.role === 'superuser'
}
