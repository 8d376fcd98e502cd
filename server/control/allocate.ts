/**
 * The load allocator (SPEC §4 charging modes; docs/decisions.md "Load management: the allocation rules"):
 * a pure function from what the controller measured and knows (circuits, stations, grid meter, PV surplus,
 * tariff, the previous round's state) to a current limit per station and the reason for it. No clock and
 * no I/O: the controller passes `now` from the one clock (ARCHITECTURE §1 "Time") and applies the limits.
 *
 * Units: currents in amperes per phase, powers in kW at 230 V per phase (a 3-phase station at 16 A draws
 * 3 × 230 V × 16 A = 11.04 kW).
 */
import { addLimit, fresh, take } from './fill.ts'
import { VOLTS, ceilTenth, circuitNetwork, floorTenth, kwPerAmp, planNeed, staticShares } from './circuits.ts'
import { hold } from './hysteresis.ts'
import { runClasses, type ClassMember, type Outcome } from './classes.ts'
import { explain } from './explain.ts'

export { VOLTS, circuitNetwork, kwPerAmp, planNeed, staticShares }

/** One phase-aware limit in amperes per phase; the root (parent_id null) is the grid connection. */
export interface Circuit {
  id: string
  /** The circuit it hangs on; null for the grid connection. */
  parent_id: string | null
  /** The circuit's limit in amperes on each of its three phases. */
  limit_a: number
}

/** SPEC §4 charging modes the allocator distinguishes, in priority order (instant first). */
export type AllocationMode = 'instant' | 'optimized' | 'solar'

/** What one station wants this round. */
export interface StationDemand {
  station_id: number
  /** The circuit the station hangs on (an id of `AllocationInput.circuits`). */
  circuit_id: string
  /** 1 = single-phase, 3 = three-phase. */
  phases: 1 | 3
  /**
   * The line a single-phase station is wired to (1, 2 or 3). Unknown: its current is counted on all three
   * phases, which is safe but reserves more than it uses. Ignored for 3-phase stations.
   */
  phase?: 1 | 2 | 3
  /** The lowest current a car charges at (IEC 61851-1: 6 A), amperes per phase. */
  min_a: number
  /** The station's (and its cable's) highest current, amperes per phase. */
  max_a: number
  mode: AllocationMode
  /** A car is connected and wants energy. */
  charging: boolean
  /** A charge plan (SPEC §4): `energy_kwh` still to charge by `deadline` (ISO instant). */
  plan?: { energy_kwh: number; deadline: string }
}

/** Tunables of the allocator; every field has a default. */
export interface AllocationOptions {
  /** Length of a turn when cars take turns, seconds (default 900 = 15 min). */
  turn_s?: number
  /** A limit change smaller than this is not sent, amperes (default 1). */
  threshold_a?: number
  /** A limit is kept at least this long after it changed, seconds (default 30). */
  hold_s?: number
  /** A rise under `threshold_a` is sent once the limit has stood this long, seconds (default 150). */
  small_rise_s?: number
  /**
   * The building's own load is held at its highest recent reading for `hold_s`, then falls by at most
   * this much per round, amperes per phase (default 0.5): a load that jumps between two readings then
   * finds the headroom it took the last time instead of pushing the connection over its limit round after
   * round, and a meter's jitter keeps the hold at the top of its range (docs/decisions.md "Load
   * management: the weekday bench").
   */
  building_decay_a?: number
}

/** A class 1 meter's accuracy (IEC 62053-21: ±1 %): the most headroom kept for a meter's jitter, as a share of the connection. */
const METER_ACCURACY = 0.01
/** How fast the jitter headroom falls when readings stop rising above the held load, amperes per round. */
const HEADROOM_DECAY_A = 0.01

/** The defaults of {@link AllocationOptions}. */
export const DEFAULT_OPTIONS: Required<AllocationOptions> = { turn_s: 900, threshold_a: 1, hold_s: 30, small_rise_s: 150, building_decay_a: 0.5 }

