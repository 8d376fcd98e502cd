import { apiFetch } from '../../api/http.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { ChargingMode } from '../../../shared/rules/status.ts'

/**
 * PATCH /api/cockpit/installations/{id}/charging_stations/{station_id}/ {name?, charging_mode?} → Station.
 * For the station management tab of a later issue; live changes arrive through the stream.
 */
export function updateStation(
  installationId: number,
  stationId: number,
  patch: { name?: string; charging_mode?: ChargingMode },
): Promise<Station> {
  return apiFetch<Station>(`/api/cockpit/installations/${installationId}/charging_stations/${stationId}/`, {
    method: 'PATCH',
    body: patch,
  })
}
