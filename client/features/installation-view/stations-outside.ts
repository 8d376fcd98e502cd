import type { ObjectNode, StationGroup } from './api.ts'

/**
 * The readable stations' groups (GET …/objects/charging_stations) without the stations the readable object
 * tree already shows: what a caller may read only through a station permission, an RFID's stations or
 * their role. Groups left empty are dropped; the order of `groups` is kept.
 */
export function stationsOutside(tree: ObjectNode[], groups: StationGroup[]): StationGroup[] {
  const shown = new Set<number>()
  const walk = (n: ObjectNode) => {
    for (const s of n.charging_stations) shown.add(s.id)
    n.children.forEach(walk)
  }
  tree.forEach(walk)
  return groups
    .map((g) => ({ id: g.id, description: g.description, charging_stations: g.charging_stations.filter((s) => !shown.has(s.id)).map((s) => ({ id: s.id, name: s.name })) }))
    .filter((g) => g.charging_stations.length > 0)
}
