import { sql, type Selectable } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { InstallationsTable } from '../../db/schema.ts'
import type { Actor } from '../auth/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { Installation, InstallationCreate, InstallationPatch, InstallationStatus, Operator } from '../../../shared/schemas/installation.ts'
import { recordAudit } from '../audit/service.ts'
import { checkOperator, type InstallationService } from './service.ts'

/**
 * The canonical IANA name of time zone `tz` (Intl resolves aliases and case: "europe/zurich" →
 * "Europe/Zurich"), or 400 `{timezone: [timezoneUnknown]}` when Intl does not know it.
 */
export function checkTimezone(tz: string): string {
  try {
    return new Intl.DateTimeFormat('en', { timeZone: tz }).resolvedOptions().timeZone
  } catch {
    throw new Invalid({ timezone: ['timezoneUnknown'] })
  }
}

/** CHF (two decimals at most) → whole rappen; null stays null (the default ceiling). */
const rappen = (chf: number | null) => (chf === null ? null : Math.round(chf * 100))

const normalizedOperator = (op: Operator | null) => op && { ...op, iban: op.iban.replace(/\s+/g, '').toUpperCase() }

/** The installation as the audit trail records it: its settings, not its live state (online, alerts). */
function snapshot(row: Selectable<InstallationsTable>) {
  return {
    name: row.name, timezone: row.timezone, currency: row.currency, latitude: row.latitude, longitude: row.longitude,
    pay_enabled: row.pay_enabled, registration_enabled: row.registration_enabled, operator: row.operator,
    address: { street: row.street, building_number: row.building_number, zip: row.zip, city: row.city, country: row.country },
    archived_at: row.archived_at?.toISOString() ?? null,
    session_debit_ceiling_rappen: row.session_debit_ceiling_rappen, monthly_debit_ceiling_rappen: row.monthly_debit_ceiling_rappen,
  }
}

/** The status list's path, for the answer's next/previous links. */
const STATUS_PATH = '/api/cockpit/installations/status/'

/** `%` and `_` of a search text matched literally in ILIKE. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

/**
 * Making, changing, archiving and deleting installations (SPEC §3 Installation; docs/decisions.md
 * "Provisioning: archived installations"). Every change is one transaction with its audit event
 * (server/domain/audit/service.ts). Creating, archiving and deleting are for superusers; changing the
 * settings for the installation's admins too.
 */
