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

/** Query keys of the installation view: the object tree, each root's meters under it, the readable stations by node. */
export const objectKeys = {
  tree: (installationId: number) => ['installations', installationId, 'objects'] as const,
  meters: (installationId: number, objectId: number) => ['installations', installationId, 'objects', objectId, 'meters'] as const,
  stations: (installationId: number) => ['installations', installationId, 'objects', 'charging_stations'] as const,
}

/** GET …/objects/: the readable object tree. */
export async function fetchObjects(installationId: number, signal?: AbortSignal): Promise<ObjectNode[]> {
  return (await apiFetch<{ results: ObjectNode[] }>(`/api/cockpit/installations/${installationId}/objects/`, { signal })).results
}

/** GET …/objects/{id}/meters/: visible meters in the object and below, with today's figures. */
export function fetchMeters(installationId: number, objectId: number, signal?: AbortSignal): Promise<MeterView[]> {
  return apiFetch<MeterView[]>(`/api/cockpit/installations/${installationId}/objects/${objectId}/meters/`, { signal })
}

/** A node that directly holds charging stations the caller may read (…/objects/charging_stations, server/domain/stations/by-object.ts). */
export interface StationGroup {
  id: number
  description: string
  charging_stations: { id: number; name: string }[]
}

/**
 * GET …/objects/charging_stations: the stations the caller may read (through a permission on the station,
 * on an object above it or their role), grouped by the node that holds them, including those whose node
 * the caller may not read: what a resident with only station rights has here.
 */
export function fetchStationGroups(installationId: number, signal?: AbortSignal): Promise<StationGroup[]> {
  return apiFetch<StationGroup[]>(`/api/cockpit/installations/${installationId}/objects/charging_stations`, { signal })
}
