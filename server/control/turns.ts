/**
 * Turn-taking of the load allocator (docs/decisions.md "Load management: the allocation rules"): when the
 * minimum current cannot be met for every car of a priority class, cars charge in turns of a set length
 * instead of all stopping. Pure functions over the previous round's state.
 */
import type { AllocationState } from './allocate.ts'

/** One station as turn-taking sees it. */
export interface TurnCandidate {
  /** Station index in the round. */
  index: number
  station_id: number
}

/** Where a station stands in the queue: charging within its turn, waiting, or charging past its turn. */
export type TurnStanding = 'in_turn' | 'waiting' | 'overdue'

/** A candidate with its standing and the instants it is ordered by (ms since the epoch). */
export interface Queued extends TurnCandidate {
  standing: TurnStanding
  /** in_turn/overdue: when its turn started; waiting: since when it waits. */
  since: number
}

/**
 * The order in which `candidates` are admitted to their minimum current this round:
 * 1. stations charging within their turn (`turn_ms` not yet over), the most recent turn first, so that
 *    when capacity shrinks the one that has charged longest drops first;
 * 2. waiting stations, the longest waiting first;
 * 3. stations charging past their turn, the most recent turn first: they keep charging only where
 *    nobody waiting fits.
 * Ties go to the lower station id (deterministic). A station counts as charging when the previous round
 * gave it a non-zero limit.
 */
export function admissionOrder(candidates: TurnCandidate[], previous: AllocationState | undefined, nowMs: number, turnMs: number): Queued[] {
  const queued: Queued[] = candidates.map((c) => {
    const running = (previous?.limits[c.station_id] ?? 0) > 0
    if (running) {
      const started = parse(previous?.turn_started[c.station_id], nowMs)
      return { ...c, standing: nowMs - started < turnMs ? 'in_turn' : 'overdue', since: started }
    }
    return { ...c, standing: 'waiting', since: parse(previous?.waiting_since?.[c.station_id], nowMs) }
  })
  const rank: Record<TurnStanding, number> = { in_turn: 0, waiting: 1, overdue: 2 }
  return queued.sort((a, b) => {
    if (a.standing !== b.standing) return rank[a.standing] - rank[b.standing]
    // in_turn and overdue: most recent turn first; waiting: longest waiting first.
    const bySince = a.standing === 'waiting' ? a.since - b.since : b.since - a.since
    return bySince !== 0 ? bySince : a.station_id - b.station_id
  })
}

/**
 * When each station still waiting is expected to start, ms since the epoch: the charging stations' turns
 * end in order (turn start + `turn_ms`, at the earliest now), and the waiting ones follow in queue order,
 * one per ending turn, a further `turn_ms` for each time round. Empty when nobody charges.
 */
export function expectedStarts(waiting: Queued[], charging: Queued[], nowMs: number, turnMs: number): Map<number, number> {
  const starts = new Map<number, number>()
  if (charging.length === 0) return starts
  const ends = charging.map((c) => Math.max(nowMs, c.since + turnMs)).sort((a, b) => a - b)
  waiting.forEach((w, q) => {
    starts.set(w.index, ends[q % ends.length] + Math.floor(q / ends.length) * turnMs)
  })
  return starts
}

function parse(iso: string | undefined, fallback: number): number {
  if (iso === undefined) return fallback
  const ms = Date.parse(iso)
  return Number.isFinite(ms) ? ms : fallback
}
