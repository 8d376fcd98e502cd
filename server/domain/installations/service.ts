import type { Db } from '../../db/connection.ts'
import { activeAt } from '../users/active.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Actor } from '../auth/service.ts'
import type { Selectable } from 'kysely'
import type { InstallationsTable } from '../../db/schema.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { DEBIT_CEILING } from '../../../config/defaults.ts'
import type { MessageKey } from '../../lib/messages.ts'
import { isIBANValid } from 'swissqrbill/utils'
import { isAdmin, resolveAccess, type Access, type PermissionEntry, type Role } from '../../../shared/rules/permissions.ts'
import { isSeriousAlert } from '../../../shared/rules/status.ts'
import type { Operator, Installation, InstallationInfo } from '../../../shared/schemas/installation.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import { displayAccess } from '../displays/service.ts'
import type { RightsCache } from '../auth/rights-cache.ts'

/**
 * Check an operator's payment details: the IBAN must pass its mod-97 checksum and be Swiss or
 * Liechtenstein (the only accounts a Swiss QR-bill takes), the VAT number must read CHE-123.456.789
 * followed by MWST, TVA or IVA (the UID register's format). Throws Invalid by field.
 */
export function checkOperator(op: Operator): void {
  const fields: Record<string, MessageKey[]> = {}
  const iban = op.iban.replace(/\s+/g, '').toUpperCase()
  if (!/^(CH|LI)\d{7}[0-9A-Z]{12}$/.test(iban) || !isIBANValid(iban)) fields['operator.iban'] = ['ibanInvalid']
  if (op.vat_number && !/^CHE-\d{3}\.\d{3}\.\d{3} (MWST|TVA|IVA)$/.test(op.vat_number)) fields['operator.vat_number'] = ['vatNumberInvalid']
  if (Object.keys(fields).length) throw new Invalid(fields)
}

/**
 * Installations and who may do what in them (ARCHITECTURE §4). `requireRole` is the gate every
 * installation-scoped call passes: 404 for an unknown installation, 403 for one the caller has no role in.
 */
