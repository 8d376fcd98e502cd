import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { Invalid } from '../../lib/errors.ts'
import { dummyHash } from '../auth/passwords.ts'
import { recordAudits, type AuditEntry } from '../audit/service.ts'
import type { ConfigChange, ConfigInstallation } from '../../../shared/schemas/configuration.ts'
import type { FilePath } from './file.ts'
import type { InstallationState } from './state.ts'

/** `v` as JSON with object keys sorted (jsonb columns answer their keys in their own order). */
export const canonical = (v: unknown): string => JSON.stringify(v ?? null, (_k, x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : 1))) : x))

/** The fields of `a` and `b` (same keys) whose values differ, compared as canonical JSON. */
export function differing<T extends object>(a: T, b: T, keys: (keyof T)[]): (keyof T & string)[] {
  return keys.filter((k) => canonical(a[k]) !== canonical(b[k])) as (keyof T & string)[]
}

/**
 * The part of an installation's file written by the import itself, not through a provisioning service
 * (docs/configuration-files.md): tariffs by start day, rates by kind and start day, users by e-mail with
 * their role and permission entries, each change with its audit event. A new user has no usable password
 * ("Users"); an existing account keeps its name and language, only its role and permission entries here
 * follow the file. Works in the caller's transaction `tx`: the users, memberships and permission entries
 * the file names are read once up front and kept as they change, and the audit events are written
 * together at the end (one event per change, as each were written at once; docs/performance.md
 * "Performance: importing 200 installations from a configuration file"). `requireAdmin` refuses (403)
 * a caller who may not add accounts; `objectOf` and `stationOf` find what a permission names (404 naming
 * its line and field otherwise).
 */
