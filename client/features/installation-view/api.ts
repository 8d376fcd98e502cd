import { apiFetch } from '../../api/http.ts'

interface MeterRef {
  id: number
  name: string
  meter_type: string
}

/** An object hierarchy node (server/domain/objects/service.ts ObjectNode). */
export interface ObjectNode {
  id: number
  parent_object_id: number | null
  description: string
  object_type: string
  children: ObjectNode[]
  electrical_meters: MeterRef[]
  heating_meters: MeterRef[]
  water_meters: MeterRef[]
  charging_stations: { id: number; name: string }[]
}

/** A meter with today's figures (server/domain/objects/service.ts MeterView). */
export interface MeterView extends MeterRef {
  unit: 'kWh' | 'm3'
  today: { energy_in_kwh: number; energy_out_kwh: number; volume_m3: number }
}

/** Query keys of the installation view: the object tree and each root's meters under it. */
export const objectKeys = {
  tree: (installationId: number) => ['installations', installationId, 'objects'] as const,
  meters: (installationId: number, objectId: number) => ['installations', installationId, 'objects', objectId, 'meters'] as const,
}

/** GET …/objects/: the readable object tree. */
export async function fetchObjects(installationId: number, signal?: AbortSignal): Promise<ObjectNode[]> {
  return (await apiFetch<{ results: ObjectNode[] }>(`/api/cockpit/installations/${installationId}/objects/`, { signal })).results
}

/** GET …/objects/{id}/meters/: visible meters in the object and below, with today's figures. */
export function fetchMeters(installationId: number, objectId: number, signal?: AbortSignal): Promise<MeterView[]> {
  return apiFetch<MeterView[]>(`/api/cockpit/installations/${installationId}/objects/${objectId}/meters/`, { signal })
}
