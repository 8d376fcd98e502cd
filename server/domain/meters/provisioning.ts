import type { Db } from '../../db/connection.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { AppError, Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import { isAdmin } from '../../../shared/rules/permissions.ts'
import { QUALITY_FLAG_HOURS, unitOf, type MeterAdmin, type MeterCreate, type MeterPatch, type ModbusSourceConfig } from '../../../shared/schemas/meters.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import { recordAudit, recordAudits } from '../audit/service.ts'
import type { Lang } from '../../lib/messages.ts'
import { reasonText } from '../ingest/reasons.ts'

type MeterRow = { id: number; name: string; meter_type: MeterAdmin['meter_type']; object_id: number | null; serial: string | null; unit: MeterAdmin['unit']; capacity: number | null; source: MeterAdmin['source']; source_config: ModbusSourceConfig | null; archived_at: Date | null; max_power_kw: number | null }
/** A meter's ingestion status (meter_status, migration 0172); absent before its first reading. */
type Status = { last_reading_at: Date | null; quality_reason: string | null; quality_at: Date | null }

const COLUMNS = ['id', 'name', 'meter_type', 'object_id', 'serial', 'unit', 'capacity', 'source', 'source_config', 'archived_at', 'max_power_kw'] as const

function toMeter(r: MeterRow, status: Status | undefined, nowMs: number, lang: Lang): MeterAdmin {
  const at = status?.quality_at ? new Date(status.quality_at) : null
  const flagged = !!at && nowMs - at.getTime() < QUALITY_FLAG_HOURS * 3600_000
  return {
    id: r.id, name: r.name, meter_type: r.meter_type, object_id: r.object_id, serial: r.serial, unit: r.unit, capacity: r.capacity, source: r.source,
    source_config: r.source_config ?? null, archived_at: r.archived_at?.toISOString() ?? null,
    max_power_kw: r.max_power_kw,
    last_reading_at: status?.last_reading_at ? new Date(status.last_reading_at).toISOString() : null,
    data_quality: { state: flagged ? 'flagged' : 'ok', reason: status?.quality_reason ? reasonText(status.quality_reason, lang) : null, at: at?.toISOString() ?? null },
  }
}

/**
 * The `source_config` a meter of `source` keeps: a Modbus meter its device settings (null while not yet
 * set: a gateway then skips it), every other source none; settings given for another source are 400
 * `source_config` (docs/decisions.md "Meters: a Modbus meter's device settings").
 */
function sourceConfigFor(source: MeterAdmin['source'], given: ModbusSourceConfig | null | undefined, before: ModbusSourceConfig | null): ModbusSourceConfig | null {
  if (source !== 'modbus') {
    if (given) throw new Invalid({ source_config: ['sourceConfigModbusOnly'] })
    return null
  }
  return given === undefined ? before : given
}

/** A unique violation (SQLSTATE 23505) on `constraint`, e.g. a serial taken by a concurrent request. */
function isUnique(err: unknown, constraint: string): boolean {
  const e = err as { code?: string; constraint?: string; message?: string }
  return e?.code === '23505' && (e.constraint === constraint || !!e.message?.includes(constraint))
}

/**
 * Meters as an installation's admins (and superusers) provision them (SPEC §3 meter kinds): list,
 * create, change, delete. A deleted meter is archived: it leaves the object tree, live data and the
 * simulator, and its measurements stay in statistics and reports; `purge` deletes the meter with its
 * measurements and rollups (the rollup triggers of migrations 0060/0167 recompute the installation's
 * type rows). Every change is one transaction with its audit event (docs/decisions.md "Provisioning:
 * the audit trail"). Errors: 403 not an admin of the installation, 404 unknown meter here (or archived),
 * 404 `object_id` of another installation, 409 installationArchived on writes to an archived
 * installation, 400 `unit` not the type's, 400 `source_config` for a source other than 'modbus', 409
 * `serial` taken, 409 a
 * station's meter (managed through its station).
 */
