import type { Db } from '../../db/connection.ts'
import { AppError } from '../../lib/errors.ts'
import { PATH_SEPARATOR, type ConfigInstallation } from '../../../shared/schemas/configuration.ts'

type Entry<T> = { id: number; value: T }
type Of<K extends keyof ConfigInstallation> = ConfigInstallation[K] extends (infer T)[] ? T : never

/**
 * An installation's configuration as stored, in the file's terms (docs/configuration-files.md), with
 * each entity's database id: what the export writes and what an import compares against. Archived
 * meters and stations, a station's own meter, and measurements, sessions, cards and secrets are not part
 * of it. Objects are by path; stations by OCPP id, else name; meters by serial, else name.
 */
export interface InstallationState {
  id: number
  archived: boolean
  settings: Omit<ConfigInstallation, 'objects' | 'meters' | 'stations' | 'tariffs' | 'rates' | 'users' | 'load_management'>
  objects: Map<string, Entry<Of<'objects'>>>
  meters: Entry<Of<'meters'>>[]
  stations: Entry<Of<'stations'>>[]
  tariffs: Entry<Of<'tariffs'>>[]
  rates: Entry<Of<'rates'>>[]
  users: Entry<Of<'users'>>[]
  /** Load management with the stations by key; null before its first settings. */
  loadManagement: ConfigInstallation['load_management']
  /** Object id → path. */
  pathOf: Map<number, string>
}

/** A meter's key in its installation: its serial when it has one, else its name. */
export const meterKey = (m: { serial: string | null; name: string }) => (m.serial ? `serial ${m.serial}` : m.name)
/** A station's key: its OCPP id when bound, else its name. */
export const stationKey = (s: { ocpp_charge_point_id: string | null; name: string }) => s.ocpp_charge_point_id ?? s.name

/**
 * Read installation `id` on `db` (a transaction's view during an import). 409 configurationNotExportable
 * when an object's description contains " / " or two siblings share one (a path would not name one
 * object). Users are the installation's members (superusers without membership are not), with their
 * permission entries on objects and stations (cards' entries are not part of the file).
 */
