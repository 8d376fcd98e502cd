import type { QueryClient } from '@tanstack/react-query'
import { apiFetch } from '../../api/http.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { Installation, Operator } from '../../../shared/schemas/installation.ts'
import type { Station } from '../../../shared/schemas/station.ts'

/**
 * The operator's provisioning screens: installations, their object tree, meters and charging
 * stations (SPEC §2 Management, §3 entities), through the provisioning routes of the API (their
 * schemas are in the OpenAPI, server/api/openapi.ts).
 */

export type { Station }

/** A postal address of an installation (Swiss QR-bill limits as the operator's, shared/schemas/installation.ts). */
export interface Address {
  street: string
  building_number: string
  zip: string
  city: string
  country: 'CH' | 'LI'
}

/** An installation as the provisioning routes answer it: the usual shape plus its address and archive date. */
export type InstallationDetail = Installation & { address?: Address | null; archived_at?: string | null }

/** POST /api/cockpit/installations/ body. */
export interface InstallationCreate {
  name: string
  timezone: string
  currency: 'CHF' | 'EUR'
  address: Address
  operator?: Operator | null
}

/** PATCH /api/cockpit/installations/{id}/ body (the settings screen's part). */
export interface InstallationSettings {
  name: string
  timezone: string
  address: Address
  /** Superusers only: the debit ceilings in CHF, null for the default (403 for anyone else). */
  debit_ceilings?: { session: number | null; month: number | null }
}

/** One row of the operator's Installations list (GET …/installations/status/). last_data_at ISO or null. */
export interface InstallationStatus {
  id: number
  name: string
  city: string | null
  online: boolean
  offline_since: string | null
  alert_count: number
  last_data_at: string | null
  stations_total: number
  stations_charging: number
  archived_at: string | null
}

/** Object kinds of the SPEC §3 object hierarchy the operator builds. */
export const OBJECT_TYPES = ['building', 'staircase', 'apartment', 'common_area', 'garage'] as const
export type ObjectType = (typeof OBJECT_TYPES)[number]

/** An object hierarchy node (SPEC §3) as GET …/objects/ answers it, with what it holds. */
export interface ObjectNode {
  id: number
  parent_object_id: number | null
  description: string
  object_type: string
  children: ObjectNode[]
  electrical_meters: { id: number; name: string }[]
  heating_meters: { id: number; name: string }[]
  water_meters: { id: number; name: string }[]
  charging_stations: { id: number; name: string }[]
}

/** Body of POST and PATCH …/objects/. */
export interface ObjectInput {
  description: string
  parent_object_id: number | null
  object_type: ObjectType
}

/** Meter kinds an operator adds (SPEC §3; `power` is a flat's sub-meter). A station's own meter comes with the station. */
export const METER_KINDS = ['main_power', 'pv', 'battery', 'hot_water', 'cold_water', 'heat', 'power'] as const
export type MeterKind = (typeof METER_KINDS)[number]
export const METER_SOURCES = ['ingest', 'simulator', 'mqtt', 'modbus'] as const
export type MeterSource = (typeof METER_SOURCES)[number]
/** Modbus register maps a facility gateway reads (shared/schemas/meters.ts MODBUS_MODELS). */
export const MODBUS_MODELS = ['sdm630', 'sunspec'] as const
export type ModbusModel = (typeof MODBUS_MODELS)[number]

/** The Modbus TCP device a gateway reads a 'modbus' meter from: port default 502, unit id 1, every 5 s. */
export interface ModbusSourceConfig {
  host: string
  port: number
  unit_id: number
  model: ModbusModel
  interval_s: number
}