/** Everything one round decides from; see {@link allocate}. */
export interface AllocationInput {
  /** ISO instant of this round, from the one clock. */
  now: string
  circuits: Circuit[]
  stations: StationDemand[]
  /** kW imported at the grid meter, the stations included (negative = export); null = no reading. */
  grid_import_kw: number | null
  /**
   * Currents measured at the grid meter on L1, L2, L3, the stations included, amperes (optional). When
   * given they replace `grid_import_kw` for the building's load, phase by phase.
   */
  grid_phase_a?: readonly [number, number, number] | null
  /** kW each station draws now (by station id; missing = 0). */
  stations_power_kw: Record<number, number>
  /**
   * kW exported to the grid now that PV-limited stations may use on top of what they already draw (the
   * allocator adds their draw from `stations_power_kw`, so a solar car does not eat its own surplus).
   * Negative while importing: a PV-limited car that draws from the grid (one a charge plan or the low
   * tariff started) then finds no surplus in its own draw and stops.
   */
  pv_surplus_kw: number
  /**
   * The tariff now, if known. When `low` is false, 'optimized' stations charge from PV surplus only and
   * otherwise wait until `until` (the low tariff's next start, ISO). Unknown: optimized charges from the grid.
   */
  tariff?: { low: boolean; until?: string }
  /** The state the previous round returned (hysteresis, turn-taking, last building load). */
  previous?: AllocationState
  options?: AllocationOptions
}

/**
 * Why a station got its limit (the controller turns each into a sentence in four languages):
 * - `ok`: it gets what it asks for (its maximum);
 * - `no_car`: no car connected, or the car wants no energy (0 A);
 * - `grid_limit_shared`: the grid connection's limit is shared (by `shared_by` charging stations);
 * - `circuit_limit`: the limit of circuit `circuit_id` (a sub-distribution) caps it;
 * - `waiting_for_solar`: solar mode, `missing_kw` more PV surplus needed to start (0 A);
 * - `solar_surplus`: solar mode (or optimized outside the low tariff), charging with the surplus there is;
 * - `waiting_for_turn`: the minimum current cannot be met for all; its turn is expected at `until` (0 A);
 * - `higher_priority`: stations of a higher priority (instant, a charge plan) use the capacity (0 A);
 * - `low_tariff_later`: optimized mode, waiting for the low tariff at `until` (0 A);
 * - `plan_priority`: its charge plan would miss the deadline at its share, so it goes first;
 * - `settling`: the limit is held a moment to avoid flapping, it changes at `until`;
 * - `fallback_static`: no grid reading: the station keeps to its static share of the connection.
 */
export type ReasonCode =
  | 'ok'
  | 'no_car'
  | 'grid_limit_shared'
  | 'circuit_limit'
  | 'waiting_for_solar'
  | 'solar_surplus'
  | 'waiting_for_turn'
  | 'higher_priority'
  | 'low_tariff_later'
  | 'plan_priority'
  | 'settling'
  | 'fallback_static'

/** One station's limit for this round. */
export interface StationLimit {
  station_id: number
  /** Amperes per phase, rounded down to 0.1 A; 0 = paused. */
  limit_a: number
  reason: ReasonCode
  /** ISO instant when the reason is expected to change (a turn's start, the low tariff, a hold's end). */
  until?: string
  /** The circuit whose limit binds (`circuit_limit`, `grid_limit_shared`, and their `waiting_for_turn`). */
  circuit_id?: string
  /** How many stations charge on the binding circuit (`grid_limit_shared`, `circuit_limit`). */
  shared_by?: number
  /** kW of PV surplus still missing to start (`waiting_for_solar`, `low_tariff_later`). */
  missing_kw?: number
  /** A charge plan's need: the current that makes the deadline, and whether this limit reaches it. */
  plan?: { required_a: number; reachable: boolean }
}

/** What a round hands to the next: pass it back as `previous` (JSON-serialisable). */
export interface AllocationState {
  /** The limit sent per station, amperes. */
  limits: Record<number, number>
  /** When each charging station's current turn (uninterrupted non-zero limit) started, ISO. */
  turn_started: Record<number, string>
  /** Since when each station with a car waits at 0 A, ISO. */
  waiting_since: Record<number, string>
  /** When each station's limit last changed, ISO. */
  changed_at: Record<number, string>
  /** The building's own load at the last grid reading, amperes on its most loaded phase (for the fallback). */
  building_a: number
  /** The building's load as held on L1–L3 (see `AllocationOptions.building_decay_a`), amperes; absent before the first reading. */
  building_held_a?: [number, number, number]
  /** When a reading last reached the held load on any phase, ISO (the hold's start); absent before the first reading. */
  building_held_at?: string
  /** The headroom kept below the connection for the meter's jitter, amperes (absent = none). */
  building_headroom_a?: number
}

