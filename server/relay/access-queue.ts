import PQueue from 'p-queue'
import { RELAY } from '../../config/defaults.ts'

/**
 * A check that waited in the queue longer than its bound and was given up before any upstream call.
 * `retryAfterS`: whole seconds for the Retry-After header (RFC 9110 §10.2.3), jittered.
 */
export class AccessQueueTimeout extends Error {
  readonly retryAfterS: number
  constructor(retryAfterS: number) {
    super('access check queued too long')
    this.retryAfterS = retryAfterS
  }
}

/** A queued check given up because every caller waiting for it had gone (closed its request). */
export class AccessQueueAbandoned extends Error {
  constructor() {
    super('access check abandoned by its callers')
  }
}

/** Plain counters read by /live/metrics at scrape time (server/relay/metrics.ts). */
export interface AccessQueueStats {
  /** Checks waiting for a slot now. */
  waiting: number
  /** Checks upstream now. */
  running: number
  /** Checks that got a slot, and their summed wait in the queue (s). */
  started: number
  waitSecondsTotal: number
  /** Checks answered 503 for waiting past the bound. */
  refused: number
  /** Callers that shared a check already in flight instead of starting their own. */
  coalesced: number
  /** Queued checks dropped before their call because all their callers had gone. */
  abandoned: number
}

/** How many of the latest waits the p95 is taken over. */
const RECENT_WAITS = 500

/**
 * The relay's queue of access checks for joining streams. Each new stream costs one API
 * call; a herd of them (thousands arriving, or a killed relay's subscribers moving) sent all at once
 * made the API's answers pass the relay's upstream timeout, the relay answered 503, the clients came
 * back at once, and the herd never settled. Here:
 * - at most `concurrency` checks run upstream at once, the rest wait in arrival order (FIFO);
 * - a check still waiting after `maxWaitMs` is rejected with {@link AccessQueueTimeout} (answered 503
 *   with Retry-After) without calling upstream, so the queue cannot grow without limit; the Retry-After
 *   is the time the queue ahead needs at the current pace (at least the bound), times 1–2 at random, so
 *   the refused come back spread out;
 * - a queued check whose callers have all gone (their requests closed, e.g. a client's ticket timeout)
 *   is dropped before its call: the API's time goes to callers still waiting;
 * - callers with the same `key` while a check is queued or running share its answer. Nothing is kept
 *   after the call ends: a rights change upstream applies to the very next check.
 */
export function createAccessQueue({ concurrency = RELAY.accessConcurrency, maxWaitMs = RELAY.accessMaxWaitMs, retryAfterMaxS = RELAY.accessRetryAfterMaxS, random = Math.random, now = () => performance.now() }: {
  concurrency?: number
  maxWaitMs?: number
  retryAfterMaxS?: number
  random?: () => number
  /** Monotonic real-time ms for waits and call durations (performance.now() by default). */
  now?: () => number
} = {}) {
  const queue = new PQueue({ concurrency })
  const inFlight = new Map<string, { promise: Promise<unknown>; callers: number; started: boolean; giveUp: AbortController }>()
  const stats: AccessQueueStats = { waiting: 0, running: 0, started: 0, waitSecondsTotal: 0, refused: 0, coalesced: 0, abandoned: 0 }
  const recentWaits: number[] = []
  // Moving average of an upstream check's duration (ms), for the Retry-After estimate.
  let callMs = 100
  // Times of refusals within the last bound: a herd refused together comes back together, so its size
  // counts in the Retry-After as much as the queue still waiting.
  const refusedAt: number[] = []

  /**
   * Seconds the API needs at the current pace for the checks waiting, running and refused within the
   * last bound (≥ the bound, ≤ half the cap), × 1–2 at random: capped before the jitter, so a long
   * queue's refusals are still spread, not all at the cap.
   */
  function retryAfterS(): number {
    const t = now()
    refusedAt.push(t)
    while (refusedAt.length && refusedAt[0] < t - maxWaitMs) refusedAt.shift()
    const drainMs = ((queue.size + queue.pending + refusedAt.length) * callMs) / concurrency
    const base = Math.min(Math.max(drainMs, maxWaitMs) / 1000, retryAfterMaxS / 2)
    return Math.max(1, Math.min(retryAfterMaxS, Math.ceil(base * (1 + random()))))
  }

  return {
    stats,
    /** p95 of the latest waits in the queue (s), 0 before any. */
    waitP95Seconds(): number {
      if (!recentWaits.length) return 0
      const sorted = [...recentWaits].sort((a, b) => a - b)
      return sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] / 1000
    },
    /**
     * Run `check` when a slot is free, or share the pending one of the same `key`. Rejects with
     * {@link AccessQueueTimeout} after `maxWaitMs` in the queue, with {@link AccessQueueAbandoned} when
     * `gone` (the caller's request closed) has fired for every caller before the check started, else
     * with whatever `check` throws.
     */
    run<T>(key: string, check: () => Promise<T>, gone?: AbortSignal): Promise<T> {
      let entry = inFlight.get(key)
      if (entry) {
        stats.coalesced++
        entry.callers++
      } else {
        entry = start(key, check)
        inFlight.set(key, entry)
      }
      const e = entry
      gone?.addEventListener('abort', () => {
        if (--e.callers === 0 && !e.started) e.giveUp.abort(new AccessQueueAbandoned())
      }, { once: true })
      return e.promise as Promise<T>
    },
  }

  function start<T>(key: string, check: () => Promise<T>) {
    const queuedAt = now()
    const giveUp = new AbortController()
    const timer = setTimeout(() => giveUp.abort(new AccessQueueTimeout(retryAfterS())), maxWaitMs)
    stats.waiting++
    const entry = { promise: null as unknown as Promise<unknown>, callers: 1, started: false, giveUp }
    entry.promise = queue
      .add(async () => {
        clearTimeout(timer)
        entry.started = true
        stats.waiting--
        stats.running++
        const waited = now() - queuedAt
        stats.started++
        stats.waitSecondsTotal += waited / 1000
        recentWaits.push(waited)
        if (recentWaits.length > RECENT_WAITS) recentWaits.shift()
        const at = now()
        try {
          return await check()
        } finally {
          stats.running--
          callMs = callMs * 0.8 + (now() - at) * 0.2
        }
      }, { signal: giveUp.signal })
      .catch((err: unknown) => {
        if (!entry.started) {
          stats.waiting--
          if (err instanceof AccessQueueAbandoned) stats.abandoned++
          else stats.refused++
        }
        throw err
      })
      .finally(() => {
        clearTimeout(timer)
        inFlight.delete(key)
      })
    return entry
  }
}
export type AccessQueue = ReturnType<typeof createAccessQueue>
