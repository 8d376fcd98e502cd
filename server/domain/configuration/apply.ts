import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { Forbidden, Invalid } from '../../lib/errors.ts'
import { dummyHash } from '../auth/passwords.ts'
import { recordAudit } from '../audit/service.ts'
import { createInstallationService, type InstallationService } from '../installations/service.ts'
import { createInstallationProvisioning } from '../installations/provisioning.ts'
import { createObjectProvisioning } from '../objects/provisioning.ts'
import { createMeterProvisioning } from '../meters/provisioning.ts'
import { createStationProvisioning } from '../stations/provisioning.ts'
import { createStationService } from '../stations/service.ts'
import type { OcppCredentialStore } from '../ocpp/credentials.ts'
import { isAdmin, type Role } from '../../../shared/rules/permissions.ts'
import { unitOf } from '../../../shared/schemas/meters.ts'
import { PATH_SEPARATOR, type ConfigChange, type ConfigInstallation } from '../../../shared/schemas/configuration.ts'
import { atLine, type FilePath } from './file.ts'
import { meterKey, readInstallation, stationKey } from './state.ts'
import { applyLoadManagement } from './load.ts'

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

/** `v` as JSON with object keys sorted (jsonb columns answer their keys in their own order). */
const canonical = (v: unknown): string => JSON.stringify(v ?? null, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x))

/** The fields of `a` and `b` (same keys) whose values differ, compared as canonical JSON. */
function differing<T extends object>(a: T, b: T, keys: (keyof T)[]): (keyof T & string)[] {
  return keys.filter((k) => canonical(a[k]) !== canonical(b[k])) as (keyof T & string)[]
}

