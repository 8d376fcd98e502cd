/**
 * Priority classes of the load allocator (docs/decisions.md "Load management: the allocation rules"):
 * class by class (0 instant, 1 the needed part of a charge plan, 2 optimized, 3 solar), the charging
 * stations are admitted to their minimum current in turn order where it fits, then filled with equal
 * shares up to their ceiling; what a class leaves goes to the next. Records why each station stopped.
 */
import type { AllocationState, ReasonCode, StationDemand } from './allocate.ts'
import { type Network, EPS, blocking, fill, fresh, take } from './fill.ts'
import { type Queued, admissionOrder, expectedStarts } from './turns.ts'

/** A station's place in one priority class. */
export interface ClassMember {
  /** Station index in the round. */
  index: number
  station_id: number
  /** Amperes it must get to be admitted in this class. */
  min_a: number
  /** Amperes it may be filled up to in this class. */
  max_a: number
  /** 0 instant, 1 charge plan's need, 2 optimized, 3 solar. */
  cls: number
}

/** What the classes share: the limits, the PV limit's index, and what turn-taking needs. */
export interface ClassContext {
  net: Network
  /** Index of the PV surplus limit in `net` (not checked for the charge plans' class). */
  pv: number
  stations: StationDemand[]
  previous: AllocationState | undefined
  nowMs: number
  turnMs: number
}

/** Why one station ended where it did (before rounding, hysteresis and fallback wording). */
export interface RawReason {
  reason: ReasonCode
  /** The limit (index into `net`) that stopped or blocked it. */
  limit?: number
  /** When a waiting station's turn is expected, ms since the epoch. */
  until_ms?: number
  /** kW of PV surplus missing to start. */
  missing_kw?: number
}

/** Currents (amperes per station index, unrounded) and reasons of one run. */
export interface Outcome {
  current: number[]
  reasons: RawReason[]
}

/** The plan class checks circuits only: a plan's needed share may come from the grid. */
const PLAN_CLASS = 1

/**
 * Run every class of `members` (a station may be a member of two classes: its plan's need, then its mode)
 * on a fresh copy of `ctx.net`. Stations that are no member get 0 A and `no_car`.
 */
export function runClasses(ctx: ClassContext, members: ClassMember[]): Outcome {
  const net = fresh(ctx.net)
  const n = ctx.stations.length
  const current = new Array<number>(n).fill(0)
  const ceiling = new Array<number>(n).fill(0)
  const reasons: RawReason[] = Array.from({ length: n }, () => ({ reason: 'no_car' }))
  const classes = [...new Set(members.map((m) => m.cls))].sort((a, b) => a - b)
  let higherAdmitted = false
  for (const cls of classes) {
    const group = members.filter((m) => m.cls === cls)
    const byIndex = new Map(group.map((m) => [m.index, m]))
    const ignore = cls === PLAN_CLASS ? ctx.pv : -1
    const usedByClass = new Set<number>()
    const reserved = new Set<number>()
    const admitted: number[] = []
    const charging: Queued[] = []
    const waitingForTurn: Queued[] = []
    for (const q of admissionOrder(group, ctx.previous, ctx.nowMs, ctx.turnMs)) {
      const i = q.index
      const m = byIndex.get(i)!
      ceiling[i] = Math.max(current[i], m.max_a)
      if (current[i] > 0) {
        admitted.push(i)
        continue
      }
      let blocked = blocking(net, i, m.min_a, ignore)
      if (blocked === -1 && q.standing !== 'in_turn') blocked = net.of[i].find(([k]) => reserved.has(k))?.[0] ?? -1
      if (blocked === -1) {
        take(net, i, m.min_a)
        current[i] = m.min_a
        admitted.push(i)
        charging.push(q.standing === 'waiting' ? { ...q, since: ctx.nowMs } : q)
        for (const [k] of net.of[i]) usedByClass.add(k)
        continue
      }
      reasons[i] = blockedReason(ctx, net, i, m, blocked, usedByClass.has(blocked) || reserved.has(blocked), higherAdmitted)
      if (reasons[i].reason === 'waiting_for_turn') {
        waitingForTurn.push(q)
        // Every limit it lacks room on is kept for it, not only the first found: a single-phase car on
        // another phase must not take the room that frees up on one phase while a car that needs all
        // three waits (it would wait for ever; docs/decisions.md "Load management: the allocation rules").
        if (q.standing === 'waiting') {
          for (const [k, coef] of net.of[i]) if (k !== ignore && coef * m.min_a > net.remaining[k] + EPS) reserved.add(k)
        }
      }
    }
    const stopped = fill(net, admitted, current, ceiling, ignore)
    for (const i of admitted) {
      const k = stopped.get(i) ?? -1
      const id = k === -1 ? '' : net.ids[k]
      reasons[i] = k === -1 ? { reason: 'ok' } : id === 'pv' ? { reason: 'solar_surplus', limit: k } : id === 'static' ? { reason: 'fallback_static', limit: k } : { reason: 'circuit_limit', limit: k }
    }
    for (const [i, at] of expectedStarts(waitingForTurn, charging, ctx.nowMs, ctx.turnMs)) reasons[i].until_ms = at
    if (admitted.length > 0) higherAdmitted = true
  }
  return { current, reasons }
}

/** Why station `i` could not get its minimum on limit `k`. */
function blockedReason(ctx: ClassContext, net: Network, i: number, m: ClassMember, k: number, sharedInClass: boolean, higherAdmitted: boolean): RawReason {
  const id = net.ids[k]
  if (id === 'pv') {
    const coef = net.of[i].find(([j]) => j === k)![1]
    const missing = Math.ceil((coef * m.min_a - Math.max(0, net.remaining[k])) * 10 - 1e-6) / 10
    return { reason: ctx.stations[i].mode === 'solar' ? 'waiting_for_solar' : 'low_tariff_later', limit: k, missing_kw: Math.max(0.1, missing) }
  }
  if (id === 'static') return { reason: 'fallback_static', limit: k }
  if (sharedInClass) return { reason: 'waiting_for_turn', limit: k }
  // Nobody of this class holds it: either higher classes use it, or it is too small even for this car.
  if (higherAdmitted && m.min_a <= net.capacity[k] + EPS) return { reason: 'higher_priority', limit: k }
  return { reason: 'circuit_limit', limit: k }
}
