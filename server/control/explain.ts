/**
 * The last step of a round of the load allocator (docs/decisions.md "Load management: the allocation
 * rules"): each station's reason code with its details (`until`, the binding circuit and how many share
 * it, missing PV, a plan's need), and the state the next round starts from (limits sent, turns, waits,
 * last changes, building load).
 */
import type { AllocationInput, AllocationState, StationDemand, StationLimit } from './allocate.ts'
import type { Outcome } from './classes.ts'
import { ceilTenth } from './circuits.ts'
import type { Network } from './fill.ts'

/** What the round decided, as {@link explain} needs it (indices are station indices of the round). */
export interface RoundResult {
  input: AllocationInput
  /** The stations sorted by id. */
  stations: StationDemand[]
  net: Network
  outcome: Outcome
  /** Limits computed (rounded) before hysteresis, and those sent after it, amperes. */
  proposed: number[]
  sent: number[]
  /** Stations whose charge plan got priority. */
  promoted: Set<number>
  /** Per station: the current its plan needs, or null. */
  needs: Array<number | null>
  /** Per station: whether its circuit exists. */
  onCircuit: boolean[]
  /** Ids of the circuits that are the grid connection. */
  rootIds: Set<string>
  /** No grid reading: static shares. */
  fallback: boolean
  /** Building load to remember, amperes on the most loaded phase. */
  buildingA: number
  holdMs: number
}

/** The reasons and the next state of a round (see {@link RoundResult}). */
export function explain(round: RoundResult): { limits: StationLimit[]; state: AllocationState } {
  const { input, stations, net, outcome, proposed, sent, promoted, needs, onCircuit, rootIds, fallback, buildingA } = round
  const previous = input.previous
  const charging = new Map<string, number>()
  sent.forEach((a, i) => {
    if (a <= 0) return
    let last = ''
    for (const [k] of net.of[i]) {
      // A station's limits come circuit by circuit (its phases together): count each circuit once.
      if (net.ids[k] === last || net.ids[k] === 'pv' || net.ids[k] === 'static') continue
      last = net.ids[k]
      charging.set(last, (charging.get(last) ?? 0) + 1)
    }
  })
  const state: AllocationState = { limits: {}, turn_started: {}, waiting_since: {}, changed_at: {}, building_a: buildingA }
  const limits = stations.map((s, i): StationLimit => {
    const r = outcome.reasons[i]
    const limit: StationLimit = { station_id: s.station_id, limit_a: sent[i], reason: r.reason }
    if (sent[i] !== proposed[i] && (sent[i] === 0 || proposed[i] === 0)) {
      // Hysteresis holds a start or a pause back for the hold time.
      limit.reason = 'settling'
      const changed = previous?.changed_at?.[s.station_id]
      if (changed !== undefined) limit.until = new Date(Date.parse(changed) + round.holdMs).toISOString()
    } else {
      if (fallback && r.reason !== 'no_car' && r.reason !== 'waiting_for_solar' && r.reason !== 'low_tariff_later' && r.reason !== 'solar_surplus') limit.reason = 'fallback_static'
      if (r.until_ms !== undefined) limit.until = new Date(r.until_ms).toISOString()
      if (r.limit !== undefined && net.ids[r.limit] !== 'static' && net.ids[r.limit] !== 'pv' && limit.reason !== 'fallback_static') {
        limit.circuit_id = net.ids[r.limit]
        if (limit.reason === 'circuit_limit' && rootIds.has(limit.circuit_id)) limit.reason = 'grid_limit_shared'
        if (limit.reason === 'grid_limit_shared' || limit.reason === 'circuit_limit') limit.shared_by = charging.get(limit.circuit_id) ?? 0
      }
      if (r.missing_kw !== undefined) limit.missing_kw = r.missing_kw
      if (limit.reason === 'low_tariff_later' && input.tariff?.until !== undefined) limit.until = input.tariff.until
    }
    if (promoted.has(i) && sent[i] > 0) limit.reason = 'plan_priority'
    if (s.charging && !onCircuit[i]) Object.assign(limit, { reason: 'circuit_limit', circuit_id: s.circuit_id, shared_by: 0 })
    if (needs[i] !== null && s.charging) limit.plan = { required_a: ceilTenth(needs[i]!), reachable: sent[i] + 1e-9 >= needs[i]! }

    const id = s.station_id
    state.limits[id] = sent[i]
    const before = previous?.limits[id]
    state.changed_at[id] = before === sent[i] && previous?.changed_at?.[id] !== undefined ? previous.changed_at[id] : input.now
    if (sent[i] > 0) state.turn_started[id] = (before ?? 0) > 0 ? (previous?.turn_started[id] ?? input.now) : input.now
    else if (s.charging) state.waiting_since[id] = previous?.waiting_since?.[id] ?? input.now
    return limit
  })
  return { limits, state }
}
