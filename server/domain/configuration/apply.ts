import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { Forbidden, Invalid } from '../../lib/errors.ts'
import { createInstallationService, type InstallationService } from '../installations/service.ts'
import { createInstallationProvisioning } from '../installations/provisioning.ts'
import { createObjectProvisioning } from '../objects/provisioning.ts'
import { createMeterProvisioning } from '../meters/provisioning.ts'
import { createStationProvisioning } from '../stations/provisioning.ts'
import { createStationService } from '../stations/service.ts'
import type { OcppCredentialStore } from '../ocpp/credentials.ts'
import { isAdmin, type Role } from '../../../shared/rules/permissions.ts'
import { unitOf, type MeterCreate } from '../../../shared/schemas/meters.ts'
import { PATH_SEPARATOR, type ConfigChange, type ConfigInstallation } from '../../../shared/schemas/configuration.ts'
import type { ObjectCreate } from '../../../shared/schemas/objects.ts'
import type { StationCreate } from '../../../shared/schemas/station.ts'
import { atLine, type FilePath } from './file.ts'
import { meterKey, readInstallation, stationKey, type InstallationState } from './state.ts'
import { applyLoadManagement } from './load.ts'
import { applyRecords, canonical, differing } from './records.ts'

/**
 * The provisioning services working in transaction `tx` (server/db/transaction.ts inTransaction). The
 * gates every call passes (requireRole, requireWritable) are answered once per caller and installation in
 * this transaction: an import or the demo seed calls them hundreds of times for one installation, whose
 * role and archive state do not change meanwhile (a refusal is not kept, so it is asked again).
 */
export function provisioningOn(tx: Db, { clock, ocpp, publicUrl }: { clock: Clock; ocpp: OcppCredentialStore; publicUrl: string }) {
  const plain = createInstallationService({ db: tx, clock })
  const gates = new Map<string, Promise<Role>>()
  const once = (key: string, ask: () => Promise<Role>): Promise<Role> => {
    let answer = gates.get(key)
    if (!answer) {
      answer = ask()
      gates.set(key, answer)
      answer.catch(() => gates.delete(key))
    }
    return answer
  }
  const installations: InstallationService = {
    ...plain,
    requireRole: (actor, id) => once(`role:${actor.id}:${id}`, () => plain.requireRole(actor, id)),
    requireWritable: (actor, id) => once(`writable:${actor.id}:${id}`, () => plain.requireWritable(actor, id)),
  }
  const stations = createStationService({ db: tx, clock, installations })
  return {
    installations,
    installation: createInstallationProvisioning({ db: tx, clock, installations }),
    objects: createObjectProvisioning({ db: tx, clock, installations }),
    meters: createMeterProvisioning({ db: tx, clock, installations }),
    stations: createStationProvisioning({ db: tx, clock, installations, stations, ocpp, publicUrl }),
  }
}

/**
 * Apply one installation of a configuration file in transaction `tx` (docs/configuration-files.md):
 * settings, objects (parents first), meters, stations, tariffs, rates, users with role and permissions.
 * Objects, meters, stations and the installation go through the provisioning services, with their
 * checks and audit events; tariffs, rates, users, memberships and permissions by the import itself
 * with theirs (records.ts). New objects (a level of the tree at a time), meters and stations are made
 * together, each kind in few statements (the services' addMany/createMany), in file order between changes.
 * Nothing is deleted: what the installation has beyond the file stays. `where` names a place of this
 * installation in the file (line and field) for errors. Returns its id, whether it was created, the
 * change of every entity and the OCPP credentials of new charge points.
 */
