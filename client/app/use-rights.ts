import { useEffect, useMemo } from 'react'
import { useSnapshot } from 'valtio'
import type { Access } from '../../shared/rules/permissions.ts'
import type { Installation } from '../../shared/schemas/installation.ts'
import { apiFetch } from '../api/http.ts'
import { onLogout, session } from '../session/session.ts'
import { createAccessCache, rightsOf, roleAccess } from './rights.ts'
import type { Rights } from './rights.ts'

/** GET /api/cockpit/installations/{id}/access: the caller's resolved rights (docs/decisions.md, API). */
function fetchAccess(installationId: number): Promise<Access> {
  return apiFetch<Access>(`/api/cockpit/installations/${installationId}/access`)
}

/** One cache for the app: each installation's access is fetched once per login. */
export const accessCache = createAccessCache(fetchAccess)
onLogout(() => accessCache.clear())

export interface RightsState {
  /** Null while the access answer is on its way (or failed). */
  rights: Rights | null
  /** Why the access could not be loaded (show with errorMessage and offer `retry`). */
  error: unknown
  retry: () => void
}

/**
 * The signed-in user's {@link Rights} in `installation`, for guarding routes and controls. Admins and
 * superusers get theirs at once from their role; others from the access endpoint, asked once per
 * installation and cached until logout.
 */
export function useRights(installation: Pick<Installation, 'id' | 'role'>): RightsState {
  const { userId } = useSnapshot(session)
  const { entries } = useSnapshot(accessCache.state)
  const fromRole = useMemo(() => roleAccess(userId ?? 0, installation.id, installation.role), [userId, installation.id, installation.role])
  const entry = fromRole ? undefined : entries[String(installation.id)]
  const fetched = (entry?.access ?? null) as Access | null
  useEffect(() => {
    if (!fromRole) void accessCache.ensure(installation.id)
  }, [installation.id, fromRole])
  const rights = useMemo(() => {
    const access = fromRole ?? fetched
    return access ? rightsOf(access) : null
  }, [fromRole, fetched])
  return { rights, error: entry?.error ?? null, retry: () => void accessCache.retry(installation.id) }
}
