import { apiFetch } from '../api/http.ts'
import { session } from './session.ts'
import type { User } from '../../shared/schemas/auth.ts'
import type { Installation } from '../../shared/schemas/installation.ts'
import type { PageOf } from '../../shared/schemas/common.ts'
import { CLIENT_REFRESH_MS } from '../../config/defaults.ts'
import { clientNow } from '../api/clock.ts'

/** GET /api/users/{id}/ → User. */
export function fetchUser(userId: number, signal?: AbortSignal): Promise<User> {
  return apiFetch<User>(`/api/users/${userId}/`, { signal })
}

/** GET /api/cockpit/installations/ → all installations of the caller (one page of up to 1000). */
export async function fetchInstallations(signal?: AbortSignal): Promise<Installation[]> {
  const page = await apiFetch<PageOf<Installation>>('/api/cockpit/installations/', { query: { limit: 1000 }, signal })
  return page.results
}

/** GET /api/cockpit/installations/{id}/ → Installation (403/404 when not accessible). */
export function fetchInstallation(id: number, signal?: AbortSignal): Promise<Installation> {
  return apiFetch<Installation>(`/api/cockpit/installations/${id}/`, { signal })
}

let userRequest: Promise<User> | null = null
let installationsRequest: Promise<Installation[]> | null = null

/** Load the logged-in user into the session once (shared by concurrent callers). */
export function ensureUser(): Promise<User> {
  if (session.user) return Promise.resolve(session.user)
  const userId = session.userId
  if (userId === null) return Promise.reject(new Error('not logged in'))
  userRequest ??= fetchUser(userId)
    .then((user) => {
      if (session.userId === userId) session.user = user
      return user
    })
    .finally(() => {
      userRequest = null
    })
  return userRequest
}

/**
 * Load the installation list into the session; reloaded when older than 6 h (SPEC §9 slow data)
 * or when `force` is set.
 */
export function ensureInstallations(force = false): Promise<Installation[]> {
  const fresh =
    session.installations !== null &&
    session.installationsLoadedAt !== null &&
    clientNow() - session.installationsLoadedAt < CLIENT_REFRESH_MS.installations
  if (fresh && !force) return Promise.resolve(session.installations as Installation[])
  installationsRequest ??= fetchInstallations()
    .then((list) => {
      if (session.loggedIn) {
        session.installations = list
        session.installationsLoadedAt = clientNow()
      }
      return list
    })
    .finally(() => {
      installationsRequest = null
    })
  return installationsRequest
}