/**
 * Apply one installation of a configuration file in transaction `tx` (docs/configuration-files.md):
 * settings, objects (parents first), meters, stations, tariffs, rates, users with role and permissions.
 * Objects, meters, stations and the installation go through the provisioning services, with their
 * checks and audit events; tariffs, rates, memberships and permissions are written here with theirs.
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
  const state = (await readInstallation(tx, id))!

  // Objects, parents before children; a parent must be in the file or the installation.
  const objectId = new Map([...state.objects].map(([p, e]) => [p, e.id]))
  const objects = file.objects.map((o, i) => ({ o, i })).sort((a, b) => a.o.path.split(PATH_SEPARATOR).length - b.o.path.split(PATH_SEPARATOR).length)
  for (const { o, i } of objects) {
    const segments = o.path.split(PATH_SEPARATOR)
    const parentPath = segments.slice(0, -1).join(PATH_SEPARATOR)
    const existing = state.objects.get(o.path)
    if (existing) {
      const fields = existing.value.type === o.type ? [] : ['type']
      if (fields.length) await at(['objects', i], () => svc.objects.update(actor, id, existing.id, { object_type: o.type }), { object_type: 'type' })
      note('object', o.path, fields)
      continue
    }
    const parent = parentPath ? objectId.get(parentPath) : null
    if (parent === undefined) throw new Invalid({ [where(['objects', i, 'path'])]: ['configurationUnknownObject'] }, {}, 404)
    const node = await at(['objects', i], () => svc.objects.create(actor, id, { description: segments.at(-1)!, parent_object_id: parent, object_type: o.type }), { parent_object_id: 'path', description: 'path', object_type: 'type' })
    objectId.set(o.path, node.id)
    note('object', o.path, null)
  }
  const objectOf = (path: string | null, at: FilePath): number | null => {
    if (path === null) return null
    const oid = objectId.get(path)
    if (oid === undefined) throw new Invalid({ [where(at)]: ['configurationUnknownObject'] }, {}, 404)
    return oid
  }

  // Meters by serial, else name.
  for (const [i, m] of file.meters.entries()) {
    const object_id = objectOf(m.object, ['meters', i, 'object'])
    const want = { ...m, unit: m.unit ?? unitOf(m.type) }
    const existing = state.meters.find((e) => (m.serial ? e.value.serial === m.serial : e.value.name === m.name))
    const fieldOf = { object_id: 'object', meter_type: 'type' }
    if (!existing) {
      if (object_id === null) throw new Invalid({ [where(['meters', i, 'object'])]: ['required'] })
      await at(['meters', i], () => svc.meters.create(actor, id, { object_id, meter_type: m.type, name: m.name, serial: m.serial, unit: want.unit, capacity: m.capacity, source: m.source }), fieldOf)
      note('meter', meterKey(m), null)
      continue
    }
    const fields = differing(existing.value, want, ['name', 'type', 'object', 'serial', 'unit', 'capacity', 'source'])
    if (fields.length) {
      const column = { name: 'name', type: 'meter_type', object: 'object_id', serial: 'serial', unit: 'unit', capacity: 'capacity', source: 'source' } as const
      const patch = Object.fromEntries(fields.map((f) => [column[f], f === 'object' ? object_id : want[f]]))
      await at(['meters', i], () => svc.meters.update(actor, id, existing.id, patch), fieldOf)
    }
    note('meter', meterKey(m), fields)
  }

  // Stations by OCPP id, else name; a new charge point's password is made here and shown once.
  const stationIds = new Map(state.stations.map((s) => [stationKey(s.value).toLowerCase(), s.id]))
  for (const [i, s] of file.stations.entries()) {
    const object_id = objectOf(s.object, ['stations', i, 'object'])!
    const key = stationKey(s)
    const existing = state.stations.find((e) => (s.ocpp_charge_point_id ? e.value.ocpp_charge_point_id?.toLowerCase() === s.ocpp_charge_point_id.toLowerCase() : e.value.name === s.name && !e.value.ocpp_charge_point_id))
    if (!existing) {
      const made = await at(['stations', i], () => svc.stations.create(actor, id, { name: s.name, object_id, capacity_kw: s.capacity_kw, phases: s.phases, description: s.description, ocpp_charge_point_id: s.ocpp_charge_point_id ?? undefined }), { object_id: 'object' })
      stationIds.set(key.toLowerCase(), made.id)
      if (made.ocpp) credentials.push({ installation: file.name, station: s.name, ...made.ocpp })
      note('station', key, null)
      continue
    }
    const fields = differing(existing.value, s, ['name', 'object', 'capacity_kw', 'phases', 'description'])
    if (fields.length) {
      await at(['stations', i], () => svc.stations.update(actor, id, existing.id, { name: s.name, object_id, capacity_kw: s.capacity_kw, phases: s.phases, description: s.description }), { object_id: 'object' })
    }
    note('station', key, fields)
  }

  // Tariffs by start day, rates by kind and start day: written here, each change audited.
  for (const t of file.tariffs) {
    const existing = state.tariffs.find((e) => e.value.valid_from === t.valid_from)
    const values = { ...t, schedule: JSON.stringify(t.schedule) }
    if (!existing) {
      const row = await tx.insertInto('tariffs').values({ installation_id: id, ...values }).returning('id').executeTakeFirstOrThrow()
      await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'create', entity_type: 'tariff', entity_id: row.id, after: t })
      note('tariff', t.valid_from, null)
      continue
    }
    const fields = differing(existing.value, t, ['name', 'valid_to', 'basic_rappen', 'high_rappen_per_kwh', 'low_rappen_per_kwh', 'flat_rappen_per_kwh', 'flat', 'schedule'])
    if (fields.length) {
      await tx.updateTable('tariffs').set(values).where('id', '=', existing.id).execute()
      await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'update', entity_type: 'tariff', entity_id: existing.id, before: existing.value, after: t })
    }
    note('tariff', t.valid_from, fields)
  }
  for (const r of file.rates) {
    const key = `${r.kind} ${r.start_date ?? 'open'}`
    const existing = state.rates.find((e) => e.value.kind === r.kind && e.value.start_date === r.start_date)
    const values = { ...r, prices: JSON.stringify(r.prices), time_spans: JSON.stringify(r.time_spans) }
    if (!existing) {
      const row = await tx.insertInto('rates').values({ installation_id: id, ...values }).returning('id').executeTakeFirstOrThrow()
      await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'create', entity_type: 'rate', entity_id: row.id, after: r })
      note('rate', key, null)
      continue
    }
    const fields = differing(existing.value, r, ['name', 'end_date', 'prices', 'time_spans', 'flat_enabled'])
    if (fields.length) {
      await tx.updateTable('rates').set(values).where('id', '=', existing.id).execute()
      await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'update', entity_type: 'rate', entity_id: existing.id, before: existing.value, after: r })
    }
    note('rate', key, fields)
  }

  // Users by e-mail: a new one without a usable password (docs/configuration-files.md "Users"); an
  // existing account keeps its name and language, only its role and permission entries here follow the file.
  for (const [i, u] of file.users.entries()) {
    let user = await tx.selectFrom('users').select('id').where('email', '=', u.email).executeTakeFirst()
    const fields: string[] = []
    let isNew = false
    if (!user) {
      if (!isAdmin(await svc.installations.requireRole(actor, id))) throw Forbidden()
      user = await tx.insertInto('users').values({
        email: u.email, password_hash: await dummyHash(), first_name: u.first_name, last_name: u.last_name, title: u.title, is_superuser: false, is_active: true,
        deactivation_datetime: null, ietf_lang_tag: u.language, last_login: null, previous_login: null, created_at: clock.now(),
      }).returning('id').executeTakeFirstOrThrow()
      await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'create', entity_type: 'user', entity_id: user.id, after: { email: u.email, first_name: u.first_name, last_name: u.last_name } })
      isNew = true
    }
    const uid = user.id
    const member = await tx.selectFrom('installation_users').select('role').where('user_id', '=', uid).where('installation_id', '=', id).executeTakeFirst()
    if (!member) {
      await tx.insertInto('installation_users').values({ user_id: uid, installation_id: id, role: u.role }).execute()
      await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'create', entity_type: 'installation_user', entity_id: `${uid}:${id}`, after: { role: u.role } })
      if (!isNew) fields.push('role')
    } else if (member.role !== u.role) {
      await tx.updateTable('installation_users').set({ role: u.role }).where('user_id', '=', uid).where('installation_id', '=', id).execute()
      await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'update', entity_type: 'installation_user', entity_id: `${uid}:${id}`, before: { role: member.role }, after: { role: u.role } })
      fields.push('role')
    }
    for (const [k, p] of u.permissions.entries()) {
      const place: FilePath = ['users', i, 'permissions', k]
      const stationId = p.station === undefined ? undefined : p.station === '*' ? 0 : stationIds.get(p.station.toLowerCase()) ?? (await stationByName(tx, id, p.station))
      if (p.station !== undefined && stationId === undefined) throw new Invalid({ [where([...place, 'station'])]: ['configurationUnknownStation'] }, {}, 404)
      const target = p.object !== undefined
        ? { object_type: 'object' as const, object_id: objectOf(p.object, [...place, 'object'])! }
        : { object_type: 'charging_station' as const, object_id: stationId! }
      const entry = { level: p.level, cost: p.cost, overview: p.overview }
      const before = await tx.selectFrom('permissions').select(['id', 'level', 'cost', 'overview']).where('user_id', '=', uid).where('installation_id', '=', id)
        .where('object_type', '=', target.object_type).where('object_id', '=', target.object_id).executeTakeFirst()
      const auditId = `${uid}:${target.object_type}:${target.object_id}`
      if (!before) {
        await tx.insertInto('permissions').values({ user_id: uid, installation_id: id, ...target, ...entry }).execute()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'create', entity_type: 'permission', entity_id: auditId, after: entry })
        if (!isNew) fields.push(`permissions[${k}]`)
      } else if (before.level !== entry.level || before.cost !== entry.cost || before.overview !== entry.overview) {
        await tx.updateTable('permissions').set(entry).where('id', '=', before.id).execute()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'update', entity_type: 'permission', entity_id: auditId, before: { level: before.level, cost: before.cost, overview: before.overview }, after: entry })
        fields.push(`permissions[${k}]`)
      }
    }
    note('user', u.email, isNew ? null : fields)
  }
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

