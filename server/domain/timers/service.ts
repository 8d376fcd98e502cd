import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Forbidden, Invalid, NotFound } from '../../lib/errors.ts'
import type { MessageKey } from '../../lib/messages.ts'
import { isAdmin, mayReadRfid, mayReadStation, type Access } from '../../../shared/rules/permissions.ts'
import { hasRepeatDay, TIME_RE, timersClash, WEEKDAY_FIELDS, type Timer, type TimerCreate, type TimerPatch } from '../../../shared/schemas/timer.ts'
import type { PageOf } from '../../../shared/schemas/common.ts'
import type { DeviceLink, SentChange } from '../devices/link.ts'
import type { Clock } from '../../lib/clock.ts'

type TimerRow = Omit<Timer, 'charging_mode'> & { charging_mode: string }

/**
 * Timers of stations and RFIDs (SPEC §3, §7 …/installations/{id}/timers). Everyone reads the timers of
 * the objects they may read; admins create, edit and delete them (SPEC §6: admins manage timers).
 * A station in `timer` mode follows them in the simulator (server/devices/simulator/physics.ts
 * `timerMode`: the latest start time passed on an enabled weekday wins). Errors: 404 unknown or
 * unreadable, 403 not an admin, 400 `{start_time: [invalidTime]}`, `{object_id: [invalidValue]}`,
 * `{repeat_days: [required]}` (no weekday chosen, SPEC §5 "The field is required.") or
 * `{start_time: [timerClash]}` (another timer of the object starts at the same minute on a shared day with
 * another mode; docs/decisions.md "Timers: no day and contradictory timers are refused").
 */