export function createInstallationService({ db, clock, rights }: { db: Db; clock: Clock; rights?: RightsCache }) {
  // Rights facts are kept while the rights revision stands (auth/rights-cache.ts); without a cache, read each time.
  const kept = <T>(key: string, load: () => Promise<T>): Promise<T> => (rights ? rights.get(key, load) : load())

  async function roleIn(actor: Actor, installationId: number): Promise<Role | null> {
    if (actor.is_superuser) return 'superuser'
    // A display link reads its own installation only, and never as more than a resident.
    if (actor.display) return actor.display.installation_id === installationId ? 'installation_user' : null
    return kept(`role:${actor.id}:${installationId}`, async () => {
      const row = await db
        .selectFrom('installation_users')
        .select('role')
        .where('user_id', '=', actor.id)
        .where('installation_id', '=', installationId)
        .executeTakeFirst()
      return row?.role ?? null
    })
  }

  async function requireRole(actor: Actor, installationId: number): Promise<Role> {
    const exists = await kept(`installation:${installationId}`, async () => !!(await db.selectFrom('installations').select('id').where('id', '=', installationId).executeTakeFirst()))
    if (!exists) throw NotFound()
    const role = await roleIn(actor, installationId)
    if (!role) throw Forbidden()
    return role
  }

  /** What `actor` with `role` may see in installation `id`, from the entries, the object tree, stations and cards. */
  async function resolvedAccess(actor: Actor, id: number, role: Role): Promise<Access> {
    const [entries, objects, stations, rfids, user] = await Promise.all([
      db.selectFrom('permissions').select(['object_type', 'object_id', 'level', 'cost', 'overview'])
        .where('user_id', '=', actor.id).where('installation_id', '=', id).execute(),
      db.selectFrom('objects').select(['id', 'parent_object_id']).where('installation_id', '=', id).execute(),
      db.selectFrom('charging_stations').select(['id', 'object_id']).where('installation_id', '=', id).execute(),
      db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', id).where('active', '=', true).execute(),
      db.selectFrom('users').select('sessions_valid_after').where('id', '=', actor.id).executeTakeFirst(),
    ])
    const resolved = resolveAccess({
      user_id: actor.id,
      installation_id: id,
      role,
      entries: entries as PermissionEntry[],
      tree: new Map(objects.map((o) => [o.id, o.parent_object_id])),
      stations,
      rfids,
    })
    return { ...resolved, sessions_valid_after: user?.sessions_valid_after?.toISOString() ?? null }
  }

  type InstallationRow = Selectable<InstallationsTable>
  function toInstallation(row: InstallationRow, role: Role): Installation {
    return {
      id: row.id, name: row.name, timezone: row.timezone, currency: row.currency, latitude: row.latitude, longitude: row.longitude, pay_enabled: row.pay_enabled,
      registration_enabled: row.registration_enabled, role, operator: row.operator,
      address: { street: row.street, building_number: row.building_number, zip: row.zip, city: row.city, country: row.country },
      archived_at: row.archived_at?.toISOString() ?? null,
      debit_ceilings: {
        session: (row.session_debit_ceiling_rappen ?? DEBIT_CEILING.sessionRappen) / 100,
        month: (row.monthly_debit_ceiling_rappen ?? DEBIT_CEILING.monthRappen) / 100,
        custom: row.session_debit_ceiling_rappen !== null || row.monthly_debit_ceiling_rappen !== null,
      },
    }
  }

  /**
   * The gate of every provisioning write in installation `id`: 404 unknown, 403 unless the caller is its
   * admin or a superuser, 409 installationArchived when it is archived (read-only, docs/decisions.md
   * "Provisioning: archived installations"). Read uncached: archiving does not move the rights revision.
   */
  async function requireWritable(actor: Actor, id: number): Promise<Role> {
    const role = await requireRole(actor, id)
    if (!isAdmin(role)) throw Forbidden()
    const row = await db.selectFrom('installations').select('archived_at').where('id', '=', id).executeTakeFirst()
    if (!row) throw NotFound()
    if (row.archived_at) throw new AppError(409, 'installationArchived')
    return role
  }

  /** Is installation `id` archived (read-only)? Read uncached, as in requireWritable; false when unknown. */
  async function isArchived(id: number): Promise<boolean> {
    const row = await db.selectFrom('installations').select('archived_at').where('id', '=', id).executeTakeFirst()
    return !!row?.archived_at
  }

  return {
    roleIn,
    requireRole,
    requireWritable,
    isArchived,
    toInstallation,

    /**
     * GET /api/cockpit/installations/: the ones the caller has a role in (all for a superuser), by id;
     * archived ones only with `include_archived`.
     */
    async list(actor: Actor, { limit, offset, include_archived = false }: { limit: number; offset: number; include_archived?: boolean }): Promise<PageOf<Installation>> {
      let q = db.selectFrom('installations').leftJoin('installation_users', (j) =>
        j.onRef('installation_users.installation_id', '=', 'installations.id').on('installation_users.user_id', '=', actor.id))
      if (!actor.is_superuser) q = q.where('installation_users.user_id', '=', actor.id)
      if (!include_archived) q = q.where('installations.archived_at', 'is', null)
      const rows = await q.selectAll('installations').select('installation_users.role').orderBy('installations.id').execute()
      const results = rows.slice(offset, offset + limit).map((r) => toInstallation(r, actor.is_superuser ? 'superuser' : r.role!))
      return { count: rows.length, next: null, previous: null, results }
    },

    /** GET /api/cockpit/installations/{id}. */
    async get(actor: Actor, id: number): Promise<Installation> {
      const role = await requireRole(actor, id)
      const row = await db.selectFrom('installations').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
      return toInstallation(row, role)
    },

    /** GET …/{id}/info: online state, offline since, alerts (serious ones marked, SPEC §4). */
    async info(actor: Actor, id: number): Promise<InstallationInfo> {
      await requireRole(actor, id)
      const row = await db.selectFrom('installations').select(['online', 'offline_since', 'alerts']).where('id', '=', id).executeTakeFirstOrThrow()
      return {
        online: row.online,
        offline_since: row.offline_since?.toISOString() ?? null,
        alerts: row.alerts.map((a) => ({ code: a.code, since: a.since, serious: isSeriousAlert(a.code) })),
      }
    },

    /** What `actor` may see in installation `id`, resolved from role, entries and the object tree. */
    async access(actor: Actor, id: number): Promise<Access> {
      const role = await requireRole(actor, id)
      if (actor.display) return displayAccess(actor.display.id, id)
      return kept(`access:${actor.id}:${actor.is_superuser}:${id}`, () => resolvedAccess(actor, id, role))
    },

    /**
     * The resolved Access of several users in one installation, for the relay's periodic re-check
     * (superusers only, i.e. the relay's account). Users without a role, inactive at the clock's now
     * (a deactivation date still ahead keeps them in, ../users/active.ts) or deleted are left out: their
     * streams must end.
     */
    async accessOfUsers(actor: Actor, id: number, userIds: number[]): Promise<Access[]> {
      if (!actor.is_superuser) throw Forbidden()
      await requireRole(actor, id)
      const users = userIds.length
        ? (await db.selectFrom('users').select(['id', 'is_superuser', 'is_active', 'deactivation_datetime']).where('id', 'in', userIds).orderBy('id').execute())
            .filter((u) => activeAt(u, clock.now()))
        : []
      const out: Access[] = []
      for (const u of users) {
        if (!u.is_superuser && !(await roleIn({ id: u.id, is_superuser: false }, id))) continue
        out.push(await this.access({ id: u.id, is_superuser: u.is_superuser }, id))
      }
      return out
    },

    /**
     * GET /api/cockpit/rights-revision: the number the relay watches to know when to re-check (superusers
     * only). It also moves when a deactivation date is reached with no write at all (../users/active.ts):
     * `revision · 2^20 + (deactivations in force mod 2^20)`, so different revisions never give the same
     * number, and within one revision the count only grows as dates pass.
     */
    async rightsRevision(actor: Actor): Promise<{ revision: number }> {
      if (!actor.is_superuser) throw Forbidden()
      const row = await db.selectFrom('rights_revision').select('revision').where('id', '=', 1).executeTakeFirstOrThrow()
      const passed = await db.selectFrom('users').select((eb) => eb.fn.countAll<string>().as('n')).where('deactivation_datetime', '<=', clock.now()).executeTakeFirstOrThrow()
      return { revision: Number(row.revision) * 2 ** 20 + (Number(passed.n) % 2 ** 20) }
    },

    /** Installation facts the device side needs (time zone, position). */
    async describe(id: number) {
      return kept(`describe:${id}`, () => db.selectFrom('installations').select(['id', 'timezone', 'latitude', 'longitude']).where('id', '=', id).executeTakeFirstOrThrow())
    },
  }
}
export type InstallationService = ReturnType<typeof createInstallationService>