/** A meter as its admin sees it. capacity: kW, kWh for a battery; null when not given. */
export interface MeterAdmin {
  id: number
  name: string
  meter_type: MeterKind | 'charging_station'
  object_id: number | null
  serial: string | null
  unit: 'kWh' | 'm3'
  capacity: number | null
  source: MeterSource
  /** The Modbus device for source 'modbus'; null otherwise (or while not yet set). */
  source_config: ModbusSourceConfig | null
  archived_at: string | null
  /** kW: ingested power beyond it is refused; null: no bound. */
  max_power_kw: number | null
  /** The newest reading received (ISO 8601), null before the first. */
  last_reading_at: string | null
  /** `flagged` for 24 h after a refused or set-aside reading; `reason` as the device was answered (English). */
  data_quality: { state: 'ok' | 'flagged'; reason: string | null; at: string | null }
}

/** Body of POST and PATCH …/meters/. */
export interface MeterInput {
  object_id: number
  meter_type: MeterKind
  name: string
  serial: string | null
  unit: 'kWh' | 'm3'
  capacity: number | null
  source: MeterSource
  /** Required content for 'modbus'; null for the other sources. */
  source_config: ModbusSourceConfig | null
}

/** Body of POST …/charging_stations/. capacity_kw 1..350; ocpp_charge_point_id left out when not given. */
export interface StationInput {
  name: string
  object_id: number
  capacity_kw: number
  phases: 1 | 3
  ocpp_charge_point_id?: string
}

/**
 * What a wallbox needs to connect (OCPP 1.6J over WebSocket with Basic auth): its charge point id, the
 * password (answered once, stored hashed by the server) and the URL to enter.
 */
export interface OcppCredentials {
  charge_point_id: string
  password: string
  url: string
}

/** Query keys of the provisioning screens; everything of one installation sits under `['installations', id]`. */
export const provisioningKeys = {
  status: (q: string, offset = 0) => ['installations', 'status', q, offset] as const,
  statusAll: () => ['installations', 'status'] as const,
  detail: (installationId: number) => ['installations', installationId, 'detail'] as const,
  objects: (installationId: number) => ['installations', installationId, 'objects'] as const,
  meters: (installationId: number) => ['installations', installationId, 'meters', 'admin'] as const,
  stations: (installationId: number) => ['installations', installationId, 'stations'] as const,
}

const base = (installationId: number) => `/api/cockpit/installations/${installationId}`

/** Rows per page of the operator's list: the most the server gives (shared/schemas/installation.ts STATUS_PAGE_MAX). */
export const STATUS_PAGE = 500

/** GET …/installations/status/?q=&offset= → one page of the operator's list (superusers: all installations). */
export function fetchInstallationStatus(q: string, offset: number, signal?: AbortSignal): Promise<PageOf<InstallationStatus>> {
  return apiFetch('/api/cockpit/installations/status/', { query: { q: q || undefined, limit: STATUS_PAGE, offset }, signal })
}

/** POST /api/cockpit/installations/ (superusers) → 201 the installation; 400 by field. */
export function createInstallation(body: InstallationCreate): Promise<InstallationDetail> {
  return apiFetch('/api/cockpit/installations/', { method: 'POST', body })
}

/** GET /api/cockpit/installations/{id}/ → the installation with its address. */
export function fetchInstallationDetail(installationId: number, signal?: AbortSignal): Promise<InstallationDetail> {
  return apiFetch(`${base(installationId)}/`, { signal })
}

/** PATCH /api/cockpit/installations/{id}/ {name, timezone, address, debit_ceilings?} (admins; ceilings superusers) → the installation; 400 by field. */
export function saveInstallationSettings(installationId: number, body: InstallationSettings): Promise<InstallationDetail> {
  return apiFetch(`${base(installationId)}/`, { method: 'PATCH', body })
}

/** POST …/{id}/archive or …/{id}/unarchive (superusers) → the installation. */
export function setArchived(installationId: number, archived: boolean): Promise<InstallationDetail> {
  return apiFetch(`${base(installationId)}/${archived ? 'archive' : 'unarchive'}`, { method: 'POST' })
}

/** GET …/objects/ → the object tree's roots. */
export async function fetchObjectTree(installationId: number, signal?: AbortSignal): Promise<ObjectNode[]> {
  return (await apiFetch<PageOf<ObjectNode>>(`${base(installationId)}/objects/`, { signal })).results
}

