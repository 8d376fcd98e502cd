import type { Access } from './permissions.ts'
import { isAdmin, mayReadRfid, mayReadStation } from './permissions.ts'
import type { Metrics } from '../schemas/metrics.ts'
import type { Station } from '../schemas/station.ts'
import type { ChargingSession } from '../schemas/session.ts'
import type { EnergyReturn } from '../schemas/installation.ts'

/**
 * What a user may see of live data (ARCHITECTURE §4): the API answers with these projections and the
 * relay applies the same ones to what it polled with its service account, so a subscriber never
 * receives a station, RFID, cost figure or another person's card the API would refuse them.
 */
const round2 = (x: number) => Math.round(x * 100) / 100

/** Metrics: without overview no grid, PV, battery, building or water; only readable stations. */
export function projectMetrics(m: Metrics, access: Access): Metrics {
  const stations: Record<string, number> = {}
  let total = 0
  for (const [id, kw] of Object.entries(m.charging_stations.stations)) {
    if (mayReadStation(access, Number(id))) {
      stations[id] = kw
      total += kw
    }
  }
  const charging_stations = access.stations === 'all' ? m.charging_stations : { power_kw: round2(total), stations }
  if (access.overview) return { ...m, charging_stations }
  return {
    ...m,
    grid: null, pv: null, battery: null, building: null, water: null,
    e_sourced_today: null, consumption_today: null,
    charging_stations,
  }
}

/**
 * A station as the caller may see it: the running session's RFID only when readable; the tag a station
 * learned (learning mode, SPEC §4) only for admins, who register or ignore it.
 */
export function projectStation(s: Station, access: Access): Station {
  let out = s.rfid && !mayReadRfid(access, s.rfid.id) ? { ...s, rfid: null } : s
  if (out.pending_rfid && !isAdmin(access.role)) out = { ...out, pending_rfid: null }
  return out
}

/** Stations keyed by id, reduced to the readable ones. */
export function projectStations(c: Record<string, Station>, access: Access): Record<string, Station> {
  const out: Record<string, Station> = {}
  for (const [id, s] of Object.entries(c)) if (mayReadStation(access, s.id)) out[id] = projectStation(s, access)
  return out
}

/**
 * Whether a session is visible (SPEC §3 sessions, §6 cost switch; docs/decisions.md "Permissions: a
 * session belongs to the person who charged"): admins and superusers see every session; anyone sees the
 * sessions they charged (`user_id`, the card's holder when it was charged, never its holder today); a user
 * with the cost switch also sees the sessions at the stations and with the cards they may read. A resident's
 * read right on a station or card alone shows no one else's session.
 */
export function maySeeSession(s: { station_id: number; rfid_id: number | null; user_id: number | null }, access: Access): boolean {
  if (isAdmin(access.role)) return true
  if (s.user_id != null && s.user_id === access.user_id) return true
  return access.cost && (mayReadStation(access, s.station_id) || (s.rfid_id != null && mayReadRfid(access, s.rfid_id)))
}

/**
 * The personal-data rule for charging sessions (ARCHITECTURE §4): who charged — the card's tag and id,
 * the user and their name — is shown only to admins and superusers and to the person who charged. A reader
 * of the card (its holder today, or a user granted it by a permission entry) sees the tag only of a session
 * nobody was named for (a card without holder then): a card moved to someone else does not bring its past
 * holder's sessions or name along. Read access to a station is not enough. Every path that emits sessions
 * uses it: REST list and detail, journal, invoices, the relay's topic.
 */
export function maySeeSessionPerson(s: { user_id: number | null; rfid_id: number | null }, access: Access): boolean {
  if (isAdmin(access.role)) return true
  if (s.user_id != null) return s.user_id === access.user_id
  return s.rfid_id != null && mayReadRfid(access, s.rfid_id)
}

/**
 * A session as the caller may see it: prices hidden unless the caller sees costs or it is their own
 * (SPEC §6 cost switch); card and user null unless {@link maySeeSessionPerson}. Apply after
 * {@link maySeeSession}, which needs the card id.
 */
export function projectSession(s: ChargingSession, access: Access): ChargingSession {
  let out = s
  if (!access.cost && s.user_id !== access.user_id) {
    out = { ...out, price: null, transaction_fee: null, total: null, ...(s.price_lines === undefined ? {} : { price_lines: null }), ...(s.price_per_kwh === undefined ? {} : { price_per_kwh: null }), invoice_url: s.invoice_url === undefined ? undefined : null }
  }
  if (!maySeeSessionPerson(s, access)) out = { ...out, rfid_id: null, rfid_tag: null, user_id: null, ...(s.user_name === undefined ? {} : { user_name: null }) }
  return out
}

export function projectSessions(c: Record<string, ChargingSession>, access: Access): Record<string, ChargingSession> {
  const out: Record<string, ChargingSession> = {}
  for (const [id, s] of Object.entries(c)) if (maySeeSession(s, access)) out[id] = projectSession(s, access)
  return out
}

/** Energy returned to the grid is a main-meter figure: overview only. */
export function projectEnergyReturn(e: EnergyReturn, access: Access): EnergyReturn | null {
  return access.overview ? e : null
}