export function createTimerService({ db, clock, installations, link, stationTimersChanged }: {
  db: Db
  /** The process clock (ARCHITECTURE §1 "Time"): when a change made offline was made. */
  clock: Clock
  installations: InstallationService
  link?: DeviceLink
  /** Stations whose timers changed (an OCPP charge point in timer mode gets its profile again). */
  stationTimersChanged?: (stationIds: number[]) => Promise<void>
}) {
  const touched = async (...ts: { object_type: string; object_id: number }[]) => {
    const ids = ts.filter((t) => t.object_type === 'charging_station').map((t) => t.object_id)
    if (ids.length) await stationTimersChanged?.(ids)
  }
  const readableBy = (access: Access, t: { object_type: string; object_id: number }) =>
    t.object_type === 'rfid' ? mayReadRfid(access, t.object_id) : mayReadStation(access, t.object_id)

  async function row(installationId: number, timerId: number): Promise<TimerRow | undefined> {
    return db.selectFrom('timers').selectAll().where('installation_id', '=', installationId).where('id', '=', timerId).executeTakeFirst()
  }

  /**
   * 400 with every failing field of timer `t` as it would be stored (an edit merged with the stored
   * timer `id`): start time, object of the installation, at least one weekday, no clash with another
   * timer of the same object (timersClash).
   */
  async function validate(installationId: number, t: Omit<TimerCreate, 'description'>, id?: number): Promise<void> {
    const fields: Record<string, MessageKey[]> = {}
    const timeOk = TIME_RE.test(t.start_time)
    if (!timeOk) fields.start_time = ['invalidTime']
    const table = t.object_type === 'rfid' ? 'rfids' : 'charging_stations'
    const found = await db.selectFrom(table).select('id').where('installation_id', '=', installationId).where('id', '=', t.object_id).executeTakeFirst()
    if (!found) fields.object_id = ['invalidValue']
    if (!hasRepeatDay(t)) fields.repeat_days = ['required']
    else if (timeOk && found) {
      let others = db.selectFrom('timers').select(['start_time', 'charging_mode', ...WEEKDAY_FIELDS])
        .where('installation_id', '=', installationId).where('object_type', '=', t.object_type).where('object_id', '=', t.object_id).where('start_time', '=', t.start_time)
      if (id !== undefined) others = others.where('id', '!=', id)
      if ((await others.execute()).some((o) => timersClash(t, o))) fields.start_time = ['timerClash']
    }
    if (Object.keys(fields).length) throw new Invalid(fields)
  }

  /**
   * A station's timers are the portal's record, which the devices take over (the simulator
   * reads them at every step; a gateway would push them). A timer change made while the installation
   * is offline is stored at once and noted as waiting to be sent; on reconnect it is sent and journaled.
   */
  async function noteOffline(actor: Actor, installationId: number, t: { id: number; object_type: string; object_id: number; start_time: string }, op: 'create' | 'update' | 'delete'): Promise<void> {
    if (!link || t.object_type !== 'charging_station' || !(await link.offline(installationId))) return
    await link.defer({ installationId, targetType: 'timer', targetId: t.id, field: op, value: { station_id: t.object_id, start_time: t.start_time }, userId: actor.id, at: clock.now(), supersedeAll: op === 'delete' })
  }

  async function withPending(installationId: number, timers: Timer[]): Promise<Timer[]> {
    if (!link) return timers
    const waiting = new Set((await link.pending(installationId, 'timer')).map((c) => c.target_id))
    return timers.map((t) => ({ ...t, pending: waiting.has(t.id) }))
  }

  async function requireAdmin(actor: Actor, installationId: number): Promise<void> {
    if (!isAdmin(await installations.requireRole(actor, installationId))) throw Forbidden()
  }

  const service = {
    /** GET …/timers?object_id&object_type: readable timers, by start time. */
    async list(actor: Actor, installationId: number, q: { object_id?: number; object_type?: 'charging_station' | 'rfid' }): Promise<PageOf<Timer>> {
      const access = await installations.access(actor, installationId)
      let query = db.selectFrom('timers').selectAll().where('installation_id', '=', installationId)
      if (q.object_type) query = query.where('object_type', '=', q.object_type)
      if (q.object_id) query = query.where('object_id', '=', q.object_id)
      const rows = (await query.orderBy('start_time').orderBy('id').execute()).filter((t) => readableBy(access, t)) as Timer[]
      return { count: rows.length, next: null, previous: null, results: await withPending(installationId, rows) }
    },

    /** GET …/timers/{id}: 404 when unknown here or its object is not readable. */
    async get(actor: Actor, installationId: number, timerId: number): Promise<Timer> {
      const access = await installations.access(actor, installationId)
      const t = await row(installationId, timerId)
      if (!t || !readableBy(access, t)) throw NotFound()
      return (await withPending(installationId, [t as Timer]))[0]
    },

    /** POST …/timers (admins). */
    async create(actor: Actor, installationId: number, input: TimerCreate): Promise<Timer> {
      await requireAdmin(actor, installationId)
      await validate(installationId, input)
      const created = await db.insertInto('timers').values({ ...input, installation_id: installationId }).returning('id').executeTakeFirstOrThrow()
      await noteOffline(actor, installationId, { ...input, id: created.id }, 'create')
      await touched(input)
      return service.get(actor, installationId, created.id)
    },

    /** PUT/PATCH …/timers/{id} (admins). */
    async update(actor: Actor, installationId: number, timerId: number, patch: TimerPatch): Promise<Timer> {
      const current = await service.get(actor, installationId, timerId)
      await requireAdmin(actor, installationId)
      await validate(installationId, { ...current, ...patch }, timerId)
      if (Object.keys(patch).length) {
        await db.updateTable('timers').set(patch).where('id', '=', timerId).execute()
        await noteOffline(actor, installationId, { ...current, ...patch }, 'update')
        // A timer moved to another station changes both stations' schedules.
        await touched(current, { ...current, ...patch })
      }
      return service.get(actor, installationId, timerId)
    },

    /** DELETE …/timers/{id} (admins): removed for good. */
    async remove(actor: Actor, installationId: number, timerId: number): Promise<void> {
      const current = await service.get(actor, installationId, timerId)
      await requireAdmin(actor, installationId)
      await db.deleteFrom('timers').where('id', '=', timerId).execute()
      await noteOffline(actor, installationId, current, 'delete')
      await touched(current)
    },
  }
  link?.handle('timer', {
    // Nothing to push: the devices read the stored timers once connected (see noteOffline).
    apply: async () => {},
    journal: async (installationId: number, change: SentChange, at: Date) => {
      const { station_id: stationId, start_time: time } = change.value as { station_id: number; start_time: string }
      const s = await db.selectFrom('charging_stations').select('charging_mode').where('id', '=', stationId).where('installation_id', '=', installationId).executeTakeFirst()
      if (!s) return
      const detail = `${change.outcome === 'applied' ? 'offline_applied' : `offline_failed`}:timer_${change.field}:${time}`
      await db.insertInto('journal_events').values({ installation_id: installationId, station_id: stationId, rfid_id: null, kind: 'journal_entry', charging_mode: s.charging_mode, at, detail }).execute()
    },
  })
  return service
}
export type TimerService = ReturnType<typeof createTimerService>
