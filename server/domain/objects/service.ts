import type { Db } from '../../db/connection.ts'
import type { MeterType } from '../../db/schema.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Forbidden, NotFound } from '../../lib/errors.ts'
import { canRead, isAdmin, mayReadStation, objectLevel, type Access, type PermissionEntry } from '../../../shared/rules/permissions.ts'
import { localMidnight, localDate } from '../../../shared/rules/granularity.ts'
import type { Clock } from '../../lib/clock.ts'
import { unitOf } from '../../../shared/schemas/meters.ts'

/** Meter categories (SPEC §2 sections) and the meter types in each. */
export const CATEGORIES = {
  electrical: ['main_power', 'pv', 'battery', 'power'],
  water: ['cold_water', 'hot_water'],
  heat: ['heat'],
  charging_station: ['charging_station'],
} as const satisfies Record<string, readonly MeterType[]>

/** Main meters: shown only with the overview switch (SPEC §6). */
const MAIN: readonly MeterType[] = ['main_power', 'pv', 'battery']

/**
 * A meter with its newest reading (within 5 minutes, else null) and today's totals (installation-local
 * day, from the 15-minute aggregates): energy in/out kWh, volume m3. Units: power kW, soc %.
 */
export interface MeterView {
  id: number
  name: string
  meter_type: MeterType
  object_id: number | null
  capacity: number | null
  unit: 'kWh' | 'm3'
  latest: { ts: string; power_kw: number; soc: number | null } | null
  today: { energy_in_kwh: number; energy_out_kwh: number; volume_m3: number }
}

/** An object hierarchy node (SPEC §3) with its meters by section and its readable stations. */
export interface ObjectNode {
  id: number
  object_id: number
  parent_object_id: number | null
  description: string
  object_type: string
  children: ObjectNode[]
  electrical_meters: { id: number; name: string; meter_type: MeterType }[]
  heating_meters: { id: number; name: string; meter_type: MeterType }[]
  water_meters: { id: number; name: string; meter_type: MeterType }[]
  charging_stations: { id: number; name: string }[]
}

const r3 = (x: number) => Math.round(x * 1000) / 1000

/**
 * Objects and meters of an installation. Rights: admins see everything; an
 * installation_user sees the objects their entries make readable, water and heat meters there, main
 * meters (main power, PV, battery) only with the overview switch, and their readable stations. Live
 * values and "today" are judged at `clock`'s now (ARCHITECTURE §1 "Time").
 */
