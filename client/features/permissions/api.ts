import { apiFetch } from '../../api/http.ts'
import type { Permission } from '../../../shared/schemas/permissions.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'

/**
 * Query keys of the permissions editor. The user, stations and cards it also shows come
 * from the keys their own screens use (userKeys.detail, rfidKeys), so a change there reaches it too.
 */
export const permissionKeys = {
  entries: (installationId: number, userId: number) => ['installations', installationId, 'permissions', userId] as const,
  /** The object tree flattened for the editor (not the tree the installation view reads). */
  objects: (installationId: number) => ['installations', installationId, 'objects', 'flat'] as const,
}

/** GET /api/cockpit/installations/{id}/permissions?user_id= → the user's entries there. */
export function fetchPermissions(installationId: number, userId: number, signal?: AbortSignal): Promise<Permission[]> {
  return apiFetch(`/api/cockpit/installations/${installationId}/permissions`, { query: { user_id: userId }, signal })
}

/** PUT …/permissions: level none deletes the entry (answer `{deleted: true}`), else the saved entry. */
export function putPermission(installationId: number, body: { user_id: number; object_type: Permission['object_type']; object_id: number; level: string; cost: boolean; overview: boolean }): Promise<Permission | { deleted: true }> {
  return apiFetch(`/api/cockpit/installations/${installationId}/permissions`, { method: 'PUT', body })
}

/** An object hierarchy node as GET …/objects/ answers it (SPEC §3), reduced to what the editor shows. */
export interface ObjectNodeView {
  id: number
  description: string
  children: ObjectNodeView[]
}

/** GET /api/cockpit/installations/{id}/objects/ → the object tree, flattened in display order with its depth. */
export async function fetchObjects(installationId: number, signal?: AbortSignal): Promise<{ id: number; description: string; depth: number }[]> {
  const page = await apiFetch<PageOf<ObjectNodeView>>(`/api/cockpit/installations/${installationId}/objects/`, { signal })
  const out: { id: number; description: string; depth: number }[] = []
  const walk = (nodes: ObjectNodeView[], depth: number) => {
    for (const n of nodes) {
      out.push({ id: n.id, description: n.description, depth })
      walk(n.children ?? [], depth + 1)
    }
  }
  walk(page.results, 0)
  return out
}