/**
 * Compute every station's current limit for one round.
 *
 * The rules (docs/decisions.md "Load management: the allocation rules"):
 * 1. Available at the connection = its limit − the building's own load (grid import − the stations'
 *    draw, spread over three phases; held at its recent highest for `hold_s`, then falling by
 *    `building_decay_a` per round); without a grid reading each station keeps to its
 *    {@link staticShares static share} (computed with the last measured building load).
 * 2. Priority classes: instant, then the part of a charge plan that would otherwise miss its deadline,
 *    then optimized, then solar. Solar stations (and optimized ones outside the low tariff) only use PV
 *    surplus.
 * 3. Within a class every charging station first gets its minimum current where it fits every circuit on
 *    its way to the connection, in turn order (see server/control/turns.ts): when not all fit, cars take
 *    turns of `turn_s`; then equal shares above the minimum up to each station's maximum.
 * 4. Hysteresis: a change under `threshold_a` (a rise: until the limit has stood `small_rise_s`) or
 *    within `hold_s` of the last change is not made, where keeping the old value still fits every limit.
 * Stations on an unknown circuit, or with a maximum below their minimum, get 0 A.
 * @returns one {@link StationLimit} per station (sorted by station id) and the state for the next round.
 */
export function allocate(input: AllocationInput): { limits: StationLimit[]; state: AllocationState } {
  const options = { ...DEFAULT_OPTIONS, ...input.options }
  const nowMs = Date.parse(input.now)
  const stations = [...input.stations].sort((a, b) => a.station_id - b.station_id)
  const previous = input.previous
  const phaseReading = input.grid_phase_a?.length === 3 && input.grid_phase_a.every(Number.isFinite) ? input.grid_phase_a : null
  const fallback = phaseReading === null && (input.grid_import_kw === null || !Number.isFinite(input.grid_import_kw))
  // The building's load: measured now, but not below the load held from earlier rounds less the decay.
  const held = previous?.building_held_a
  // Within hold_s of the last reading that reached the held load it stays; after that it decays.
  const heldSince = previous?.building_held_at ? Date.parse(previous.building_held_at) : Number.NaN
  const decay = nowMs - heldSince < options.hold_s * 1000 ? 0 : options.building_decay_a
  const measured = fallback ? null : buildingLoad(input, stations, phaseReading)
  const buildingPhaseA = measured === null
    ? [0, 1, 2].map(() => Math.max(0, previous?.building_a ?? 0))
    : measured.map((a, p) => Math.max(a, held ? held[p] - decay : 0))
  const reached = measured !== null && (!held || measured.some((a, p) => a >= held[p]))
  const buildingA = Math.max(...buildingPhaseA)
  const rootIds = new Set(input.circuits.filter((c) => c.parent_id === null || !input.circuits.some((p) => p.id === c.parent_id)).map((c) => c.id))
  // Headroom for the meter's jitter: as much as readings lately rose above the held load, falling by
  // HEADROOM_DECAY_A a round, at most a class 1 meter's accuracy of the connection (IEC 62053-21: 1 %).
  // A steady building keeps none; one that creeps up keeps what it crept (docs/decisions.md "Load
  // management: the weekday bench").
  const rootLimitA = Math.min(...input.circuits.filter((c) => rootIds.has(c.id)).map((c) => c.limit_a))
  const excess = measured !== null && held ? Math.max(0, ...measured.map((a, p) => a - held[p])) : 0
  const headroom = Number.isFinite(rootLimitA) ? Math.min(rootLimitA * METER_ACCURACY, Math.max(excess, (previous?.building_headroom_a ?? 0) - HEADROOM_DECAY_A)) : 0

  const net = circuitNetwork(input.circuits, stations, buildingPhaseA.map((a) => a + headroom))
  if (fallback) {
    staticShares(input.circuits, stations, buildingA).forEach((share, i) => {
      net.of[i].push([addLimit(net, 'static', share), 1])
    })
  }
  // The PV surplus, for solar stations and optimized ones outside the low tariff.
  const pvLimited = stations.map((s) => s.mode === 'solar' || (s.mode === 'optimized' && input.tariff?.low === false))
  let pvDraw = 0
  stations.forEach((s, i) => {
    if (pvLimited[i]) pvDraw += Math.max(0, input.stations_power_kw[s.station_id] ?? 0)
  })
  const pv = addLimit(net, 'pv', Math.max(0, input.pv_surplus_kw + pvDraw))
  stations.forEach((s, i) => {
    if (pvLimited[i]) net.of[i].push([pv, kwPerAmp(s)])
  })

  // A station on an unknown circuit cannot be checked against any limit: it gets 0 A (circuit_limit).
  const onCircuit = stations.map((s) => input.circuits.some((c) => c.id === s.circuit_id))
  const members: ClassMember[] = []
  stations.forEach((s, i) => {
    if (s.charging && s.max_a >= s.min_a && s.max_a > 0 && s.min_a >= 0 && onCircuit[i]) {
      members.push({ index: i, station_id: s.station_id, min_a: s.min_a, max_a: s.max_a, cls: s.mode === 'instant' ? 0 : s.mode === 'optimized' ? 2 : 3 })
    }
  })
  const wanting = new Set(members.map((m) => m.index))
  const context = { net, pv, stations, previous, nowMs, turnMs: options.turn_s * 1000 }
  let outcome: Outcome = runClasses(context, members)

  // Charge plans: a plan that misses its deadline at this share gets its needed current in class 1.
  const needs = stations.map((s) => planNeed(s, nowMs))
  const promoted = new Set<number>()
  for (const m of members) {
    const need = needs[m.index]
    if (need !== null && m.cls > 0 && outcome.current[m.index] + 1e-9 < need) promoted.add(m.index)
  }
  if (promoted.size > 0) {
    const withPlans = [...members]
    for (const i of promoted) {
      const s = stations[i]
      withPlans.push({ index: i, station_id: s.station_id, min_a: s.min_a, max_a: Math.min(s.max_a, Math.max(s.min_a, ceilTenth(needs[i]!))), cls: 1 })
    }
    outcome = runClasses(context, withPlans)
  }

  // Round, then hysteresis on what is left of every limit.
  const proposed = stations.map((s, i) => (outcome.current[i] > 0 ? Math.max(s.min_a, floorTenth(outcome.current[i])) : 0))
  const left = fresh(net)
  proposed.forEach((a, i) => take(left, i, a))
  const sent = hold(
    stations.map((s, i) => {
      const before = previous?.limits[s.station_id]
      return {
        limit_a: proposed[i],
        previous_a: before,
        changed_ms: previous?.changed_at?.[s.station_id] !== undefined ? Date.parse(previous.changed_at[s.station_id]) : undefined,
        // A 0 A limit is only held for a car that was already waiting (a car just arrived starts at once).
        previous_valid: before !== undefined && (before === 0 ? previous?.waiting_since?.[s.station_id] !== undefined : before >= s.min_a && before <= s.max_a),
        eligible: wanting.has(i),
        ignore: promoted.has(i) ? pv : -1,
      }
    }),
    left,
    { threshold_a: options.threshold_a, hold_ms: options.hold_s * 1000, small_rise_ms: options.small_rise_s * 1000 },
    nowMs,
  )

  const result = explain({ input, stations, net, outcome, proposed, sent, promoted, needs, onCircuit, rootIds, fallback, buildingA, holdMs: options.hold_s * 1000 })
  if (!fallback) result.state.building_held_a = [buildingPhaseA[0], buildingPhaseA[1], buildingPhaseA[2]]
  else if (held) result.state.building_held_a = held
  const heldAt = reached ? input.now : previous?.building_held_at
  if (heldAt) result.state.building_held_at = heldAt
  if (headroom > 0) result.state.building_headroom_a = headroom
  return result
}

/**
 * The building's own load at the connection, amperes on L1–L3 (never negative): the grid meter's reading
 * less what the stations draw. From per-phase currents when the meter gives them (a single-phase station
 * of unknown line is then not subtracted anywhere, which overstates the load: safe), else from
 * `grid_import_kw` spread evenly over the three phases.
 */
function buildingLoad(input: AllocationInput, stations: StationDemand[], phaseA: readonly number[] | null): number[] {
  if (phaseA !== null) {
    const load = [...phaseA]
    for (const s of stations) {
      const kw = Math.max(0, input.stations_power_kw[s.station_id] ?? 0)
      if (kw === 0) continue
      const amps = (kw * 1000) / (s.phases * VOLTS)
      if (s.phases === 3) for (let p = 0; p < 3; p++) load[p] -= amps
      else if (s.phase !== undefined) load[s.phase - 1] -= amps
    }
    return load.map((a) => Math.max(0, a))
  }
  let stationsKw = 0
  for (const s of stations) stationsKw += Math.max(0, input.stations_power_kw[s.station_id] ?? 0)
  const perPhase = (Math.max(0, input.grid_import_kw! - stationsKw) * 1000) / (3 * VOLTS)
  return [perPhase, perPhase, perPhase]
}