export function createObjectService({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  async function load(actor: Actor, installationId: number) {
    const access = await installations.access(actor, installationId)
    const [objects, meters, stations, entries] = await Promise.all([
      db.selectFrom('objects').selectAll().where('installation_id', '=', installationId).orderBy('id').execute(),
      // Archived meters and stations are left out (migration 0170); their data stays in statistics.
      db.selectFrom('meters').selectAll().where('installation_id', '=', installationId).where('archived_at', 'is', null).orderBy('id').execute(),
      db.selectFrom('charging_stations').select(['id', 'name', 'object_id', 'meter_id']).where('installation_id', '=', installationId).where('archived_at', 'is', null).orderBy('id').execute(),
      db.selectFrom('permissions').select(['object_type', 'object_id', 'level', 'cost', 'overview']).where('user_id', '=', actor.id).where('installation_id', '=', installationId).execute(),
    ])
    const tree = new Map(objects.map((o) => [o.id, o.parent_object_id]))
    const admin = isAdmin(access.role)
    const readableObject = (id: number | null) => admin || (id != null && canRead(objectLevel(id, tree, entries as PermissionEntry[])))
    const stationByMeter = new Map(stations.map((s) => [s.meter_id, s]))
    const readableMeter = (m: (typeof meters)[number]) => {
      if (admin) return true
      if (m.meter_type === 'charging_station') {
        const s = stationByMeter.get(m.id)
        return !!s && mayReadStation(access, s.id)
      }
      if (MAIN.includes(m.meter_type)) return access.overview
      return access.overview || readableObject(m.object_id)
    }
    return { access, objects, meters: meters.filter(readableMeter), stations: stations.filter((s) => mayReadStation(access, s.id)), readableObject }
  }

  function buildNodes(ctx: Awaited<ReturnType<typeof load>>): Map<number, ObjectNode> {
    const nodes = new Map<number, ObjectNode>()
    for (const o of ctx.objects) {
      nodes.set(o.id, {
        id: o.id, object_id: o.id, parent_object_id: o.parent_object_id, description: o.description, object_type: o.object_type, children: [],
        electrical_meters: [], heating_meters: [], water_meters: [], charging_stations: [],
      })
    }
    for (const m of ctx.meters) {
      const n = m.object_id != null ? nodes.get(m.object_id) : undefined
      if (!n) continue
      const ref = { id: m.id, name: m.name, meter_type: m.meter_type }
      if ((CATEGORIES.electrical as readonly string[]).includes(m.meter_type)) n.electrical_meters.push(ref)
      else if (m.meter_type === 'heat') n.heating_meters.push(ref)
      else if (m.meter_type === 'cold_water' || m.meter_type === 'hot_water') n.water_meters.push(ref)
    }
    for (const s of ctx.stations) if (s.object_id != null) nodes.get(s.object_id)?.charging_stations.push({ id: s.id, name: s.name })
    for (const o of ctx.objects) if (o.parent_object_id != null && ctx.readableObject(o.id)) nodes.get(o.parent_object_id)?.children.push(nodes.get(o.id)!)
    return nodes
  }

  function subtree(objects: { id: number; parent_object_id: number | null }[], root: number): Set<number> {
    const ids = new Set([root])
    for (let grew = true; grew; ) {
      grew = false
      for (const o of objects) if (o.parent_object_id != null && ids.has(o.parent_object_id) && !ids.has(o.id)) (ids.add(o.id), (grew = true))
    }
    return ids
  }

  async function views(installationId: number, meters: { id: number; name: string; meter_type: MeterType; object_id: number | null; capacity: number | null }[]): Promise<MeterView[]> {
    if (!meters.length) return []
    const inst = await installations.describe(installationId)
    const now = clock.now()
    const since = new Date(localMidnight(localDate(now, inst.timezone), inst.timezone))
    const ids = meters.map((m) => m.id)
    const [latest, today] = await Promise.all([
      db.selectFrom('measurements').select(['meter_id', 'ts', 'power_kw', 'soc']).where('meter_id', 'in', ids).where('ts', '>=', new Date(now.getTime() - 5 * 60_000))
        .distinctOn('meter_id').orderBy('meter_id').orderBy('ts', 'desc').execute(),
      db.selectFrom('measurements_15m').where('meter_id', 'in', ids).where('bucket', '>=', since).groupBy('meter_id')
        .select((eb) => ['meter_id', eb.fn.sum<number>('energy_in_kwh').as('e_in'), eb.fn.sum<number>('energy_out_kwh').as('e_out'), eb.fn.sum<number>('volume_m3').as('vol')]).execute(),
    ])
    const l = new Map(latest.map((r) => [r.meter_id, r]))
    const t = new Map(today.map((r) => [r.meter_id, r]))
    return meters.map((m) => {
      const x = l.get(m.id)
      const y = t.get(m.id)
      return {
        id: m.id, name: m.name, meter_type: m.meter_type, object_id: m.object_id, capacity: m.capacity,
        unit: unitOf(m.meter_type),
        latest: x ? { ts: new Date(x.ts).toISOString(), power_kw: x.power_kw, soc: x.soc } : null,
        today: { energy_in_kwh: r3(Number(y?.e_in ?? 0)), energy_out_kwh: r3(Number(y?.e_out ?? 0)), volume_m3: r3(Number(y?.vol ?? 0)) },
      }
    })
  }

  return {
    /** GET …/objects/: the readable object tree (roots: readable nodes whose parent is not readable). */
    async tree(actor: Actor, installationId: number): Promise<{ count: number; next: null; previous: null; results: ObjectNode[] }> {
      const ctx = await load(actor, installationId)
      const nodes = buildNodes(ctx)
      const roots = ctx.objects.filter((o) => ctx.readableObject(o.id) && !(o.parent_object_id != null && ctx.readableObject(o.parent_object_id))).map((o) => nodes.get(o.id)!)
      return { count: roots.length, next: null, previous: null, results: roots }
    },

    /** GET …/objects/{id}: one node with its readable children; 404 unknown here, 403 not readable. */
    async get(actor: Actor, installationId: number, objectId: number): Promise<ObjectNode> {
      const ctx = await load(actor, installationId)
      if (!ctx.objects.some((o) => o.id === objectId)) throw NotFound()
      if (!ctx.readableObject(objectId)) throw Forbidden()
      return buildNodes(ctx).get(objectId)!
    },

    /** GET …/objects/{id}/meters[/{meter_type}]: visible meters in the object and below it. */
    async meters(actor: Actor, installationId: number, objectId: number, meterType?: MeterType): Promise<MeterView[]> {
      const ctx = await load(actor, installationId)
      if (!ctx.objects.some((o) => o.id === objectId)) throw NotFound()
      if (!ctx.readableObject(objectId)) throw Forbidden()
      const ids = subtree(ctx.objects, objectId)
      return views(installationId, ctx.meters.filter((m) => m.object_id != null && ids.has(m.object_id) && (!meterType || m.meter_type === meterType)))
    },

    /**
     * GET …/batteries/, pv/, heat/, water/ (limit, offset): visible meters of the kind, paged.
     * Batteries and PV are main meters: 403 without the overview switch.
     */
    async ofKind(actor: Actor, installationId: number, kind: 'batteries' | 'pv' | 'heat' | 'water', page: { limit: number; offset: number }) {
      const ctx = await load(actor, installationId)
      if ((kind === 'batteries' || kind === 'pv') && !ctx.access.overview) throw Forbidden()
      const types: MeterType[] = kind === 'batteries' ? ['battery'] : kind === 'pv' ? ['pv'] : kind === 'heat' ? ['heat'] : ['cold_water', 'hot_water']
      const all = ctx.meters.filter((m) => types.includes(m.meter_type))
      return { count: all.length, next: null, previous: null, results: await views(installationId, all.slice(page.offset, page.offset + page.limit)) }
    },

    /** GET …/categories: the meter categories with the caller's visible meter count in each. */
    async categories(actor: Actor, installationId: number) {
      const ctx = await load(actor, installationId)
      return Object.entries(CATEGORIES).map(([category, types]) => ({
        category, meter_types: types, count: ctx.meters.filter((m) => (types as readonly string[]).includes(m.meter_type)).length,
      }))
    },

    /** Which rights `access` resolved to (for callers that need the switches). */
    access: (actor: Actor, installationId: number): Promise<Access> => installations.access(actor, installationId),
  }
}
export type ObjectService = ReturnType<typeof createObjectService>
