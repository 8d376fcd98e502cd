import { apiFetch } from '../../api/http.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { Rfid } from '../../../shared/schemas/rfid.ts'
import type { Station } from '../../../shared/schemas/station.ts'

const base = (installationId: number) => `/api/cockpit/installations/${installationId}`

/**
 * Query keys of the installation's card and station lists. The RFIDs screen, a user's page
 * and the permissions editor all read the same two lists, so they share one request and one
 * invalidation: `all` is what a change to any card invalidates.
 */
export const rfidKeys = {
  all: (installationId: number) => ['installations', installationId, 'rfids'] as const,
  /** {@link listRfids}: a page of up to 1000 cards. */
  list: (installationId: number) => ['installations', installationId, 'rfids', 'list'] as const,
  /** {@link listStations}: a page of up to 1000 stations. */
  stations: (installationId: number) => ['installations', installationId, 'stations', 'list'] as const,
}

/** Fields of an RFID form (SPEC §2 RFIDs: add by tag, edit). */
export interface RfidFields {
  tag?: string
  description?: string
  all_stations?: boolean
  station_ids?: number[]
}

/** GET …/rfids/?limit=1000 → the readable active cards. */
export function listRfids(installationId: number, signal?: AbortSignal): Promise<PageOf<Rfid>> {
  return apiFetch<PageOf<Rfid>>(`${base(installationId)}/rfids/`, { query: { limit: 1000 }, signal })
}

/** POST …/rfids/ → the new card (400 `{tag: [...]}` for a tag with spaces or a duplicate). */
export function createRfid(installationId: number, fields: RfidFields): Promise<Rfid> {
  return apiFetch<Rfid>(`${base(installationId)}/rfids/`, { method: 'POST', body: fields })
}

/** PATCH …/rfids/{id}/ → the changed card. */
export function updateRfid(installationId: number, id: number, fields: RfidFields): Promise<Rfid> {
  return apiFetch<Rfid>(`${base(installationId)}/rfids/${id}/`, { method: 'PATCH', body: fields })
}

/** DELETE …/rfids/{id}/ (the card becomes inactive, SPEC §4). */
export function deleteRfid(installationId: number, id: number): Promise<void> {
  return apiFetch<void>(`${base(installationId)}/rfids/${id}/`, { method: 'DELETE' })
}

/** GET …/charging_stations/?limit=1000 (SPEC §9 station list limit) → the readable stations. */
export function listStations(installationId: number, signal?: AbortSignal): Promise<PageOf<Station>> {
  return apiFetch<PageOf<Station>>(`${base(installationId)}/charging_stations/`, { query: { limit: 1000 }, signal })
}

/** PATCH …/charging_stations/{id}/ {rfid_lernmodus} (400 with the learning-mode precondition message). */
export function setLearning(installationId: number, stationId: number, on: boolean): Promise<Station> {
  return apiFetch<Station>(`${base(installationId)}/charging_stations/${stationId}/`, { method: 'PATCH', body: { rfid_lernmodus: on ? 1 : 0 } })
}

/** POST …/charging_stations/{id}/learned_rfid → the registered card (ready about 3 minutes later). */
export function registerLearned(installationId: number, stationId: number, description: string): Promise<Rfid> {
  return apiFetch<Rfid>(`${base(installationId)}/charging_stations/${stationId}/learned_rfid`, { method: 'POST', body: { description } })
}

/** DELETE …/charging_stations/{id}/learned_rfid: ignore the learned tag. */
export function ignoreLearned(installationId: number, stationId: number): Promise<void> {
  return apiFetch<void>(`${base(installationId)}/charging_stations/${stationId}/learned_rfid`, { method: 'DELETE' })
}

/** The delivery form of a card order (SPEC §2 "order new"); see shared RfidOrder for the rules. */
export interface OrderFields {
  first_name: string
  last_name: string
  company: string
  address: string
  zip_code: string
  city: string
  country: string
  quantity: number
}

/** POST /api/emails/send-ordering-new-rfid/?installation=… → `{detail, quantity, price}` (SPEC §9 CHF 25 a card). */
export function orderRfid(installationId: number, fields: OrderFields): Promise<{ detail: string; quantity: number; price: number }> {
  return apiFetch('/api/emails/send-ordering-new-rfid/', { method: 'POST', query: { installation: installationId }, body: fields })
}
