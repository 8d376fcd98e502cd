/**
 * The load allocator (SPEC §4 charging modes, docs/decisions.md "Load management: the allocation rules"):
 * a pure function from what the controller measured and knows (circuits, stations, grid meter, PV surplus,
 * the previous round's state) to a current limit per station and the reason for it. No clock, no I/O: the
 * controller passes `now` from the one clock (ARCHITECTURE §1 "Time") and applies the limits.
 *
 * Units: currents in amperes per phase, powers in kW at 230 V per phase (a 3-phase station at 16 A draws
 * 3 × 230 V × 16 A = 11.04 kW).
 */
import { type Constraint, EPS, fill, fits, take } from './fill.ts'

/** Volts per phase (line to neutral) used to turn amperes into kW. */
export const VOLTS = 230

/** One phase-aware limit in amperes per phase; the root (parent_id null) is the grid connection. */
export interface Circuit {
  id: string
  parent_id: string | null
  /** The circuit's limit in amperes on each of its three phases. */
  limit_a: number
}

/** SPEC §4 charging modes the allocator distinguishes, in priority order (instant first). */
export type AllocationMode = 'instant' | 'optimized' | 'solar'

/** What one station wants this round. */
export interface StationDemand {
  station_id: number
  /** The circuit the station hangs on (a key of `AllocationInput.circuits`). */
  circuit_id: string
  /** 1 = single-phase, 3 = three-phase. */
  phases: 1 | 3
  /**
   * The line a single-phase station is wired to (1, 2 or 3). Unknown: its current is counted on all three
   * phases, which is safe but reserves more than it uses. Ignored for 3-phase stations.
   */
  phase?: 1 | 2 | 3
  /** The lowest current a car charges at (IEC 61851-1: 6 A), amperes. */
  min_a: number
  /** The station's (and cable's) highest current, amperes. */
  max_a: number
  mode: AllocationMode
  /** A car is connected and wants energy. */
  charging: boolean
  /** A charge plan: `energy_kwh` still to charge by `deadline` (ISO instant). */
  plan?: { energy_kwh: number; deadline: string }
}

/** Everything one round decides from; see {@link allocate}. */
export interface AllocationInput {
  /** ISO instant of this round, from the one clock. */
  now: string
  circuits: Circuit[]
  stations: StationDemand[]
  /** kW imported at the grid meter, the stations included (negative = export); null = no reading. */
  grid_import_kw: number | null
  /** kW each station draws now (by station id; missing = 0). */
  stations_power_kw: Record<number, number>
  /** kW exported to the grid now that 'solar' stations may use (besides what they already draw). */
  pv_surplus_kw: number
  /** The state the previous round returned (hysteresis, turn-taking). */
  previous?: AllocationState
}

/**
 * Why a station got its limit (h-loadctl turns each into a sentence in four languages):
 * - `ok`: it gets what it asks for (its maximum);
 * - `no_car`: no car connected or the car wants no energy (0 A);
 * - `grid_limit_shared`: the grid connection is shared (`shared_by` stations);
 * - `circuit_limit`: a sub-distribution's limit (`circuit_id`) caps it;
 * - `waiting_for_solar`: solar mode, not enough PV surplus (`missing_kw` more needed);
 * - `solar_surplus`: solar mode, charging with the PV surplus there is;
 * - `waiting_for_turn`: the minimum current cannot be met for all, its turn starts at `until`;
 * - `higher_priority`: stations of a higher priority use the capacity (0 A);
 * - `low_tariff_later`: optimized mode waits for the low tariff (`until`);
 * - `plan_priority`: a charge plan's deadline gives it priority;
 * - `fallback_static`: no grid reading, the station gets its static share of the connection.
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
  | 'fallback_static'

/** One station's limit for this round. */
export interface StationLimit {
  station_id: number
  /** Amperes per phase; 0 = paused. */
  limit_a: number
  reason: ReasonCode
  /** ISO instant when the reason is expected to change (a turn's start, the low tariff's start). */
  until?: string
  /** The circuit whose limit binds (`circuit_limit`, `grid_limit_shared`). */
  circuit_id?: string
  /** How many charging stations share the binding circuit. */
  shared_by?: number
  /** kW of PV surplus still missing to start (`waiting_for_solar`). */
  missing_kw?: number
}

/** What a round hands to the next (keep it and pass it back as `previous`). */
export interface AllocationState {
  /** The limit last sent per station, amperes. */
  limits: Record<number, number>
  /** When each station's current turn (uninterrupted non-zero limit) started, ISO. */
  turn_started: Record<number, string>
}

/** kW a station draws per ampere of limit. */
export function kwPerAmp(s: Pick<StationDemand, 'phases'>): number {
  return (s.phases * VOLTS) / 1000
}

const PRIORITY: Record<AllocationMode, number> = { instant: 0, optimized: 1, solar: 2 }

/** Round down to 0.1 A (OCPP limits carry one decimal; rounding down never exceeds a limit). */
function floorTenth(a: number): number {
  return Math.floor(a * 10 + 1e-6) / 10
}

/**
 * Compute every station's current limit for one round.
 *
 * Rules (docs/decisions.md "Load management: the allocation rules"): priority classes instant, optimized,
 * solar; within a class every charging station first gets its minimum where it fits every circuit on its
 * way to the grid connection (else 0 A), then equal shares above the minimum up to its maximum; solar
 * stations only from the PV surplus. Available at the connection = its limit − the building's own load
 * (grid import − the stations' draw).
 * @returns one {@link StationLimit} per station of `input.stations` (sorted by station id) and the state
 * to pass back next round.
 */
