import type { Access, Role } from '../../shared/rules/permissions.ts'
import {
  isAdmin, mayReadRates, mayReadRfid, mayReadStation, mayUnlockStation, mayWriteRfid, mayWriteStation, resolveAccess,
} from '../../shared/rules/permissions.ts'

/**
 * What the signed-in user may do in one installation, for the UI: which guarded screens open and which
 * controls a form offers. Built only from the shared rules the API decides with
 * (shared/rules/permissions.ts), fed by GET /api/cockpit/installations/{id}/access, so a screen never
 * offers what the API would refuse. The API stays the authority; this only avoids forms that fail on save.
 */

/** Screens that need more than membership of the installation (SPEC §2 Management; §6). */
export const GUARDED_SCREENS = {
  /** Management → Users, a user's page and the permissions editor (SPEC §6: admins manage users). */
  users: (a: Access) => isAdmin(a.role),
  /** Management → Rates: read with the cost switch, written by admins. */
  rates: mayReadRates,
  /** Management → Reports (SPEC §6: admins manage reports). */
  reports: (a: Access) => isAdmin(a.role),
  /** Management → Display links (admins create and revoke them). */
  displays: (a: Access) => isAdmin(a.role),
  /** Management → Installation settings, Buildings and flats, Meters, Charging stations (SPEC §6: admins manage stations). */
  installationSettings: (a: Access) => isAdmin(a.role),
  objects: (a: Access) => isAdmin(a.role),
  meters: (a: Access) => isAdmin(a.role),
  stationSetup: (a: Access) => isAdmin(a.role),
  /** Management → Load management: the grid limit and circuits (admins, as the API's GET and PUT …/load_management). */
  loadManagement: (a: Access) => isAdmin(a.role),
  /** Charging sessions → Review: held sessions are corrected, released or voided by admins (POST …/review). */
  sessionReview: (a: Access) => isAdmin(a.role),
  /** Management → Legal texts: superusers publish terms and privacy policy for everyone. */
  legal: (a: Access) => a.role === 'superuser',
} as const satisfies Record<string, (a: Access) => boolean>

export type GuardedScreen = keyof typeof GUARDED_SCREENS

export interface Rights {
  access: Access
  /** Installation admin or superuser: every right here. */
  admin: boolean
  /** Whether a guarded screen opens (else the no-access page). */
  mayOpen(screen: GuardedScreen): boolean
  /** Create, edit and delete rates (SPEC §6). */
  manageRates: boolean
  /** Add or change an upcoming charging-tariff version (Pricing). */
  managePricing: boolean
  /** Add, edit and delete station timers (SPEC §6). */
  manageTimers: boolean
  /** Add and delete RFIDs, set their tag and stations (docs/decisions.md "RFIDs: rights, tags and stations"). */
  manageRfids: boolean
  /** Unlock a disabled station and use learning mode (SPEC §4, §6). */
  unlockStations: boolean
  readStation(id: number): boolean
  /** Change the name and charging mode of a station (read_and_write). */
  writeStation(id: number): boolean
  readRfid(id: number): boolean
  /** Change an RFID (its description, unless admin): owner or read_and_write. */
  writeRfid(id: number): boolean
}

/** The {@link Rights} of a resolved access. */
export function rightsOf(access: Access): Rights {
  const admin = isAdmin(access.role)
  return {
    access,
    admin,
    mayOpen: (screen) => GUARDED_SCREENS[screen](access),
    manageRates: admin,
    managePricing: admin,
    manageTimers: admin,
    manageRfids: admin,
    unlockStations: mayUnlockStation(access),
    readStation: (id) => mayReadStation(access, id),
    writeStation: (id) => mayWriteStation(access, id),
    readRfid: (id) => mayReadRfid(access, id),
    writeRfid: (id) => mayWriteRfid(access, id),
  }
}

/**
 * An admin's access without asking the API: the role from the installation list already grants
 * everything (resolveAccess ignores entries for admins), so admin screens open without a round trip.
 * Null for other roles, whose rights depend on their entries.
 */
export function roleAccess(userId: number, installationId: number, role: Role): Access | null {
  if (!isAdmin(role)) return null
  return resolveAccess({ user_id: userId, installation_id: installationId, role, entries: [], tree: new Map(), stations: [], rfids: [] })
}

/** Query key of an installation's access answer. */
export const accessKey = (installationId: number) => ['installations', installationId, 'access'] as const

/**
 * The query that reads the caller's access in one installation with `load` (GET …/access): asked once
 * per installation and kept until logout (never stale nor collected; logout clears the whole cache, so an answer
 * still on its way then is dropped with it), concurrent readers sharing one request. Rights change only
 * when an admin saves them, and the API stays the authority on every request.
 */
export function accessQuery(installationId: number, load: (installationId: number, signal?: AbortSignal) => Promise<Access>) {
  return {
    queryKey: accessKey(installationId),
    queryFn: ({ signal }: { signal?: AbortSignal }) => load(installationId, signal),
    staleTime: Infinity,
    gcTime: Infinity,
  }
}
