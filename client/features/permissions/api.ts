import { apiFetch } from '../../api/http.ts'
import type { Permission } from '../../../shared/schemas/permissions.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { ManagedUser } from '../../../shared/schemas/accounts.ts'

/** GET /api/cockpit/installations/{id}/permissions?user_id= → the user's entries there. */
export function fetchPermissions(installationId: number, userId: number, signal?: AbortSignal): Promise<Permission[]> {
  return apiFetch(`/api/cockpit/installations/${installationId}/permissions`, { query: { user_id: userId }, signal })
}

/** PUT …/permissions: level none deletes the entry (answer `{deleted: true}`), else the saved entry. */
export function putPermission(installationId: number, body: { user_id: number; object_type: Permission['object_type']; object_id: number; level: string; cost: boolean; overview: boolean }): Promise<Permission | { deleted: true }> {
  return apiFetch(`/api/cockpit/installations/${installationId}/permissions`, { method: 'PUT', body })
}

/** GET …/charging_stations/?limit=1000 (SPEC §9 station list limit). */
export async function fetchStations(installationId: number, signal?: AbortSignal): Promise<Station[]> {
  const page = await apiFetch<PageOf<Station>>(`/api/cockpit/installations/${installationId}/charging_stations/`, { query: { limit: 1000 }, signal })
  return page.results
}

/** GET …/rfids/?limit=1000 → the installation's RFID cards (id, tag, description, owner). */
export async function fetchRfids(installationId: number, signal?: AbortSignal): Promise<{ id: number; tag: string; description: string; user_id: number | null }[]> {
  const page = await apiFetch<PageOf<{ id: number; tag: string; description: string; user_id: number | null }>>(`/api/cockpit/installations/${installationId}/rfids/`, { query: { limit: 1000 }, signal })
  return page.results
}

/** GET /api/cockpit/users/{id}/ → the user the editor is for. */
export function fetchUser(userId: number, signal?: AbortSignal): Promise<ManagedUser> {
  return apiFetch(`/api/cockpit/users/${userId}/`, { signal })
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
