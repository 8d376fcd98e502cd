/**
 * Charge plans in the load controller (SPEC §4 charging modes; docs/decisions.md "Load management:
 * charge plans"): which plan applies to the session at each station, how much it still misses, the slots
 * it is planned in (server/control/plan-slots.ts) and what the allocator is told for this round: the
 * current of the planned low-tariff or grid slot now, which the allocator gives the plan's class
 * (server/control/classes.ts). Solar slots need no priority: the car's mode takes the surplus.
 */
import type { Db } from '../db/connection.ts'
import { isHighTariff, type ScheduleEntry } from '../../shared/rules/tariff.ts'
import { localParts } from '../../shared/rules/formats.ts'
import { PLAN_FULL_KWH } from '../../shared/schemas/charge-plan.ts'
import { nextDeadline } from '../domain/load/plan-time.ts'
import type { Circuit, StationDemand } from './allocate.ts'
import { kwPerAmp } from './circuits.ts'
import { gridSlotAt, planSlots, type PlanStep, type SlotPlan } from './plan-slots.ts'

/** Length of a planning step, ms (the tariff schedule's resolution). */
const STEP_MS = 15 * 60_000
/** How long the PV surplus measured now is expected to last, ms (no forecast: the next hour only). */
const SOLAR_AHEAD_MS = 3_600_000

/** A plan that applies to a running session this round. */
export interface ActivePlan {
  plan_id: number
  station_id: number
  session_id: number
  deadline: Date
  /** The session's kWh when the plan's window began. */
  base_kwh: number
  /** kWh still missing (never negative). */
  remaining_kwh: number
}

/**
 * The plan of each station's running session: the station's own plan for that session first, else the
 * plan of the session's RFID card; a once-plan past its deadline applies no more. The energy counts from
 * the window's start: a new session or a repeating plan's next deadline starts a new window at the
 * session's kWh then.
 */
export async function activePlans(db: Db, installationId: number, stations: ReadonlyArray<{ id: number; current_session_id: number | null }>, at: Date, tz: string): Promise<Map<number, ActivePlan>> {
  const out = new Map<number, ActivePlan>()
  const ids = stations.map((s) => s.current_session_id).filter((id): id is number => id !== null)
  if (ids.length === 0) return out
  const sessions = await db.selectFrom('charging_sessions').select(['id', 'station_id', 'rfid_id', 'energy_kwh']).where('id', 'in', ids).where('end', 'is', null).execute()
  const rfids = sessions.map((s) => s.rfid_id).filter((id): id is number => id !== null)
  const plans = await db.selectFrom('charge_plans').selectAll().where('installation_id', '=', installationId)
    .where((eb) => eb.or([eb('session_id', 'in', ids), ...(rfids.length ? [eb('rfid_id', 'in', rfids)] : [])])).execute()
  for (const session of sessions) {
    const plan = plans.find((p) => p.station_id === session.station_id && p.session_id === session.id) ?? plans.find((p) => p.rfid_id !== null && p.rfid_id === session.rfid_id)
    if (!plan) continue
    const deadline = nextDeadline(plan, at, tz)
    if (!deadline) continue
    const same = plan.window_session_id === session.id && plan.window_deadline?.getTime() === deadline.getTime() && plan.window_base_kwh !== null
    const base = same ? plan.window_base_kwh! : session.energy_kwh
    const target = plan.energy_kwh ?? PLAN_FULL_KWH
    out.set(session.station_id, { plan_id: plan.id, station_id: session.station_id, session_id: session.id, deadline, base_kwh: base, remaining_kwh: Math.max(0, target - Math.max(0, session.energy_kwh - base)) })
  }
  return out
}

/** Local weekday and minute of instants already asked for, by zone and ms (bounded; see {@link localPartsCached}). */
const partsCache = new Map<string, { weekday: number; minute: number }>()
const PARTS_CACHE_MAX = 20_000

/**
 * `localParts` of `ms` in `tz`, remembered: every car's plan of every round asks for the same quarter
 * hours, and a time-zone conversion costs tens of µs (docs/performance.md "Load management: a weekday").
 */
function localPartsCached(ms: number, tz: string): { weekday: number; minute: number } {
  const key = `${tz}|${ms}`
  let p = partsCache.get(key)
  if (!p) {
    if (partsCache.size >= PARTS_CACHE_MAX) partsCache.clear()
    const parts = localParts(new Date(ms), tz)
    p = { weekday: parts.weekday, minute: parts.minute }
    partsCache.set(key, p)
  }
  return p
}

/**
 * The planning steps from `at` to `deadline` on quarter hours: the low tariff where `schedule` (the
 * high-tariff spans in force; null: no low tariff, flat or unknown) says so, and `pvKw` of solar during
 * the next hour.
 */
export function planSteps(at: Date, deadline: Date, tz: string, schedule: readonly ScheduleEntry[] | null, pvKw: number): PlanStep[] {
  const steps: PlanStep[] = []
  const now = at.getTime()
  for (let start = now; start < deadline.getTime();) {
    const end = Math.min(deadline.getTime(), (Math.floor(start / STEP_MS) + 1) * STEP_MS)
    const p = localPartsCached(start, tz)
    steps.push({ start, end, solar_kw: start < now + SOLAR_AHEAD_MS ? Math.max(0, pvKw) : 0, low_tariff: schedule !== null && !isHighTariff(schedule, p.weekday, p.minute) })
    start = end
  }
  return steps
}

/**
 * The most a station may draw, kW: its maximum current, capped by every circuit on its way to the
 * connection (the connection less `buildingA`, the building's own load), at its phases.
 */
export function planMaxKw(d: StationDemand, path: readonly Circuit[], buildingA: number): number {
  let amps = d.max_a
  for (const c of path) amps = Math.min(amps, c.limit_a - (c.parent_id === null ? buildingA : 0))
  return Math.max(0, amps) * kwPerAmp(d)
}

/**
 * Plan `active` for demand `d` at `at` and tell the allocator through `d.plan` the current of the
 * low-tariff or grid slot planned now (none in a solar slot or between slots).
 */
export function planRound(d: StationDemand, active: ActivePlan, at: Date, maxKw: number, steps: PlanStep[]): SlotPlan {
  const plan = planSlots({ now: at.getTime(), deadline: active.deadline.getTime(), energy_kwh: active.remaining_kwh, max_kw: maxKw, steps })
  const slot = gridSlotAt(plan, at.getTime())
  if (slot) d.plan = { energy_kwh: (slot.kw * (slot.end - at.getTime())) / 3_600_000, deadline: new Date(slot.end).toISOString() }
  return plan
}

/** Store what the round planned for `active` (its window, slots, reachability, what is missing). */
export async function savePlan(db: Db, active: ActivePlan, plan: SlotPlan, at: Date): Promise<void> {
  const slots = plan.slots.map((s) => ({ start: new Date(s.start).toISOString(), end: new Date(s.end).toISOString(), kw: s.kw, source: s.source }))
  await db.updateTable('charge_plans').set({
    window_session_id: active.session_id, window_deadline: active.deadline, window_base_kwh: active.base_kwh,
    slots: JSON.stringify(slots), reachable: plan.reachable, remaining_kwh: active.remaining_kwh, planned_at: at,
  }).where('id', '=', active.plan_id).execute()
}
