import { apiFetch } from '../../api/http.ts'
import type { LoadManagement, LoadManagementPut } from '../../../shared/schemas/load-management.ts'

/**
 * Management → Load management through GET and PUT /api/cockpit/installations/{id}/load_management
 * (admins of the installation and superusers; shapes in shared/schemas/load-management.ts, rules in
 * docs/decisions.md "Load management: model, controller and reasons").
 */

export type { LoadManagement, LoadManagementPut }

/** Query key of an installation's load-management settings (under `['installations', id]`, so a station change refreshes it). */
export const loadKeys = {
  settings: (installationId: number) => ['installations', installationId, 'load_management'] as const,
}

const path = (installationId: number) => `/api/cockpit/installations/${installationId}/load_management`

/** GET …/load_management → switch, limits, circuits and each station with its limit and reason. */
export function fetchLoadManagement(installationId: number, signal?: AbortSignal): Promise<LoadManagement> {
  return apiFetch(path(installationId), { signal })
}

/** PUT …/load_management → the settings as stored; 400 naming the field (`grid_limit_a`, `circuits.2.parent_id`). */
export function saveLoadManagement(installationId: number, body: LoadManagementPut): Promise<LoadManagement> {
  return apiFetch(path(installationId), { method: 'PUT', body })
}