export function allocate(input: AllocationInput): { limits: StationLimit[]; state: AllocationState } {
  const stations = [...input.stations].sort((a, b) => a.station_id - b.station_id)
  const circuitById = new Map(input.circuits.map((c) => [c.id, c]))
  const root = (id: string): string => {
    let c = circuitById.get(id)
    while (c && c.parent_id !== null && circuitById.has(c.parent_id)) c = circuitById.get(c.parent_id)
    return c?.id ?? id
  }

  // The building's own load at the connection, spread evenly over the three phases (amperes).
  let buildingA = 0
  if (input.grid_import_kw !== null) {
    let stationsKw = 0
    for (const s of stations) stationsKw += Math.max(0, input.stations_power_kw[s.station_id] ?? 0)
    buildingA = (Math.max(0, input.grid_import_kw - stationsKw) * 1000) / (3 * VOLTS)
  }

  // One constraint per circuit and phase.
  const constraints: Constraint[] = []
  const byKey = new Map<string, Constraint>()
  for (const c of input.circuits) {
    const reserve = c.parent_id === null || !circuitById.has(c.parent_id) ? buildingA : 0
    for (const p of [1, 2, 3]) {
      const k: Constraint = { id: c.id, remaining: Math.max(0, c.limit_a - reserve), terms: new Map() }
      constraints.push(k)
      byKey.set(`${c.id}/${p}`, k)
    }
  }
  stations.forEach((s, i) => {
    const lines = s.phases === 3 || s.phase === undefined ? [1, 2, 3] : [s.phase]
    const seen = new Set<string>()
    let c = circuitById.get(s.circuit_id)
    while (c && !seen.has(c.id)) {
      seen.add(c.id)
      for (const p of lines) byKey.get(`${c.id}/${p}`)!.terms.set(i, 1)
      c = c.parent_id === null ? undefined : circuitById.get(c.parent_id)
    }
  })
  const pv: Constraint = { id: 'pv', remaining: 0, terms: new Map() }
  let solarDraw = 0
  stations.forEach((s, i) => {
    if (s.mode === 'solar') {
      pv.terms.set(i, kwPerAmp(s))
      solarDraw += Math.max(0, input.stations_power_kw[s.station_id] ?? 0)
    }
  })
  pv.remaining = Math.max(0, input.pv_surplus_kw) + solarDraw
  const all = [...constraints, pv]

  const current = stations.map(() => 0)
  const ceiling = stations.map((s) => Math.max(0, s.max_a))
  const reasons: StationLimit[] = stations.map((s) => ({ station_id: s.station_id, limit_a: 0, reason: 'no_car' }))
  const wanting = stations.map((s, i) => (s.charging && s.max_a >= s.min_a && s.max_a > 0 ? i : -1)).filter((i) => i >= 0)
  let higherClassRan = false
  for (const cls of [0, 1, 2]) {
    const members = wanting.filter((i) => PRIORITY[stations[i].mode] === cls)
    if (members.length === 0) continue
    const admitted: number[] = []
    for (const i of members) {
      const s = stations[i]
      if (fits(all, i, s.min_a)) {
        take(all, i, s.min_a)
        current[i] = s.min_a
        admitted.push(i)
      } else {
        const blocking = all.find((c) => c.terms.has(i) && (c.terms.get(i) ?? 0) * s.min_a > c.remaining + EPS)!
        const r = reasons[i]
        if (blocking.id === 'pv') {
          r.reason = 'waiting_for_solar'
          r.missing_kw = Math.round((kwPerAmp(s) * s.min_a - Math.max(0, blocking.remaining)) * 100) / 100
        } else if (admitted.length > 0) r.reason = 'waiting_for_turn'
        else if (higherClassRan) r.reason = 'higher_priority'
        else {
          r.reason = root(blocking.id) === blocking.id ? 'grid_limit_shared' : 'circuit_limit'
          r.circuit_id = blocking.id
        }
      }
    }
    const stopped = fill(admitted, current, ceiling, all)
    for (const i of admitted) {
      const by = stopped.get(i) ?? null
      const r = reasons[i]
      if (by === null) r.reason = 'ok'
      else if (by === 'pv') r.reason = 'solar_surplus'
      else {
        r.reason = root(by) === by ? 'grid_limit_shared' : 'circuit_limit'
        r.circuit_id = by
      }
    }
    if (admitted.length > 0) higherClassRan = true
  }

  // Sharing counts per binding circuit.
  const sharing = new Map<string, Set<number>>()
  for (const i of wanting) {
    if (current[i] <= 0) continue
    for (const k of constraints) if (k.terms.has(i)) (sharing.get(k.id) ?? sharing.set(k.id, new Set()).get(k.id)!).add(i)
  }
  const limits: StationLimit[] = reasons.map((r, i) => {
    r.limit_a = current[i] > 0 ? Math.max(stations[i].min_a, floorTenth(current[i])) : 0
    if (r.circuit_id !== undefined) r.shared_by = sharing.get(r.circuit_id)?.size ?? 0
    return r
  })
  const state: AllocationState = { limits: {}, turn_started: {} }
  for (const l of limits) {
    state.limits[l.station_id] = l.limit_a
    if (l.limit_a > 0) state.turn_started[l.station_id] = input.previous?.limits[l.station_id] ? (input.previous.turn_started[l.station_id] ?? input.now) : input.now
  }
  return { limits, state }
}
