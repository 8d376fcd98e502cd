/**
 * Permission levels, combining and inheritance (SPEC §5–6, ARCHITECTURE §4). Used by the API to decide
 * and by the relay to project live data, so both agree on what a user may see.
 */
export const LEVELS = ['none', 'read', 'read_and_write', 'inherit'] as const
export type Level = (typeof LEVELS)[number]
export type Role = 'superuser' | 'installation_admin' | 'installation_user'
export type PermissionObjectType = 'object' | 'charging_station' | 'rfid'

/** One permission entry; object_id 0 with charging_station or rfid means all of them. */
export interface PermissionEntry {
  object_type: PermissionObjectType
  object_id: number
  level: Level
  cost: boolean
  overview: boolean
}

/**
 * Reduce a stored or submitted level to a known one (SPEC §6): r/read → read, rw/read_and_write →
 * read_and_write, inherit stays, anything else → none.
 */
export function normalizeLevel(value: unknown): Level {
  if (value === 'r' || value === 'read') return 'read'
  if (value === 'rw' || value === 'read_and_write') return 'read_and_write'
  if (value === 'inherit') return 'inherit'
  return 'none'
}

const RANK: Record<Level, number> = { read_and_write: 3, read: 2, none: 1, inherit: 0 }

/** Combine levels (SPEC §5): read_and_write first, then read, then none, else inherit. */
export function combineLevels(levels: Iterable<Level>): Level {
  let best: Level = 'inherit'
  for (const l of levels) if (RANK[l] > RANK[best]) best = l
  return best
}

/** Parent of each object node (null at the root). */
export type ObjectTree = ReadonlyMap<number, number | null>

/**
 * Level on an object node: the combined entries on the node itself; inherit (or no entry) walks up to
 * the parent; inherit at the root is none.
 */
export function objectLevel(objectId: number | null, tree: ObjectTree, entries: readonly PermissionEntry[]): Level {
  const seen = new Set<number>()
  let node = objectId
  while (node != null && !seen.has(node)) {
    seen.add(node)
    const here = combineLevels(entries.filter((e) => e.object_type === 'object' && e.object_id === node).map((e) => e.level))
    if (here !== 'inherit') return here
    node = tree.get(node) ?? null
  }
  return 'none'
}

/**
 * Level on a charging station: its own entry combined with the all-stations entry (object_id 0); when
 * that is inherit, the level of the object node the station hangs in.
 */
export function stationLevel(
  station: { id: number; object_id: number | null },
  tree: ObjectTree,
  entries: readonly PermissionEntry[],
): Level {
  const direct = combineLevels(
    entries
      .filter((e) => e.object_type === 'charging_station' && (e.object_id === station.id || e.object_id === 0))
      .map((e) => e.level),
  )
  return direct === 'inherit' ? objectLevel(station.object_id, tree, entries) : direct
}

/** Level on an RFID: its owner has read_and_write; otherwise its entry with the all-RFIDs entry. */
export function rfidLevel(rfid: { id: number; user_id: number | null }, userId: number, entries: readonly PermissionEntry[]): Level {
  if (rfid.user_id === userId) return 'read_and_write'
  const direct = combineLevels(
    entries.filter((e) => e.object_type === 'rfid' && (e.object_id === rfid.id || e.object_id === 0)).map((e) => e.level),
  )
  return direct === 'inherit' ? 'none' : direct
}

export const canRead = (l: Level) => l === 'read' || l === 'read_and_write'
export const canWrite = (l: Level) => l === 'read_and_write'

/**
 * What one user may see in one installation, resolved. The API computes it (GET
 * /api/cockpit/installations/{id}/access) and the relay projects live data with it.
 * `stations` and `rfids` are 'all' or the readable ids; `cost` shows prices of others' sessions;
 * `overview` shows the main meters, PV, battery and grid.
 */
export interface Access {
  user_id: number
  installation_id: number
  role: Role
  cost: boolean
  overview: boolean
  stations: 'all' | number[]
  rfids: 'all' | number[]
  /**
   * The stations and RFIDs the user may change (read_and_write; an RFID's owner; 'all' for admins).
   * Clients use them to offer only the forms the API accepts; absent (an older API) means none.
   */
  writable_stations?: 'all' | number[]
  writable_rfids?: 'all' | number[]
  /** When the user's sessions were last ended (ISO); streams opened before it must close. */
  sessions_valid_after?: string | null
}

/** Admins and superusers see everything in their installations. */
export const isAdmin = (role: Role) => role === 'superuser' || role === 'installation_admin'

/**
 * Resolve a user's {@link Access} from their role and entries (ARCHITECTURE §4). Cost and overview come
 * from any entry that has the switch on.
 */
export function resolveAccess(input: {
  user_id: number
  installation_id: number
  role: Role
  entries: readonly PermissionEntry[]
  tree: ObjectTree
  stations: readonly { id: number; object_id: number | null }[]
  rfids: readonly { id: number; user_id: number | null }[]
}): Access {
  const { user_id, installation_id, role, entries, tree } = input
  if (isAdmin(role)) {
    return { user_id, installation_id, role, cost: true, overview: true, stations: 'all', rfids: 'all', writable_stations: 'all', writable_rfids: 'all' }
  }
  const byId = (a: number, b: number) => a - b
  const stations = input.stations.map((s) => ({ id: s.id, level: stationLevel(s, tree, entries) }))
  const rfids = input.rfids.map((r) => ({ id: r.id, level: rfidLevel(r, user_id, entries) }))
  return {
    user_id,
    installation_id,
    role,
    cost: entries.some((e) => e.cost && e.level !== 'none'),
    overview: entries.some((e) => e.overview && e.level !== 'none'),
    stations: stations.filter((s) => canRead(s.level)).map((s) => s.id).sort(byId),
    rfids: rfids.filter((r) => canRead(r.level)).map((r) => r.id).sort(byId),
    writable_stations: stations.filter((s) => canWrite(s.level)).map((s) => s.id).sort(byId),
    writable_rfids: rfids.filter((r) => canWrite(r.level)).map((r) => r.id).sort(byId),
  }
}

/** Whether `access` may read station / RFID `id`. */
export const mayReadStation = (access: Access, id: number) => access.stations === 'all' || access.stations.includes(id)
export const mayReadRfid = (access: Access, id: number) => access.rfids === 'all' || access.rfids.includes(id)

/**
 * Whether `access` may change station `id` (name, charging mode; SPEC §6 read_and_write). Unlocking a
 * disabled station and learning mode need more: {@link mayUnlockStation}.
 */
export const mayWriteStation = (access: Access, id: number) =>
  isAdmin(access.role) || access.writable_stations === 'all' || (access.writable_stations?.includes(id) ?? false)

/** Whether `access` may change RFID `id`: admins everything, its owner and read_and_write holders the description. */
export const mayWriteRfid = (access: Access, id: number) =>
  isAdmin(access.role) || access.writable_rfids === 'all' || (access.writable_rfids?.includes(id) ?? false)

/** Leaving charging mode `locked` (SPEC §6 "unlock") and learning mode: admins only. */
export const mayUnlockStation = (access: Access) => isAdmin(access.role)

/** Rates are read by admins and by users with the cost switch, written by admins (docs/decisions.md "Energy: rates"). */
export const mayReadRates = (access: Access) => isAdmin(access.role) || access.cost

/** A stable key: subscribers with equal keys receive the same bytes (ARCHITECTURE §5). */
export function accessProfileKey(a: Access): string {
  if (isAdmin(a.role)) return 'admin'
  return JSON.stringify([a.user_id, a.cost, a.overview, a.stations, a.rfids])
}
