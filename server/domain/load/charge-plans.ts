import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import type { Clock } from '../../lib/clock.ts'
import { message, type Lang } from '../../lib/messages.ts'
import { AppError, Forbidden, Invalid, NotFound, type FieldMessage } from '../../lib/errors.ts'
import { mayReadRfid, mayReadStation, mayWriteRfid, mayWriteStation } from '../../../shared/rules/permissions.ts'
import { TIME_RE, WEEKDAY_FIELDS } from '../../../shared/schemas/timer.ts'
import { PLAN_FULL_KWH, PLAN_MAX_AHEAD_H, PLAN_MAX_KWH, type ChargePlan, type ChargePlanPut } from '../../../shared/schemas/charge-plan.ts'
import type { ChargePlansTable } from '../../db/schema.ts'
import type { Selectable } from 'kysely'
import { localTime } from './station-reason.ts'
import { nextAt, nextDeadline } from './plan-time.ts'
import { inTransaction } from '../../db/transaction.ts'
import { recordAudit } from '../audit/service.ts'

/** What the audit trail keeps of a plan (entity `charge_plan`, id `rfid:<id>` or `station:<id>`): what the resident set. */
function audited(row: Selectable<ChargePlansTable> | undefined): Record<string, unknown> | null {
  if (!row) return null
  return {
    energy_kwh: row.energy_kwh ?? 'full', deadline_time: row.deadline_time, deadline_at: row.deadline_at, session_id: row.session_id,
    ...Object.fromEntries(WEEKDAY_FIELDS.map((f) => [f, row[f]])),
  }
}

/** What a plan is for: the session running at a station, or every session of an RFID card. */
export type PlanTarget = { kind: 'station'; id: number } | { kind: 'rfid'; id: number }

type PlanRow = Selectable<ChargePlansTable>

/** Planned slots older than this are not shown (the controller runs every 10 s; load management may be off). */
export const PLAN_FRESH_MS = 120_000

/**
 * Charge plans (SPEC §4 charging modes; docs/decisions.md "Load management: charge plans"): a resident
 * (or an admin) sets, reads and removes what a car needs by when, for an RFID card or for the session
 * running at a station. Rights (ARCHITECTURE §4): reading needs the station or card readable (else 404);
 * changing needs it writable (a card's owner may), or, for a station, the running session being the
 * caller's own (else 403). Errors: 400 `{energy_kwh: [planEnergyRange]}`, `{deadline: [invalidTime |
 * planDeadlinePast | planDeadlineFar]}`, `{repeat_days: [required]}`; 409 `planNoSession` for a station
 * without a running session. The controller (server/control/plans.ts) fills the planned slots.
 */