export async function applyInstallation(tx: Db, deps: { actor: Actor; clock: Clock; ocpp: OcppCredentialStore; publicUrl: string }, file: ConfigInstallation, where: (path: FilePath) => string) {
  const { actor, clock } = deps
  const svc = provisioningOn(tx, deps)
  const changes: ConfigChange[] = []
  const credentials: { installation: string; station: string; charge_point_id: string; password: string; url: string }[] = []
  const note = (entity: ConfigChange['entity'], key: string, fields: string[] | null) =>
    changes.push({ installation: file.name, entity, key, change: fields === null ? 'created' : fields.length ? 'updated' : 'unchanged', ...(fields?.length ? { fields } : {}) })
  /** Run a service call for the entity at `path`; its refusal named by line and field. */
  const at = async <T>(path: FilePath, run: () => Promise<T>, fieldOf?: Record<string, string>): Promise<T> => {
    try {
      return await run()
    } catch (err) {
      throw atLine(err, where, path, fieldOf)
    }
  }

  // The installation, by name: among all for a superuser, among those administered for anyone else.
  let candidates = await tx.selectFrom('installations').select('id').where('name', '=', file.name).execute()
  if (!actor.is_superuser) {
    const mine = new Set((await tx.selectFrom('installation_users').select('installation_id').where('user_id', '=', actor.id).where('role', '=', 'installation_admin').execute()).map((r) => r.installation_id))
    candidates = candidates.filter((c) => mine.has(c.id))
    if (!candidates.length) throw Forbidden()
  }
  if (candidates.length > 1) throw new Invalid({ [where(['name'])]: ['configurationAmbiguous'] }, {}, 409)
  const settings = { name: file.name, timezone: file.timezone, currency: file.currency, address: file.address, latitude: file.latitude, longitude: file.longitude, registration_enabled: file.registration_enabled, operator: file.operator }
  let id: number
  const created = !candidates.length
  if (created) {
    // Without an address the installation is made as the ones from before addresses were recorded (empty texts).
    const address = file.address ?? { street: '', building_number: '', zip: '', city: '', country: 'CH' as const }
    const inst = await at([], () => svc.installation.create(actor, { ...settings, address }))
    id = inst.id
    if (file.registration_enabled) await at(['registration_enabled'], () => svc.installation.update(actor, id, { registration_enabled: true }))
    note('installation', file.name, null)
  } else {
    id = candidates[0].id
    await svc.installations.requireWritable(actor, id).catch((err) => Promise.reject(atLine(err, where, ['name'])))
    const before = (await readInstallation(tx, id))!.settings
    const fields = differing(before, settings, ['timezone', 'currency', 'latitude', 'longitude', 'registration_enabled', 'operator'])
    if (file.address && canonical(file.address) !== canonical(before.address)) fields.push('address')
    if (fields.includes('currency')) throw new Invalid({ [where(['currency'])]: ['configurationCurrencyFixed'] }, {}, 422)
    if (fields.length) await at([], () => svc.installation.update(actor, id, Object.fromEntries(fields.map((f) => [f, settings[f]]))))
    note('installation', file.name, fields)
  }
  // A new installation has nothing yet: no need to read it back (eleven reads per installation of a file).
  const state: Pick<InstallationState, 'objects' | 'meters' | 'stations' | 'tariffs' | 'rates' | 'loadManagement'> = created
    ? { objects: new Map(), meters: [], stations: [], tariffs: [], rates: [], loadManagement: null }
    : (await readInstallation(tx, id))!

  // Objects, parents before children; a parent must be in the file or the installation.
  const objectId = new Map([...state.objects].map(([p, e]) => [p, e.id]))
  // New objects are made a level of the tree at a time (addMany), before the next level, a change or a refusal.
  const objects = file.objects.map((o, i) => ({ o, i })).sort((a, b) => a.o.path.split(PATH_SEPARATOR).length - b.o.path.split(PATH_SEPARATOR).length)
  let level: { i: number; path: string; body: ObjectCreate }[] = []
  const makeLevel = async () => {
    const run = level
    level = []
    if (!run.length) return
    const made = await svc.objects.addMany(actor, id, run.map((r) => r.body), (k, err) => atLine(err, where, ['objects', run[k].i], { parent_object_id: 'path', description: 'path', object_type: 'type' }))
    run.forEach((r, k) => objectId.set(r.path, made[k].id))
  }
  let depth = 0
  for (const { o, i } of objects) {
    const segments = o.path.split(PATH_SEPARATOR)
    if (segments.length !== depth) await makeLevel()
    depth = segments.length
    const parentPath = segments.slice(0, -1).join(PATH_SEPARATOR)
    const existing = state.objects.get(o.path)
    if (existing) {
      const fields = existing.value.type === o.type ? [] : ['type']
      if (fields.length) {
        await makeLevel()
        await at(['objects', i], () => svc.objects.update(actor, id, existing.id, { object_type: o.type }), { object_type: 'type' })
      }
      note('object', o.path, fields)
      continue
    }
    const parent = parentPath ? objectId.get(parentPath) : null
    if (parent === undefined) {
      await makeLevel()
      throw new Invalid({ [where(['objects', i, 'path'])]: ['configurationUnknownObject'] }, {}, 404)
    }
    level.push({ i, path: o.path, body: { description: segments.at(-1)!, parent_object_id: parent, object_type: o.type } })
    note('object', o.path, null)
  }
  await makeLevel()
  const objectOf = (path: string | null, at: FilePath): number | null => {
    if (path === null) return null
    const oid = objectId.get(path)
    if (oid === undefined) throw new Invalid({ [where(at)]: ['configurationUnknownObject'] }, {}, 404)
    return oid
  }

  // Meters by serial, else name. New ones wait to be made together (createMany) until a change or the
  // end comes, so every step still runs in file order and the first refusal is the one named.
  const fieldOf = { object_id: 'object', meter_type: 'type' }
  let fresh: { i: number; input: MeterCreate }[] = []
  const makeFresh = async () => {
    const run = fresh
    fresh = []
    if (run.length) await svc.meters.createMany(actor, id, run.map((r) => r.input), (k, err) => atLine(err, where, ['meters', run[k].i], fieldOf))
  }
  for (const [i, m] of file.meters.entries()) {
    const want = { ...m, unit: m.unit ?? unitOf(m.type) }
    const existing = state.meters.find((e) => (m.serial ? e.value.serial === m.serial : e.value.name === m.name))
    let object_id: number | null
    try {
      object_id = objectOf(m.object, ['meters', i, 'object'])
      if (!existing && object_id === null) throw new Invalid({ [where(['meters', i, 'object'])]: ['required'] })
    } catch (err) {
      await makeFresh()
      throw err
    }
    if (!existing) {
      fresh.push({ i, input: { object_id: object_id!, meter_type: m.type, name: m.name, serial: m.serial, unit: want.unit, capacity: m.capacity, source: m.source, source_config: m.source_config ?? null, max_power_kw: m.max_power_kw ?? null } })
      note('meter', meterKey(m), null)
      continue
    }
    // Settings left out of the file are none (null), as the export leaves them out.
    const orNone = <T extends { source_config?: unknown; max_power_kw?: unknown }>(v: T) => ({ ...v, source_config: v.source_config ?? null, max_power_kw: v.max_power_kw ?? null })
    const fields = differing(orNone(existing.value), orNone(want), ['name', 'type', 'object', 'serial', 'unit', 'capacity', 'source', 'source_config', 'max_power_kw'])
    if (fields.length) {
      await makeFresh()
      const column = { name: 'name', type: 'meter_type', object: 'object_id', serial: 'serial', unit: 'unit', capacity: 'capacity', source: 'source', source_config: 'source_config', max_power_kw: 'max_power_kw' } as const
      const patch = Object.fromEntries(fields.map((f) => [column[f], f === 'object' ? object_id : orNone(want)[f]]))
      await at(['meters', i], () => svc.meters.update(actor, id, existing.id, patch), fieldOf)
    }
    note('meter', meterKey(m), fields)
  }
  await makeFresh()

  // Stations by OCPP id, else name; a new charge point's password is made here and shown once.
  const stationIds = new Map(state.stations.map((s) => [stationKey(s.value).toLowerCase(), s.id]))
  // New ones are made together (addMany) before a change, a refusal or the end, as the meters.
  let newStations: { i: number; key: string; name: string; input: StationCreate }[] = []
  const makeStations = async () => {
    const run = newStations
    newStations = []
    if (!run.length) return
    const made = await svc.stations.addMany(actor, id, run.map((r) => r.input), (k, err) => atLine(err, where, ['stations', run[k].i], { object_id: 'object' }))
    for (const [k, r] of run.entries()) {
      stationIds.set(r.key.toLowerCase(), made[k].id)
      if (made[k].ocpp) credentials.push({ installation: file.name, station: r.name, ...made[k].ocpp! })
    }
  }
  for (const [i, s] of file.stations.entries()) {
    let object_id: number
    try {
      object_id = objectOf(s.object, ['stations', i, 'object'])!
    } catch (err) {
      await makeStations()
      throw err
    }
    const key = stationKey(s)
    const existing = state.stations.find((e) => (s.ocpp_charge_point_id ? e.value.ocpp_charge_point_id?.toLowerCase() === s.ocpp_charge_point_id.toLowerCase() : e.value.name === s.name && !e.value.ocpp_charge_point_id))
    if (!existing) {
      newStations.push({ i, key, name: s.name, input: { name: s.name, object_id, capacity_kw: s.capacity_kw, phases: s.phases, description: s.description, ocpp_charge_point_id: s.ocpp_charge_point_id ?? undefined } })
      note('station', key, null)
      continue
    }
    const fields = differing(existing.value, s, ['name', 'object', 'capacity_kw', 'phases', 'description'])
    if (fields.length) {
      await makeStations()
      await at(['stations', i], () => svc.stations.update(actor, id, existing.id, { name: s.name, object_id, capacity_kw: s.capacity_kw, phases: s.phases, description: s.description }), { object_id: 'object' })
    }
    note('station', key, fields)
  }
  await makeStations()

  // Tariffs, rates and users: written here, each change audited (records.ts).
  await applyRecords(tx, {
    actor, clock, installationId: id, state, file, note,
    requireAdmin: async () => {
      if (!isAdmin(await svc.installations.requireRole(actor, id))) throw Forbidden()
    },
    objectOf: (path, place) => objectOf(path, place)!,
    stationOf: async (name, place) => {
      const sid = name === '*' ? 0 : stationIds.get(name.toLowerCase()) ?? (await stationByName(tx, id, name))
      if (sid === undefined) throw new Invalid({ [where(place)]: ['configurationUnknownStation'] }, {}, 404)
      return sid
    },
  })
  if (file.load_management) {
    const fields = await applyLoadManagement(tx, { actor, clock, installationId: id, before: state.loadManagement, file: file.load_management, stationIds, where })
    note('load_management', file.name, state.loadManagement ? fields : null)
  }
  return { id, created, changes, credentials }
}

/** A live station of the installation named `name` (a permission naming a station the file does not list). */
async function stationByName(tx: Db, installationId: number, name: string): Promise<number | undefined> {
  const s = await tx.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('name', '=', name).where('archived_at', 'is', null).orderBy('id').executeTakeFirst()
  return s?.id
}