/** POST …/objects/ → 201 the node; 404 naming parent_object_id. */
export function createObject(installationId: number, body: ObjectInput): Promise<ObjectNode> {
  return apiFetch(`${base(installationId)}/objects/`, { method: 'POST', body })
}

/** PATCH …/objects/{id}/ → the node; 422 naming parent_object_id for a cycle. */
export function updateObject(installationId: number, objectId: number, body: Partial<ObjectInput>): Promise<ObjectNode> {
  return apiFetch(`${base(installationId)}/objects/${objectId}/`, { method: 'PATCH', body })
}

/** DELETE …/objects/{id}/ → 204; 409 saying what it still holds. */
export function deleteObject(installationId: number, objectId: number): Promise<void> {
  return apiFetch(`${base(installationId)}/objects/${objectId}/`, { method: 'DELETE' })
}

/** GET …/meters/ → the installation's meters (admins). */
export async function fetchAdminMeters(installationId: number, signal?: AbortSignal): Promise<MeterAdmin[]> {
  return (await apiFetch<PageOf<MeterAdmin>>(`${base(installationId)}/meters/`, { query: { limit: 1000 }, signal })).results
}

/** POST …/meters/ → 201; 409 for a serial already used here. */
export function createMeter(installationId: number, body: MeterInput): Promise<MeterAdmin> {
  return apiFetch(`${base(installationId)}/meters/`, { method: 'POST', body })
}

/** PATCH …/meters/{id}/ → the meter. */
export function updateMeter(installationId: number, meterId: number, body: Partial<MeterInput>): Promise<MeterAdmin> {
  return apiFetch(`${base(installationId)}/meters/${meterId}/`, { method: 'PATCH', body })
}

/** DELETE …/meters/{id}/ → 204: archived with its measurements kept, or with them deleted when `purge`. */
export function deleteMeter(installationId: number, meterId: number, purge: boolean): Promise<void> {
  return apiFetch(`${base(installationId)}/meters/${meterId}/`, { method: 'DELETE', query: { purge: purge ? true : undefined } })
}

/** GET …/charging_stations/?limit=1000 → the installation's stations. */
export async function fetchStations(installationId: number, signal?: AbortSignal): Promise<Station[]> {
  return (await apiFetch<PageOf<Station>>(`${base(installationId)}/charging_stations/`, { query: { limit: 1000 }, signal })).results
}

/** POST …/charging_stations/ → 201 the station and, with a charge point id, its OCPP credentials (once). */
export function createStation(installationId: number, body: StationInput): Promise<Station & { ocpp: OcppCredentials | null }> {
  return apiFetch(`${base(installationId)}/charging_stations/`, { method: 'POST', body })
}

/** PATCH …/charging_stations/{id}/ {capacity_kw, phases} (admins) → the station as it is now. */
export function updateStationSetup(installationId: number, stationId: number, body: { capacity_kw: number; phases: 1 | 3 }): Promise<Station> {
  return apiFetch(`${base(installationId)}/charging_stations/${stationId}/`, { method: 'PATCH', body })
}

/** POST …/charging_stations/{id}/ocpp/password → a new password (the old one stops working). */
export function rotateOcppPassword(installationId: number, stationId: number): Promise<OcppCredentials> {
  return apiFetch(`${base(installationId)}/charging_stations/${stationId}/ocpp/password`, { method: 'POST' })
}

/** DELETE …/charging_stations/{id}/ → 204 (sessions kept); 409 while a session is open. */
export function deleteStation(installationId: number, stationId: number): Promise<void> {
  return apiFetch(`${base(installationId)}/charging_stations/${stationId}/`, { method: 'DELETE' })
}

/**
 * After a change to the installation's objects, meters or stations: everything read about that
 * installation (the tree, charts, Power's lists, the installation view all show them).
 */
export function installationChanged(queryClient: QueryClient, installationId: number): Promise<void> {
  // Not the caller's access (client/app/rights.ts): it does not change with them.
  return queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'installations' && q.queryKey[1] === installationId && q.queryKey[2] !== 'access' })
}
