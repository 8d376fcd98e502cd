import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import type { Access } from '../../shared/rules/permissions.ts'
import type { Installation } from '../../shared/schemas/installation.ts'
import { apiFetch } from '../api/http.ts'
import { useSession } from '../session/use-session.ts'
import { accessQuery, rightsOf, roleAccess } from './rights.ts'
import type { Rights } from './rights.ts'

/** GET /api/cockpit/installations/{id}/access: the caller's resolved rights (docs/decisions.md "API: extra endpoints the relay needs"). */
function fetchAccess(installationId: number, signal?: AbortSignal): Promise<Access> {
  return apiFetch<Access>(`/api/cockpit/installations/${installationId}/access`, { signal })
}

export interface RightsState {
  /** Null while the access answer is on its way (or failed). */
  rights: Rights | null
  /** Why the access could not be loaded, once its retries are over (show with errorMessage and offer `retry`). */
  error: unknown
  retry: () => void
}

/**
 * The signed-in user's {@link Rights} in `installation`, for guarding routes and controls. Admins and
 * superusers get theirs at once from their role; others from the access endpoint, asked once per
 * installation and cached until logout ({@link accessQuery}).
 */
export function useRights(installation: Pick<Installation, 'id' | 'role'>): RightsState {
  const userId = useSession((s) => s.userId)
  const fromRole = useMemo(() => roleAccess(userId ?? 0, installation.id, installation.role), [userId, installation.id, installation.role])
  const query = useQuery({ ...accessQuery(installation.id, fetchAccess), enabled: !fromRole })
  const fetched = fromRole ? null : (query.data ?? null)
  const rights = useMemo(() => {
    const access = fromRole ?? fetched
    return access ? rightsOf(access) : null
  }, [fromRole, fetched])
  const error = !fromRole && query.isError && !query.isFetching ? query.error : null
  return { rights, error, retry: () => void query.refetch() }
}
