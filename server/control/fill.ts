/**
 * The arithmetic core of the load allocator (server/control/allocate.ts, docs/decisions.md "Load
 * management: the allocation rules"): linear limits on station currents and their progressive filling
 * ("water-filling": equal steps for everyone until a ceiling or a limit stops them, i.e. max-min fairness).
 *
 * A limit k is `Σ coef · current[i] ≤ capacity[k]` over the stations it covers: a circuit's phase (coef 1
 * for each station drawing from that phase, amperes), the PV surplus (coef = the station's kW per ampere),
 * or a station's static share (coef 1). Pure and array-based: it runs every control interval for up to a
 * few hundred stations (bench/load-step.ts).
 */

/** Tolerance for floating comparisons (amperes or kW). */
export const EPS = 1e-9

/** The limits of one round and which stations each covers. */
export interface Network {
  /** Per limit: what it is (a circuit id, `pv`, or `static`), for reasons. */
  ids: string[]
  /** Per limit: its full capacity (A per phase or kW). */
  capacity: number[]
  /** Per limit: what is left of it; `take` and `fill` update it. */
  remaining: number[]
  /** Per station index: the limits covering it as [limit index, coefficient], nearest circuit first. */
  of: Array<Array<[number, number]>>
}

/** An empty network for `stations` station indices. */
export function network(stations: number): Network {
  return { ids: [], capacity: [], remaining: [], of: Array.from({ length: stations }, () => []) }
}

/** Add a limit of `capacity` (negative counts as 0) and return its index. */
export function addLimit(net: Network, id: string, capacity: number): number {
  net.ids.push(id)
  net.capacity.push(Math.max(0, capacity))
  net.remaining.push(Math.max(0, capacity))
  return net.ids.length - 1
}

/** A copy whose `remaining` can be used up independently (ids, capacities and coverage are shared). */
export function fresh(net: Network): Network {
  return { ...net, remaining: net.capacity.slice() }
}

/**
 * The first limit (nearest circuit first) that `amps` more on station `i` would exceed, or -1 when it
 * fits all. The limit `ignore` (an index, -1 for none) is not checked.
 */
export function blocking(net: Network, i: number, amps: number, ignore = -1): number {
  for (const [k, coef] of net.of[i]) {
    if (k !== ignore && coef * amps > net.remaining[k] + EPS) return k
  }
  return -1
}

/** Use `amps` of station `i` on every limit covering it (also an ignored one, which may go negative). */
export function take(net: Network, i: number, amps: number): void {
  for (const [k, coef] of net.of[i]) net.remaining[k] -= coef * amps
}

/**
 * Raise the currents of `members` (station indices; `current` and `ceiling` in amperes, indexed by station)
 * by equal steps until each reaches its ceiling or a limit covering it is used up: equal shares above
 * where each started. Mutates `current` and `net.remaining`; the limit `ignore` is not checked (its
 * remainder still goes down). Returns, per member, the index of the limit that stopped it, -1 for its
 * ceiling.
 */
export function fill(net: Network, members: number[], current: number[], ceiling: number[], ignore = -1): Map<number, number> {
  const stopped = new Map<number, number>()
  const weight = new Float64Array(net.ids.length)
  let active: number[] = []
  for (const i of members) {
    if (ceiling[i] - current[i] <= EPS) stopped.set(i, -1)
    else active.push(i)
  }
  while (active.length > 0) {
    weight.fill(0)
    let step = Infinity
    for (const i of active) {
      step = Math.min(step, ceiling[i] - current[i])
      for (const [k, coef] of net.of[i]) if (k !== ignore) weight[k] += coef
    }
    for (let k = 0; k < weight.length; k++) {
      if (weight[k] > 0) step = Math.min(step, Math.max(0, net.remaining[k]) / weight[k])
    }
    for (const i of active) {
      current[i] += step
      take(net, i, step)
    }
    const next: number[] = []
    for (const i of active) {
      if (ceiling[i] - current[i] <= EPS) {
        current[i] = ceiling[i]
        stopped.set(i, -1)
        continue
      }
      let full = -1
      for (const [k] of net.of[i]) {
        if (k !== ignore && net.remaining[k] <= EPS) { full = k; break }
      }
      if (full >= 0) stopped.set(i, full)
      else next.push(i)
    }
    active = next
  }
  return stopped
}