export function createChargePlanService({ db, clock, installations }: { db: Db; clock: Clock; installations: InstallationService }) {
  /** The target's row in the installation (404 when unknown, archived or unreadable) and whether the actor may change plans for it. */
  async function resolve(actor: Actor, installationId: number, target: PlanTarget) {
    const access = await installations.access(actor, installationId)
    if (target.kind === 'rfid') {
      const r = await db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', installationId).where('id', '=', target.id).executeTakeFirst()
      if (!r || !mayReadRfid(access, r.id)) throw NotFound()
      return { session: await openSessionOfRfid(r.id), writable: !actor.display && mayWriteRfid(access, r.id) }
    }
    const s = await db.selectFrom('charging_stations').select(['id', 'current_session_id']).where('installation_id', '=', installationId).where('id', '=', target.id).where('archived_at', 'is', null).executeTakeFirst()
    if (!s || !mayReadStation(access, s.id)) throw NotFound()
    const session = s.current_session_id === null ? undefined
      : await db.selectFrom('charging_sessions').select(['id', 'user_id', 'rfid_id', 'energy_kwh']).where('id', '=', s.current_session_id).where('end', 'is', null).executeTakeFirst()
    // The car charging there is the caller's own (their account or a card they may change): they may plan it.
    const own = !!session && !actor.display && (session.user_id === actor.id || (session.rfid_id !== null && mayWriteRfid(access, session.rfid_id)))
    return { session, writable: !actor.display && (mayWriteStation(access, s.id) || own) }
  }

  async function openSessionOfRfid(rfidId: number) {
    return db.selectFrom('charging_sessions').select(['id', 'user_id', 'rfid_id', 'energy_kwh']).where('rfid_id', '=', rfidId).where('end', 'is', null).orderBy('id', 'desc').executeTakeFirst()
  }

  const planOf = (target: PlanTarget) => db.selectFrom('charge_plans').selectAll().where(target.kind === 'rfid' ? 'rfid_id' : 'station_id', '=', target.id).executeTakeFirst()

  async function tzOf(installationId: number): Promise<string> {
    return (await db.selectFrom('installations').select('timezone').where('id', '=', installationId).executeTakeFirst())?.timezone ?? 'Europe/Zurich'
  }

  /** The plan as the API answers it, with the controller's last slots while they are fresh and its session runs. */
  async function view(row: PlanRow, tz: string, lang: Lang): Promise<ChargePlan> {
    const now = clock.now()
    const session = row.station_id !== null
      ? row.session_id === null ? undefined : await db.selectFrom('charging_sessions').select(['id', 'energy_kwh']).where('id', '=', row.session_id).where('end', 'is', null).executeTakeFirst()
      : await openSessionOfRfid(row.rfid_id!)
    const deadline = nextDeadline(row, now, tz)
    const active = !!session && deadline !== null
    const counted = active && row.window_session_id === session.id && row.window_base_kwh !== null
    const charged = counted ? Math.max(0, session.energy_kwh - row.window_base_kwh!) : 0
    const fresh = active && row.planned_at !== null && now.getTime() - row.planned_at.getTime() <= PLAN_FRESH_MS
    const slots = fresh ? row.slots.filter((s) => Date.parse(s.end) > now.getTime()) : []
    const reachable = fresh ? row.reachable : null
    const target = row.energy_kwh ?? PLAN_FULL_KWH
    const plannedKwh = slots.reduce((sum, s) => sum + (s.kw * (Date.parse(s.end) - Math.max(now.getTime(), Date.parse(s.start)))) / 3_600_000, 0)
    const warning = reachable === false && deadline
      ? message('planUnreachable', lang, { target: round1(target), time: localTime(deadline, tz), kwh: round1(charged + plannedKwh) })
      : null
    return {
      id: row.id, station_id: row.station_id, rfid_id: row.rfid_id, energy_kwh: row.energy_kwh ?? 'full',
      deadline: row.deadline_time, repeat: row.deadline_at === null,
      ...Object.fromEntries(WEEKDAY_FIELDS.map((f) => [f, row[f]])) as Record<(typeof WEEKDAY_FIELDS)[number], boolean>,
      next_deadline: deadline ? deadline.toISOString() : null, active,
      charged_kwh: round2(charged), remaining_kwh: fresh && row.remaining_kwh !== null ? round2(row.remaining_kwh) : active ? round2(Math.max(0, target - charged)) : null,
      slots, reachable, warning, planned_at: fresh ? row.planned_at!.toISOString() : null,
    }
  }

  /** 400 with every failing field of `body`; otherwise the stored timing: "HH:mm" and a once-plan's instant. */
  function check(body: ChargePlanPut, tz: string): { deadline_time: string; deadline_at: Date | null } {
    const now = clock.now()
    const fields: Record<string, FieldMessage[]> = {}
    if (body.energy_kwh !== 'full' && !(Number.isFinite(body.energy_kwh) && body.energy_kwh > 0 && body.energy_kwh <= PLAN_MAX_KWH)) {
      fields.energy_kwh = [{ key: 'planEnergyRange', params: { max: PLAN_MAX_KWH } }]
    }
    let timing: { deadline_time: string; deadline_at: Date | null } = { deadline_time: body.deadline, deadline_at: null }
    const isTime = TIME_RE.test(body.deadline)
    if (body.repeat) {
      if (!isTime) fields.deadline = ['invalidTime']
      if (!WEEKDAY_FIELDS.some((f) => body[f])) fields.repeat_days = ['required']
    } else if (isTime) {
      timing = { deadline_time: body.deadline, deadline_at: nextAt(body.deadline, now, tz) }
    } else {
      // An ISO instant with its offset (ARCHITECTURE §3): a date alone or a bare local time is no instant.
      const ms = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)$/.test(body.deadline) ? Date.parse(body.deadline) : NaN
      if (!Number.isFinite(ms)) fields.deadline = ['invalidTime']
      else if (ms <= now.getTime()) fields.deadline = ['planDeadlinePast']
      else if (ms - now.getTime() > PLAN_MAX_AHEAD_H * 3_600_000) fields.deadline = ['planDeadlineFar']
      else timing = { deadline_time: localTime(new Date(ms), tz), deadline_at: new Date(ms) }
    }
    if (Object.keys(fields).length) throw new Invalid(fields)
    return timing
  }

  return {
    /** GET …/charge_plan: the plan, or null when none is set. */
    async get(actor: Actor, installationId: number, target: PlanTarget, lang: Lang): Promise<ChargePlan | null> {
      await resolve(actor, installationId, target)
      const row = await planOf(target)
      return row ? view(row, await tzOf(installationId), lang) : null
    },

    /**
     * PUT …/charge_plan: set (or replace) the plan. A station plan is for the session running now (409
     * `planNoSession` without one); what that session or the card's running session already charged does
     * not count towards the new plan. Audited (entity `charge_plan`).
     */
    async put(actor: Actor, installationId: number, target: PlanTarget, body: ChargePlanPut, lang: Lang): Promise<ChargePlan> {
      const { session, writable } = await resolve(actor, installationId, target)
      if (!writable) throw Forbidden()
      const tz = await tzOf(installationId)
      const timing = check(body, tz)
      if (target.kind === 'station' && !session) throw new AppError(409, 'planNoSession')
      const now = clock.now()
      const days = Object.fromEntries(WEEKDAY_FIELDS.map((f) => [f, body.repeat && body[f]])) as Record<(typeof WEEKDAY_FIELDS)[number], boolean>
      const deadline = nextDeadline({ ...timing, ...days }, now, tz)
      const values = {
        installation_id: installationId, session_id: target.kind === 'station' ? session!.id : null,
        energy_kwh: body.energy_kwh === 'full' ? null : body.energy_kwh, ...timing, ...days,
        // The window starts now: the energy charged so far does not count towards this plan.
        window_session_id: session?.id ?? null, window_deadline: session ? deadline : null, window_base_kwh: session?.energy_kwh ?? null,
        slots: '[]', reachable: null, remaining_kwh: null, planned_at: null, created_by: actor.display ? null : actor.id, updated_at: now,
      }
      const column = target.kind === 'rfid' ? 'rfid_id' : 'station_id'
      const before = await planOf(target)
      await inTransaction(db, async (tx) => {
        await tx.insertInto('charge_plans').values({ ...values, station_id: target.kind === 'station' ? target.id : null, rfid_id: target.kind === 'rfid' ? target.id : null })
          .onConflict((oc) => oc.column(column).doUpdateSet(values)).execute()
        const after = await tx.selectFrom('charge_plans').selectAll().where(column, '=', target.id).executeTakeFirst()
        await recordAudit(tx, { at: now, actor, installation_id: installationId, action: before ? 'update' : 'create', entity_type: 'charge_plan', entity_id: `${target.kind}:${target.id}`, before: audited(before), after: audited(after) })
      })
      return view((await planOf(target))!, tz, lang)
    },

    /** DELETE …/charge_plan: remove the plan (nothing to remove is fine), audited. */
    async remove(actor: Actor, installationId: number, target: PlanTarget): Promise<void> {
      const { writable } = await resolve(actor, installationId, target)
      if (!writable) throw Forbidden()
      const before = await planOf(target)
      if (!before) return
      await inTransaction(db, async (tx) => {
        await tx.deleteFrom('charge_plans').where('id', '=', before.id).execute()
        await recordAudit(tx, { at: clock.now(), actor, installation_id: installationId, action: 'delete', entity_type: 'charge_plan', entity_id: `${target.kind}:${target.id}`, before: audited(before) })
      })
    },
  }
}
export type ChargePlanService = ReturnType<typeof createChargePlanService>

const round1 = (x: number) => Math.round(x * 10) / 10
const round2 = (x: number) => Math.round(x * 100) / 100
