import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { StationService } from './service.ts'
import { NotFound } from '../../lib/errors.ts'
import { displayStatus } from '../../../shared/rules/status.ts'
import type { Station } from '../../../shared/schemas/station.ts'

/** An object node with the readable stations hanging in it (SPEC §3 object hierarchy node). */
export interface StationObject {
  id: number
  parent_object_id: number | null
  description: string
  object_type: string
  charging_stations: Station[]
}

/**
 * Stations by object node (SPEC §7 objects/{object_id}/charging_stations, objects/charging_stations,
 * objects/charging_stations/objects, objects/charging_stations/stats), always limited to the stations
 * the caller may read. An object's stations include those of its descendants.
 */
export function createStationObjectsService({ db, installations, stations }: { db: Db; installations: InstallationService; stations: StationService }) {
  async function readable(actor: Actor, installationId: number): Promise<Station[]> {
    return (await stations.list(actor, installationId, { limit: 1000, offset: 0 })).results
  }
  async function nodes(installationId: number) {
    return db.selectFrom('objects').select(['id', 'parent_object_id', 'description', 'object_type']).where('installation_id', '=', installationId).orderBy('id').execute()
  }
  function descendants(all: { id: number; parent_object_id: number | null }[], root: number): Set<number> {
    const out = new Set([root])
    for (let grew = true; grew; ) {
      grew = false
      for (const o of all) if (o.parent_object_id != null && out.has(o.parent_object_id) && !out.has(o.id)) (out.add(o.id), (grew = true))
    }
    return out
  }

  return {
    /** GET objects/{object_id}/charging_stations: readable stations in the node and below it; 404 unknown node. */
    async inObject(actor: Actor, installationId: number, objectId: number): Promise<Station[]> {
      const [list, all] = await Promise.all([readable(actor, installationId), nodes(installationId)])
      if (!all.some((o) => o.id === objectId)) throw NotFound()
      const under = descendants(all, objectId)
      return list.filter((s) => s.object_id != null && under.has(s.object_id))
    },

    /** GET objects/charging_stations: the nodes that directly hold readable stations, each with them. */
    async grouped(actor: Actor, installationId: number): Promise<StationObject[]> {
      const [list, all] = await Promise.all([readable(actor, installationId), nodes(installationId)])
      return all
        .map((o) => ({ ...o, charging_stations: list.filter((s) => s.object_id === o.id) }))
        .filter((o) => o.charging_stations.length > 0)
    },

    /** GET objects/charging_stations/objects: those nodes and their ancestors (a tree to navigate), without stations. */
    async objects(actor: Actor, installationId: number): Promise<Omit<StationObject, 'charging_stations'>[]> {
      const [list, all] = await Promise.all([readable(actor, installationId), nodes(installationId)])
      const keep = new Set<number>()
      const parent = new Map(all.map((o) => [o.id, o.parent_object_id]))
      for (const s of list) for (let n = s.object_id; n != null && !keep.has(n); n = parent.get(n) ?? null) keep.add(n)
      return all.filter((o) => keep.has(o.id))
    },

    /**
     * GET objects/charging_stations/stats: counts of readable stations by display status (SPEC §4:
     * ready, running, error, disabled), stations with a serious alert, total power in kW.
     */
    async stats(actor: Actor, installationId: number) {
      const list = await readable(actor, installationId)
      const by = { ready: 0, running: 0, error: 0, disabled: 0 }
      for (const s of list) {
        const d = displayStatus(s.status)
        if (d) by[d]++
      }
      const power = Math.round(list.reduce((sum, s) => sum + s.power_kw, 0) * 100) / 100
      return { count: list.length, ...by, power_kw: power, learning: list.filter((s) => s.rfid_lernmodus > 0).length }
    },
  }
}
export type StationObjectsService = ReturnType<typeof createStationObjectsService>