export function createMeterProvisioning({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  /** The meters' ingestion status by meter id. */
  async function statusOf(tx: Db, ids: number[]): Promise<Map<number, Status>> {
    if (!ids.length) return new Map()
    const rows = await tx.selectFrom('meter_status').select(['meter_id', 'last_reading_at', 'quality_reason', 'quality_at']).where('meter_id', 'in', ids).execute()
    return new Map(rows.map((r) => [r.meter_id, r]))
  }
  const withStatus = async (tx: Db, r: MeterRow, lang: Lang) => toMeter(r, (await statusOf(tx, [r.id])).get(r.id), clock.ms(), lang)

  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }

  /** Admins only, and the installation not archived (archived = read-only: 409 installationArchived). */
  const requireWritable = (actor: Actor, installationId: number) => installations.requireWritable(actor, installationId)

  async function objectIn(installationId: number, objectId: number): Promise<void> {
    const o = await db.selectFrom('objects').select('id').where('id', '=', objectId).where('installation_id', '=', installationId).executeTakeFirst()
    if (!o) throw new Invalid({ object_id: ['notFound'] }, {}, 404)
  }

  async function serialFree(installationId: number, serial: string, exceptId?: number): Promise<void> {
    let q = db.selectFrom('meters').select('id').where('installation_id', '=', installationId).where('serial', '=', serial).where('archived_at', 'is', null)
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId)
    if (await q.executeTakeFirst()) throw new Invalid({ serial: ['meterSerialTaken'] }, {}, 409)
  }

  /** The live (not archived) meter `meterId` of the installation, 404 otherwise; 409 when it is a station's meter. */
  async function ownMeter(installationId: number, meterId: number): Promise<MeterRow> {
    const m = await db.selectFrom('meters').select(COLUMNS).where('id', '=', meterId).where('installation_id', '=', installationId).where('archived_at', 'is', null).executeTakeFirst()
    if (!m) throw NotFound()
    if (m.meter_type === 'charging_station') throw new AppError(409, 'meterOfStation')
    return m
  }

  /** Write `run` in one transaction; a serial taken meanwhile is the 409 it would have been before. */
  async function write<T>(run: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await inTransaction(db, run)
    } catch (err) {
      if (isUnique(err, 'meters_serial')) throw new Invalid({ serial: ['meterSerialTaken'] }, {}, 409)
      throw err
    }
  }

  /**
   * Create `inputs` as `create` creates each (the same checks, errors and one audit event per meter),
   * in one transaction with one insert and one audit insert per 1,000 meters instead of four statements
   * per meter: for a configuration import's meters of an installation (docs/performance.md
   * "Performance: importing 200 installations from a configuration file"). The checks run in the order
   * given as if each meter were created after the ones before it (a serial given twice is taken the
   * second time); the first refused meter's error is thrown as `refused(index, error)` answers it (by
   * default the error itself), and none is made. Returns the new meters in the order given.
   */
  async function createMany(actor: Actor, installationId: number, inputs: MeterCreate[], refused: (index: number, err: unknown) => unknown = (_i, err) => err): Promise<MeterAdmin[]> {
    await requireWritable(actor, installationId)
    if (!inputs.length) return []
    const objectIds = [...new Set(inputs.map((m) => m.object_id))]
    const serials = [...new Set(inputs.flatMap((m) => (m.serial ? [m.serial] : [])))]
    const [objects, taken] = await Promise.all([
      db.selectFrom('objects').select('id').where('id', 'in', objectIds).where('installation_id', '=', installationId).execute(),
      serials.length ? db.selectFrom('meters').select('serial').where('installation_id', '=', installationId).where('serial', 'in', serials).where('archived_at', 'is', null).execute() : [],
    ])
    const known = new Set(objects.map((o) => o.id))
    const used = new Set(taken.map((m) => m.serial))
    const values = inputs.map((input, i) => {
      try {
        if (!known.has(input.object_id)) throw new Invalid({ object_id: ['notFound'] }, {}, 404)
        const unit = input.unit ?? unitOf(input.meter_type)
        if (unit !== unitOf(input.meter_type)) throw new Invalid({ unit: [{ key: 'meterUnitWrong', params: { unit: unitOf(input.meter_type) } }] })
        const sourceConfig = sourceConfigFor(input.source, input.source_config, null)
        if (input.serial) {
          if (used.has(input.serial)) throw new Invalid({ serial: ['meterSerialTaken'] }, {}, 409)
          used.add(input.serial)
        }
        return { installation_id: installationId, object_id: input.object_id, meter_type: input.meter_type, name: input.name, serial: input.serial ?? null, unit, capacity: input.capacity ?? null, max_power_kw: input.max_power_kw ?? null, source: input.source, source_config: sourceConfig && JSON.stringify(sourceConfig) }
      } catch (err) {
        throw refused(i, err)
      }
    })
    return write(async (tx) => {
      const meters: MeterAdmin[] = []
      // A statement takes at most 65,535 parameters (PostgreSQL frontend/backend protocol, Bind): 1,000 rows of 10 or 8 columns fit.
      for (let k = 0; k < values.length; k += 1000) {
        // A multi-row insert takes its ids in the order of its rows; sorted by id, the meters are in the order given.
        const rows = (await tx.insertInto('meters').values(values.slice(k, k + 1000)).returning(COLUMNS).execute()).sort((a, b) => a.id - b.id)
        const made = rows.map((row) => toMeter(row, undefined, clock.ms(), 'en'))
        await recordAudits(tx, made.map((meter) => ({ at: clock.now(), actor, installation_id: installationId, action: 'create', entity_type: 'meter', entity_id: meter.id, after: meter })))
        meters.push(...made)
      }
      return meters
    })
  }

  return {
    /** GET …/meters/ (admins): the installation's meters by id, archived ones only with `include_archived`. */
    async list(actor: Actor, installationId: number, q: { limit: number; offset: number; include_archived?: boolean }, lang: Lang = 'en'): Promise<PageOf<MeterAdmin>> {
      await requireAdmin(actor, installationId)
      let base = db.selectFrom('meters').where('installation_id', '=', installationId)
      if (!q.include_archived) base = base.where('archived_at', 'is', null)
      const [{ count }, rows] = await Promise.all([
        base.select((eb) => eb.fn.countAll<string>().as('count')).executeTakeFirstOrThrow(),
        base.select(COLUMNS).orderBy('id').limit(q.limit).offset(q.offset).execute(),
      ])
      const status = await statusOf(db, rows.map((r) => r.id))
      return { count: Number(count), next: null, previous: null, results: rows.map((r) => toMeter(r, status.get(r.id), clock.ms(), lang)) }
    },

    /**
     * POST …/meters/ (admins): a meter on an object of the installation. `unit` defaults to the type's
     * (m3 for water, kWh otherwise), `source` to 'ingest' (only 'simulator' meters are simulated).
     */
    async create(actor: Actor, installationId: number, input: MeterCreate): Promise<MeterAdmin> {
      return (await createMany(actor, installationId, [input]))[0]
    },

    createMany,

    /**
     * PATCH …/meters/{id}/ (admins): any field of the create body; the unit must stay the (new) type's; a
     * source changed away from 'modbus' drops its `source_config`.
     */
    async update(actor: Actor, installationId: number, meterId: number, patch: MeterPatch, lang: Lang = 'en'): Promise<MeterAdmin> {
      await requireWritable(actor, installationId)
      const before = await ownMeter(installationId, meterId)
      if (patch.object_id !== undefined) await objectIn(installationId, patch.object_id)
      const type = patch.meter_type ?? before.meter_type
      // A new type without a unit takes the type's unit; a unit given must be the type's.
      const unit = patch.unit ?? (patch.meter_type ? unitOf(type) : before.unit)
      if (unit !== unitOf(type)) throw new Invalid({ unit: [{ key: 'meterUnitWrong', params: { unit: unitOf(type) } }] })
      const sourceConfig = sourceConfigFor(patch.source ?? before.source, patch.source_config, before.source_config)
      if (patch.serial) await serialFree(installationId, patch.serial, meterId)
      const set = { ...patch, unit, source_config: sourceConfig && JSON.stringify(sourceConfig) }
      return write(async (tx) => {
        const row = await tx.updateTable('meters').set(set).where('id', '=', meterId).returning(COLUMNS).executeTakeFirstOrThrow()
        const meter = await withStatus(tx, row, 'en')
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'update', entity_type: 'meter', entity_id: meterId, before: await withStatus(tx, before, 'en'), after: meter })
        // The audit keeps the English text; the answer is in the caller's language.
        return lang === 'en' ? meter : withStatus(tx, row, lang)
      })
    },

    /**
     * DELETE …/meters/{id}/ (admins): archive the meter (its measurements stay); `purge` deletes it with
     * its measurements and rollups instead.
     */
    async remove(actor: Actor, installationId: number, meterId: number, purge: boolean): Promise<void> {
      await requireWritable(actor, installationId)
      const before = await withStatus(db, await ownMeter(installationId, meterId), 'en')
      await write(async (tx) => {
        if (purge) await tx.deleteFrom('meters').where('id', '=', meterId).execute()
        else await tx.updateTable('meters').set({ archived_at: clock.now() }).where('id', '=', meterId).execute()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: purge ? 'purge' : 'archive', entity_type: 'meter', entity_id: meterId, before })
      })
    },
  }
}
export type MeterProvisioning = ReturnType<typeof createMeterProvisioning>
