/**
 * Hysteresis of the load allocator (docs/decisions.md "Load management: the allocation rules"): a limit
 * does not move by less than a threshold, nor within a hold time of its last change, so chargers and cars
 * are not sent a new limit every control interval, but never at the cost of exceeding a limit: a held
 * value above the new one is only kept where it still fits every circuit (and, for PV-limited stations,
 * the PV surplus).
 */
import { type Network, blocking, take } from './fill.ts'

/** The settings of hysteresis. */
export interface HysteresisOptions {
  /** A change smaller than this (amperes) is not sent, unless it starts or pauses the station. */
  threshold_a: number
  /** A limit is kept for this long (ms) after it last changed. */
  hold_ms: number
  /**
   * A rise under the threshold waits at most this long (ms) after the last change, then it is sent: a
   * car is not kept short of its share for good by less than `threshold_a`.
   */
  small_rise_ms: number
}

/** One station's proposal for this round, as hysteresis sees it. */
export interface Proposal {
  /** Amperes computed this round (already rounded for sending). */
  limit_a: number
  /** The limit last sent (undefined: none). */
  previous_a: number | undefined
  /** When the previous limit was set, ms since the epoch (undefined: unknown, no hold). */
  changed_ms: number | undefined
  /** Whether the previous limit is still a valid one: 0, or within the station's minimum and maximum. */
  previous_valid: boolean
  /** Whether hysteresis may apply at all (false when the car left: the limit drops at once). */
  eligible: boolean
  /** Limit index not to check when raising back (a charge plan's share may come from the grid), -1 none. */
  ignore: number
}

/**
 * Replace proposals by the previous limits where the change is under the threshold (a rise: for at most
 * `small_rise_ms` after the last change) or within the hold time. Lower held values are applied first (they only free capacity), then higher ones in station order,
 * each only if the extra current fits `net`, whose `remaining` must already account for every proposal.
 * Returns the limits to send, in the order of `proposals`.
 */
export function hold(proposals: Proposal[], net: Network, options: HysteresisOptions, nowMs: number): number[] {
  const out = proposals.map((p) => p.limit_a)
  const keep = proposals.map((p) => {
    if (!p.eligible || p.previous_a === undefined || !p.previous_valid || p.previous_a === p.limit_a) return false
    const age = p.changed_ms === undefined ? Infinity : nowMs - p.changed_ms
    const within = age < options.hold_ms
    const small = p.previous_a > 0 && p.limit_a > 0 && Math.abs(p.previous_a - p.limit_a) < options.threshold_a
    // A small cut that still fits stays for good (it only leaves room); a small rise waits small_rise_ms.
    const waits = p.limit_a < p.previous_a || age < options.small_rise_ms
    return within || (small && waits)
  })
  proposals.forEach((p, i) => {
    if (keep[i] && p.previous_a! < p.limit_a) {
      take(net, i, p.previous_a! - p.limit_a)
      out[i] = p.previous_a!
    }
  })
  proposals.forEach((p, i) => {
    if (!keep[i] || p.previous_a! < p.limit_a) return
    const extra = p.previous_a! - p.limit_a
    if (blocking(net, i, extra, p.ignore) !== -1) return
    take(net, i, extra)
    out[i] = p.previous_a!
  })
  return out
}
