/**
 * The installation's electrical side as the allocator's limits (docs/decisions.md "Load management: the
 * allocation rules"): circuits per phase, static shares, and what a charge plan needs. Units as in
 * server/control/allocate.ts: amperes per phase, kW at 230 V per phase.
 */
import type { Circuit, StationDemand } from './allocate.ts'
import { type Network, addLimit, fill, network } from './fill.ts'

/** Volts per phase (line to neutral) used to turn amperes into kW. */
export const VOLTS = 230

/** kW a station draws per ampere of limit (phases × 230 V). */
export function kwPerAmp(s: Pick<StationDemand, 'phases'>): number {
  return (s.phases * VOLTS) / 1000
}

/** Round up to 0.1 A (a plan's need). */
export function ceilTenth(a: number): number {
  return Math.ceil(a * 10 - 1e-6) / 10
}

/** Round down to 0.1 A (OCPP limits carry one decimal; rounding down never exceeds a limit). */
export function floorTenth(a: number): number {
  return Math.floor(a * 10 + 1e-6) / 10
}

/**
 * The circuits as limits: one per circuit and phase, each station on every circuit from its own up to the
 * grid connection, on its phase(s). The connection (every root) has `reserve_a` (amperes, one figure for
 * every phase or one per phase L1–L3) taken off its limit.
 * Stations on an unknown circuit hang on nothing and get 0 A (see {@link allocate}).
 */
export function circuitNetwork(circuits: Circuit[], stations: StationDemand[], reserveA: number | readonly number[]): Network {
  const reserve = typeof reserveA === 'number' ? [reserveA, reserveA, reserveA] : reserveA
  const net = network(stations.length)
  const byId = new Map(circuits.map((c) => [c.id, c]))
  // Per circuit, its limit index for each phase (0–2).
  const index = new Map<string, number[]>()
  for (const c of circuits) {
    const root = c.parent_id === null || !byId.has(c.parent_id)
    index.set(c.id, [0, 1, 2].map((p) => addLimit(net, c.id, c.limit_a - (root ? reserve[p] : 0))))
  }
  // Per circuit, its path up to the connection (cycles cut).
  const paths = new Map<string, number[][]>()
  const pathOf = (id: string): number[][] => {
    let path = paths.get(id)
    if (path) return path
    path = []
    const seen = new Set<string>()
    for (let c = byId.get(id); c && !seen.has(c.id); c = c.parent_id === null ? undefined : byId.get(c.parent_id)) {
      seen.add(c.id)
      path.push(index.get(c.id)!)
    }
    paths.set(id, path)
    return path
  }
  stations.forEach((s, i) => {
    const lines = s.phases === 3 || s.phase === undefined ? [0, 1, 2] : [s.phase - 1]
    for (const phases of pathOf(s.circuit_id)) for (const p of lines) net.of[i].push([phases[p], 1])
  })
  return net
}

/**
 * Static shares of the connection (the fallback without a grid reading, and a safe fail-safe limit for a
 * charger that loses the controller): every station, charging or not, gets an equal share of each circuit
 * on its way to the connection (less `reserve_a` of building load at the connection), at most its maximum.
 * A share below the station's minimum is 0: that station cannot charge safely without the controller.
 * @returns amperes per station, in the order of `stations`.
 */
export function staticShares(circuits: Circuit[], stations: StationDemand[], reserveA = 0): number[] {
  const net = circuitNetwork(circuits, stations, reserveA)
  const current = stations.map(() => 0)
  const ceiling = stations.map((s, i) => (net.of[i].length === 0 ? 0 : Math.max(0, s.max_a)))
  fill(net, stations.map((_, i) => i), current, ceiling)
  return current.map((a, i) => (a + 1e-9 >= stations[i].min_a ? Math.max(stations[i].min_a, floorTenth(a)) : 0))
}


/**
 * The current (amperes per phase) that charges `plan.energy_kwh` by `plan.deadline`, or null without a
 * plan, with nothing left to charge, or past its deadline.
 */
export function planNeed(s: StationDemand, nowMs: number): number | null {
  if (!s.plan || !(s.plan.energy_kwh > 0)) return null
  const hours = (Date.parse(s.plan.deadline) - nowMs) / 3_600_000
  if (!(hours > 0)) return null
  return s.plan.energy_kwh / hours / kwPerAmp(s)
}
