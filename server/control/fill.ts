/**
 * Progressive filling ("water-filling") of station currents under linear limits, the arithmetic core of the
 * load allocator (server/control/allocate.ts, docs/decisions.md "Load management: the allocation rules").
 *
 * A limit is `Σ coef[i] · current[i] ≤ capacity` over the stations it covers: a circuit's phase (coef 1 for
 * every station drawing from that phase, amperes) or the PV surplus (coef = the station's kW per ampere).
 * Pure and allocation-light: it runs every control interval for up to a few hundred stations.
 */

/** A linear limit: `Σ terms[k].coef · current[terms[k].station] ≤ capacity` (units of the limit). */
export interface Constraint {
  /** What the limit is, kept for reasons: a circuit id or `pv`. */
  id: string
  /** What is left of it, in the limit's unit (A per phase for a circuit, kW for PV); updated in place. */
  remaining: number
  /** Station index → coefficient (how much of the limit one ampere of that station uses). */
  terms: Map<number, number>
}

/** Tolerance for floating comparisons (amperes or kW). */
export const EPS = 1e-9

/**
 * Whether `amps` more on station `i` fits every constraint of `on` (constraints not covering `i` ignored).
 */
export function fits(on: Constraint[], i: number, amps: number): boolean {
  for (const c of on) {
    const coef = c.terms.get(i)
    if (coef !== undefined && coef * amps > c.remaining + EPS) return false
  }
  return true
}

/** Subtract `amps` of station `i` from every constraint covering it. */
export function take(on: Constraint[], i: number, amps: number): void {
  for (const c of on) {
    const coef = c.terms.get(i)
    if (coef !== undefined) c.remaining -= coef * amps
  }
}

/**
 * Raise the currents of `members` (station indices, each with its current in `current` and its ceiling in
 * `ceiling`, amperes) by equal steps until each reaches its ceiling or a constraint covering it is used up
 * (max-min fairness above the starting currents). Mutates `current` and the constraints' `remaining`.
 * Returns, per member, the id of the constraint that stopped it, or null when it reached its ceiling.
 */
export function fill(members: number[], current: number[], ceiling: number[], on: Constraint[]): Map<number, string | null> {
  const stopped = new Map<number, string | null>()
  let active = members.filter((i) => {
    if (ceiling[i] - current[i] <= EPS) { stopped.set(i, null); return false }
    return true
  })
  // Only the constraints that cover a member matter.
  const relevant = on.filter((c) => members.some((i) => c.terms.has(i)))
  while (active.length > 0) {
    let step = Infinity
    for (const i of active) step = Math.min(step, ceiling[i] - current[i])
    for (const c of relevant) {
      let weight = 0
      for (const i of active) weight += c.terms.get(i) ?? 0
      if (weight > 0) step = Math.min(step, Math.max(0, c.remaining) / weight)
    }
    for (const i of active) current[i] += step
    for (const c of relevant) {
      let weight = 0
      for (const i of active) weight += c.terms.get(i) ?? 0
      c.remaining -= weight * step
    }
    const next: number[] = []
    for (const i of active) {
      if (ceiling[i] - current[i] <= EPS) { current[i] = ceiling[i]; stopped.set(i, null); continue }
      const full = relevant.find((c) => c.terms.has(i) && c.remaining <= EPS)
      if (full) stopped.set(i, full.id)
      else next.push(i)
    }
    active = next
  }
  return stopped
}