export async function applyRecords(tx: Db, { actor, clock, installationId: id, state, file, note, requireAdmin, objectOf, stationOf }: {
  actor: Actor
  clock: Clock
  installationId: number
  state: Pick<InstallationState, 'tariffs' | 'rates'>
  file: ConfigInstallation
  note: (entity: ConfigChange['entity'], key: string, fields: string[] | null) => void
  requireAdmin: () => Promise<void>
  objectOf: (path: string, at: FilePath) => number
  stationOf: (name: string, at: FilePath) => Promise<number>
}): Promise<void> {
  const audit: AuditEntry[] = []
  const record = (e: Omit<AuditEntry, 'at' | 'actor' | 'installation_id'>) => audit.push({ at: clock.now(), actor, installation_id: id, ...e })

  for (const t of file.tariffs) {
    const existing = state.tariffs.find((e) => e.value.valid_from === t.valid_from)
    const values = { ...t, schedule: JSON.stringify(t.schedule) }
    if (!existing) {
      const row = await tx.insertInto('tariffs').values({ installation_id: id, ...values }).returning('id').executeTakeFirstOrThrow()
      record({ action: 'create', entity_type: 'tariff', entity_id: row.id, after: t })
      note('tariff', t.valid_from, null)
      continue
    }
    const fields = differing(existing.value, t, ['name', 'valid_to', 'basic_rappen', 'high_rappen_per_kwh', 'low_rappen_per_kwh', 'flat_rappen_per_kwh', 'flat', 'schedule'])
    if (fields.length) {
      await tx.updateTable('tariffs').set(values).where('id', '=', existing.id).execute()
      record({ action: 'update', entity_type: 'tariff', entity_id: existing.id, before: existing.value, after: t })
    }
    note('tariff', t.valid_from, fields)
  }
  for (const r of file.rates) {
    const key = `${r.kind} ${r.start_date ?? 'open'}`
    const existing = state.rates.find((e) => e.value.kind === r.kind && e.value.start_date === r.start_date)
    const values = { ...r, prices: JSON.stringify(r.prices), time_spans: JSON.stringify(r.time_spans) }
    if (!existing) {
      const row = await tx.insertInto('rates').values({ installation_id: id, ...values }).returning('id').executeTakeFirstOrThrow()
      record({ action: 'create', entity_type: 'rate', entity_id: row.id, after: r })
      note('rate', key, null)
      continue
    }
    const fields = differing(existing.value, r, ['name', 'end_date', 'prices', 'time_spans', 'flat_enabled'])
    if (fields.length) {
      await tx.updateTable('rates').set(values).where('id', '=', existing.id).execute()
      record({ action: 'update', entity_type: 'rate', entity_id: existing.id, before: existing.value, after: r })
    }
    note('rate', key, fields)
  }

  // What the database has of the file's users, read once; kept up to date below as rows are written.
  const emails = file.users.map((u) => u.email)
  const userId = new Map(emails.length ? (await tx.selectFrom('users').select(['id', 'email']).where('email', 'in', emails).execute()).map((u) => [u.email, u.id]) : [])
  const known = [...userId.values()]
  const [members, entries] = known.length
    ? await Promise.all([
      tx.selectFrom('installation_users').select(['user_id', 'role']).where('installation_id', '=', id).where('user_id', 'in', known).execute(),
      tx.selectFrom('permissions').select(['id', 'user_id', 'object_type', 'object_id', 'level', 'cost', 'overview']).where('installation_id', '=', id).where('user_id', 'in', known).where('object_type', 'in', ['object', 'charging_station']).execute(),
    ])
    : [[], []]
  const roleOf = new Map(members.map((m) => [m.user_id, m.role]))
  const entryKey = (uid: number, type: string, oid: number) => `${uid}:${type}:${oid}`
  const entryOf = new Map(entries.map((p) => [entryKey(p.user_id, p.object_type, p.object_id), p]))

  for (const [i, u] of file.users.entries()) {
    let uid = userId.get(u.email)
    const fields: string[] = []
    const isNew = uid === undefined
    if (uid === undefined) {
      await requireAdmin()
      uid = (await tx.insertInto('users').values({
        email: u.email, password_hash: await dummyHash(), first_name: u.first_name, last_name: u.last_name, title: u.title, is_superuser: false, is_active: true,
        deactivation_datetime: null, ietf_lang_tag: u.language, last_login: null, previous_login: null, created_at: clock.now(),
      }).returning('id').executeTakeFirstOrThrow()).id
      userId.set(u.email, uid)
      record({ action: 'create', entity_type: 'user', entity_id: uid, after: { email: u.email, first_name: u.first_name, last_name: u.last_name } })
    }
    const role = roleOf.get(uid)
    if (role === undefined) {
      await tx.insertInto('installation_users').values({ user_id: uid, installation_id: id, role: u.role }).execute()
      record({ action: 'create', entity_type: 'installation_user', entity_id: `${uid}:${id}`, after: { role: u.role } })
      if (!isNew) fields.push('role')
    } else if (role !== u.role) {
      await tx.updateTable('installation_users').set({ role: u.role }).where('user_id', '=', uid).where('installation_id', '=', id).execute()
      record({ action: 'update', entity_type: 'installation_user', entity_id: `${uid}:${id}`, before: { role }, after: { role: u.role } })
      fields.push('role')
    }
    roleOf.set(uid, u.role)
    for (const [k, p] of u.permissions.entries()) {
      const place: FilePath = ['users', i, 'permissions', k]
      const target = p.object !== undefined
        ? { object_type: 'object' as const, object_id: objectOf(p.object, [...place, 'object']) }
        : { object_type: 'charging_station' as const, object_id: await stationOf(p.station!, [...place, 'station']) }
      const entry = { level: p.level, cost: p.cost, overview: p.overview }
      const key = entryKey(uid, target.object_type, target.object_id)
      const before = entryOf.get(key)
      if (!before) {
        const row = await tx.insertInto('permissions').values({ user_id: uid, installation_id: id, ...target, ...entry }).returning('id').executeTakeFirstOrThrow()
        entryOf.set(key, { id: row.id, user_id: uid, ...target, ...entry })
        record({ action: 'create', entity_type: 'permission', entity_id: key, after: entry })
        if (!isNew) fields.push(`permissions[${k}]`)
      } else if (before.level !== entry.level || before.cost !== entry.cost || before.overview !== entry.overview) {
        await tx.updateTable('permissions').set(entry).where('id', '=', before.id).execute()
        entryOf.set(key, { ...before, ...entry })
        record({ action: 'update', entity_type: 'permission', entity_id: key, before: { level: before.level, cost: before.cost, overview: before.overview }, after: entry })
        fields.push(`permissions[${k}]`)
      }
    }
    note('user', u.email, isNew ? null : fields)
  }
  await recordAudits(tx, audit)
}
