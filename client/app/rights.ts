import { proxy, ref } from 'valtio/vanilla'
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
  /** Management → Display links (issue 15 §1: admins create and revoke them). */
  displays: (a: Access) => isAdmin(a.role),
  /** Management → Legal texts (issue 13 §6): superusers publish terms and privacy policy for everyone. */
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
  /** Add or change an upcoming charging-tariff version (Pricing, issue 12 §4). */
  managePricing: boolean
  /** Add, edit and delete station timers (SPEC §6). */
  manageTimers: boolean
  /** Add and delete RFIDs, set their tag and stations (docs/decisions.md, RFID rights). */
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

export interface AccessEntry {
  access: Access | null
  /** The failure of the last load (an ApiError or network error), kept as is for errorMessage. */
  error: unknown
}

/**
 * A per-installation cache of access answers: each installation is asked once (concurrent callers
 * share the request) until {@link clear} (logout) or {@link retry}. `state.entries` is a valtio proxy
 * keyed by installation id, so components re-render when an answer arrives.
 */
export function createAccessCache(load: (installationId: number) => Promise<Access>) {
  const state = proxy<{ entries: Record<string, AccessEntry> }>({ entries: {} })
  const inflight = new Map<number, Promise<void>>()
  // Answers to requests started before a clear() belong to the previous user: dropped.
  let generation = 0

  function ensure(installationId: number): Promise<void> {
    const key = String(installationId)
    if (state.entries[key]?.access || state.entries[key]?.error) return Promise.resolve()
    const pending = inflight.get(installationId)
    if (pending) return pending
    const started = generation
    const p = load(installationId).then(
      (access) => {
        if (started === generation) state.entries[key] = { access, error: null }
      },
      (err: unknown) => {
        if (started === generation) state.entries[key] = { access: null, error: typeof err === 'object' && err ? ref(err) : err }
      },
    ).finally(() => {
      if (inflight.get(installationId) === p) inflight.delete(installationId)
    })
    inflight.set(installationId, p)
    return p
  }

  return {
    state,
    ensure,
    /** Forget a failed (or stale) answer and ask again. */
    retry(installationId: number): Promise<void> {
      delete state.entries[String(installationId)]
      inflight.delete(installationId)
      return ensure(installationId)
    },
    /** Forget everything (logout: the next user has other rights). */
    clear(): void {
      generation++
      inflight.clear()
      state.entries = {}
    },
  }
}

export type AccessCache = ReturnType<typeof createAccessCache>