export async function readInstallation(db: Db, id: number): Promise<InstallationState | null> {
  const inst = await db.selectFrom('installations').selectAll().where('id', '=', id).executeTakeFirst()
  if (!inst) return null
  const [objects, meters, stations, tariffs, rates, members, permissions, load, circuits, circuitOf] = await Promise.all([
    db.selectFrom('objects').selectAll().where('installation_id', '=', id).orderBy('id').execute(),
    db.selectFrom('meters').selectAll().where('installation_id', '=', id).where('archived_at', 'is', null).where('meter_type', '!=', 'charging_station').orderBy('id').execute(),
    db.selectFrom('charging_stations as s').leftJoin('ocpp_charge_points as cp', 'cp.station_id', 's.id')
      .select(['s.id', 's.name', 's.object_id', 's.capacity_kw', 's.phases', 's.description', 'cp.id as cp']).where('s.installation_id', '=', id).where('s.archived_at', 'is', null).orderBy('s.id').execute(),
    db.selectFrom('tariffs').selectAll().where('installation_id', '=', id).orderBy('valid_from').orderBy('id').execute(),
    db.selectFrom('rates').selectAll().where('installation_id', '=', id).orderBy('kind').orderBy('start_date').orderBy('id').execute(),
    db.selectFrom('installation_users as iu').innerJoin('users as u', 'u.id', 'iu.user_id')
      .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'u.title', 'u.ietf_lang_tag', 'iu.role']).where('iu.installation_id', '=', id).orderBy('u.email').execute(),
    db.selectFrom('permissions').selectAll().where('installation_id', '=', id).where('object_type', '!=', 'rfid').orderBy('id').execute(),
    db.selectFrom('load_management').select(['enabled', 'grid_limit_a', 'grid_limit_kw', 'peak_shaving', 'peak_kw']).where('installation_id', '=', id).executeTakeFirst(),
    db.selectFrom('load_circuits').selectAll().where('installation_id', '=', id).orderBy('id').execute(),
    db.selectFrom('charging_stations').select(['id', 'load_circuit_id']).where('installation_id', '=', id).where('archived_at', 'is', null).where('load_circuit_id', 'is not', null).orderBy('id').execute(),
  ])
  const pathOf = new Map<number, string>()
  const byId = new Map(objects.map((o) => [o.id, o]))
  const path = (oid: number, depth = 0): string => {
    const known = pathOf.get(oid)
    if (known) return known
    const o = byId.get(oid)!
    if (o.description.includes(PATH_SEPARATOR) || depth > 50) throw new AppError(409, 'configurationNotExportable', { id: oid })
    const p = o.parent_object_id !== null && byId.has(o.parent_object_id) ? `${path(o.parent_object_id, depth + 1)}${PATH_SEPARATOR}${o.description.trim()}` : o.description.trim()
    pathOf.set(oid, p)
    return p
  }
  const objectMap = new Map<string, Entry<Of<'objects'>>>()
  for (const o of objects) {
    const p = path(o.id)
    if (objectMap.has(p)) throw new AppError(409, 'configurationNotExportable', { id: o.id })
    objectMap.set(p, { id: o.id, value: { path: p, type: o.object_type as Of<'objects'>['type'] } })
  }
  const stationList = stations.map((s) => ({ id: s.id, value: { name: s.name, object: s.object_id === null ? '' : pathOf.get(s.object_id) ?? '', capacity_kw: s.capacity_kw, phases: s.phases as 1 | 3, description: s.description ?? '', ocpp_charge_point_id: s.cp ?? null } }))
  const keyOfStation = new Map(stationList.map((s) => [s.id, stationKey(s.value)]))
  return {
    id,
    archived: !!inst.archived_at,
    settings: {
      name: inst.name, timezone: inst.timezone, currency: inst.currency as 'CHF' | 'EUR',
      address: inst.street ? { street: inst.street, building_number: inst.building_number ?? '', zip: inst.zip ?? '', city: inst.city ?? '', country: (inst.country ?? 'CH') as 'CH' | 'LI' } : null,
      latitude: inst.latitude, longitude: inst.longitude, registration_enabled: inst.registration_enabled,
      operator: (inst.operator as ConfigInstallation['operator']) ?? null,
    },
    objects: objectMap,
    meters: meters.map((m) => ({ id: m.id, value: { name: m.name, type: m.meter_type as Of<'meters'>['type'], object: m.object_id === null ? null : pathOf.get(m.object_id) ?? null, serial: m.serial, unit: m.unit, capacity: m.capacity, source: m.source, ...(m.source_config ? { source_config: m.source_config } : {}), ...(m.max_power_kw !== null ? { max_power_kw: m.max_power_kw } : {}) } })),
    stations: stationList,
    tariffs: tariffs.map((t) => ({ id: t.id, value: { name: t.name, valid_from: t.valid_from, valid_to: t.valid_to, basic_rappen: t.basic_rappen, high_rappen_per_kwh: t.high_rappen_per_kwh, low_rappen_per_kwh: t.low_rappen_per_kwh, flat_rappen_per_kwh: t.flat_rappen_per_kwh, flat: t.flat, schedule: t.schedule } })),
    rates: rates.map((r) => ({ id: r.id, value: { kind: r.kind, name: r.name, start_date: r.start_date, end_date: r.end_date, prices: r.prices, time_spans: r.time_spans, flat_enabled: r.flat_enabled } })),
    users: members.map((u) => ({
      id: u.id,
      value: {
        email: u.email, first_name: u.first_name, last_name: u.last_name, title: u.title ?? null, language: u.ietf_lang_tag, role: u.role,
        permissions: permissions.filter((p) => p.user_id === u.id).flatMap((p) => {
          const target = p.object_type === 'object' ? { object: pathOf.get(p.object_id) } : { station: p.object_id === 0 ? '*' : keyOfStation.get(p.object_id) }
          if (Object.values(target)[0] === undefined) return []
          return [{ ...target, level: p.level, cost: p.cost, overview: p.overview }]
        }),
      },
    })),
    loadManagement: load
      ? {
        enabled: load.enabled, grid_limit_a: load.grid_limit_a, grid_limit_kw: load.grid_limit_kw,
        peak_shaving: { enabled: load.peak_shaving, peak_kw: load.peak_kw },
        circuits: circuits.map((c) => ({ id: c.id, name: c.name, parent: c.parent_id, limit_a: c.limit_a, stations: circuitOf.filter((s) => s.load_circuit_id === c.id).map((s) => keyOfStation.get(s.id)!).filter(Boolean) })),
      }
      : null,
    pathOf,
  }
}

/** The file form of `state` (key order as docs/configuration-files.md shows it). */
export function toFileInstallation(state: InstallationState): ConfigInstallation {
  return {
    ...state.settings,
    objects: [...state.objects.values()].map((e) => e.value),
    meters: state.meters.map((e) => e.value),
    stations: state.stations.map((e) => e.value),
    tariffs: state.tariffs.map((e) => e.value),
    rates: state.rates.map((e) => e.value),
    users: state.users.map((e) => e.value),
    load_management: state.loadManagement,
  }
}