export function createInstallationProvisioning({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  /** The row, read inside `tx` with a row lock so two changes of one installation do not interleave. */
  const locked = (tx: Db, id: number) => tx.selectFrom('installations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst()

  async function superuserOn(actor: Actor, id: number) {
    if (!actor.is_superuser) throw Forbidden()
    await installations.requireRole(actor, id)
  }

  return {
    /**
     * POST /api/cockpit/installations/ (superusers, else 403): 201 with the new installation. 400
     * `timezone` (unknown to Intl), `operator.iban` / `operator.vat_number` (checkOperator). It starts
     * offline (no device has reported), without payments and self-registration.
     */
    async create(actor: Actor, body: InstallationCreate): Promise<Installation> {
      if (!actor.is_superuser) throw Forbidden()
      const timezone = checkTimezone(body.timezone)
      if (body.operator) checkOperator(body.operator)
      const operator = normalizedOperator(body.operator)
      const row = await inTransaction(db, async (tx) => {
        const row = await tx.insertInto('installations').values({
          name: body.name, timezone, currency: body.currency, latitude: body.latitude, longitude: body.longitude,
          pay_enabled: false, online: false, offline_since: null, alerts: '[]', created_at: clock.now(),
          operator: operator && JSON.stringify(operator), ...body.address,
        }).returningAll().executeTakeFirstOrThrow()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: row.id, action: 'create', entity_type: 'installation', entity_id: row.id, after: snapshot(row) })
        return row
      })
      return installations.toInstallation(row, 'superuser')
    },

    /**
     * PATCH /api/cockpit/installations/{id}/ (admins and superusers): self-registration, the operator
     * printed on invoices, name, time zone, address, position; the debit ceilings (superusers only, else
     * 403). 400 `timezone`, `operator.iban`, `operator.vat_number`; 409 installationArchived when archived.
     */
    async update(actor: Actor, id: number, patch: InstallationPatch): Promise<Installation> {
      const role = await installations.requireWritable(actor, id)
      if (patch.debit_ceilings && role !== 'superuser') throw Forbidden()
      const timezone = patch.timezone === undefined ? undefined : checkTimezone(patch.timezone)
      if (patch.operator) checkOperator(patch.operator)
      const row = await inTransaction(db, async (tx) => {
        const before = await locked(tx, id)
        if (!before) throw NotFound()
        if (before.archived_at) throw new AppError(409, 'installationArchived')
        const set = {
          ...(patch.name !== undefined && { name: patch.name }),
          ...(timezone !== undefined && { timezone }),
          ...(patch.latitude !== undefined && { latitude: patch.latitude }),
          ...(patch.longitude !== undefined && { longitude: patch.longitude }),
          ...(patch.registration_enabled !== undefined && { registration_enabled: patch.registration_enabled }),
          ...(patch.operator !== undefined && { operator: patch.operator && JSON.stringify(normalizedOperator(patch.operator)) }),
          ...patch.address,
          ...(patch.debit_ceilings?.session !== undefined && { session_debit_ceiling_rappen: rappen(patch.debit_ceilings.session) }),
          ...(patch.debit_ceilings?.month !== undefined && { monthly_debit_ceiling_rappen: rappen(patch.debit_ceilings.month) }),
        }
        if (!Object.keys(set).length) return before
        const after = await tx.updateTable('installations').set(set).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'update', entity_type: 'installation', entity_id: id, before: snapshot(before), after: snapshot(after) })
        return after
      })
      return installations.toInstallation(row, role)
    },

    /**
     * POST …/{id}/archive and …/{id}/unarchive (superusers, else 403): set or clear archived_at. An
     * archived installation is read-only and left out of the installation list unless asked for. Archiving
     * twice keeps the first date (and records nothing).
     */
    async setArchived(actor: Actor, id: number, archived: boolean): Promise<Installation> {
      await superuserOn(actor, id)
      const row = await inTransaction(db, async (tx) => {
        const before = (await locked(tx, id))!
        if (!!before.archived_at === archived) return before
        const after = await tx.updateTable('installations').set({ archived_at: archived ? clock.now() : null }).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: archived ? 'archive' : 'unarchive', entity_type: 'installation', entity_id: id, before: snapshot(before), after: snapshot(after) })
        return after
      })
      return installations.toInstallation(row, 'superuser')
    },

    /**
     * DELETE /api/cockpit/installations/{id}/ (superusers, else 403): deletes the installation with its
     * objects, meters, measurements, stations, users' memberships and permissions. 409
     * installationHasBilling when it has charging sessions or app fees (invoices and payments hang on
     * them): archive it instead (Swiss bookkeeping keeps records 10 years, OR Art. 958f). Its audit trail
     * stays, with the deletion.
     */
    async remove(actor: Actor, id: number): Promise<void> {
      await superuserOn(actor, id)
      await inTransaction(db, async (tx) => {
        const before = (await locked(tx, id))!
        const [session, fee] = await Promise.all([
          tx.selectFrom('charging_sessions').select('id').where('installation_id', '=', id).limit(1).executeTakeFirst(),
          tx.selectFrom('app_fees').select('id').where('installation_id', '=', id).limit(1).executeTakeFirst(),
        ])
        if (session || fee) throw new AppError(409, 'installationHasBilling')
        await tx.deleteFrom('installations').where('id', '=', id).execute()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: id, action: 'delete', entity_type: 'installation', entity_id: id, before: snapshot(before) })
      })
    },

    /**
     * GET /api/cockpit/installations/status/ (q, limit, offset): the operator's Installations list, by
     * name: every installation for superusers (archived ones too, with archived_at), the caller's own for
     * others. `q` matches name or city (case-insensitive, literally). Pages of `limit` rows (at most
     * STATUS_PAGE_MAX, checked by the route's schema) from `offset`; `next`/`previous` are the paths of
     * the neighbouring pages (null at the ends).
     */
    async status(actor: Actor, { q, limit, offset }: { q?: string; limit: number; offset: number }): Promise<PageOf<InstallationStatus>> {
      let base = db.selectFrom('installations')
      if (!actor.is_superuser) {
        base = base.where('installations.id', 'in', db.selectFrom('installation_users').select('installation_id').where('user_id', '=', actor.id))
      }
      if (q) base = base.where((eb) => eb.or([eb('installations.name', 'ilike', likePattern(q)), eb('installations.city', 'ilike', likePattern(q))]))
      const [{ count }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
        base
          .select(['installations.id', 'installations.name', 'installations.city', 'installations.online', 'installations.offline_since', 'installations.alerts', 'installations.last_heartbeat_at', 'installations.archived_at'])
          .select((eb) => [
            eb.selectFrom('charging_stations').select(eb.fn.countAll<string>().as('n')).whereRef('charging_stations.installation_id', '=', 'installations.id').as('stations_total'),
            eb.selectFrom('charging_stations').select(eb.fn.countAll<string>().as('n')).whereRef('charging_stations.installation_id', '=', 'installations.id').where('charging_stations.status', '=', 'charging').as('stations_charging'),
          ])
          .orderBy(sql`lower(installations.name)`)
          .orderBy('installations.id')
          .limit(limit)
          .offset(offset)
          .execute(),
      ])
      const results = rows.map((r) => ({
        id: r.id, name: r.name, city: r.city, online: r.online, offline_since: r.offline_since?.toISOString() ?? null,
        alert_count: r.alerts.length, last_data_at: r.last_heartbeat_at?.toISOString() ?? null,
        stations_total: Number(r.stations_total ?? 0), stations_charging: Number(r.stations_charging ?? 0), archived_at: r.archived_at?.toISOString() ?? null,
      }))
      const total = Number(count)
      const page = (from: number) => `${STATUS_PATH}?${new URLSearchParams({ ...(q ? { q } : {}), limit: String(limit), offset: String(from) })}`
      return { count: total, next: offset + limit < total ? page(offset + limit) : null, previous: offset > 0 ? page(Math.max(0, offset - limit)) : null, results }
    },
  }
}
export type InstallationProvisioning = ReturnType<typeof createInstallationProvisioning>
