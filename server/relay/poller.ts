import PQueue from 'p-queue'
import { topicPath, type Topic } from '../../shared/live.ts'
import { RELAY } from '../../config/defaults.ts'
import type { Hub } from './hub.ts'
import type { Upstream } from './upstream.ts'
import { toTopicState } from './projection.ts'

export interface PollerStats {
  /** Upstream calls and failures per topic since start. */
  calls: Record<string, number>
  errors: Record<string, number>
  /** (installation, topic) pairs being polled now. */
  active: number
}

interface TopicLoop {
  /** When the topic is next due (ms, `now()` clock). */
  due: number
  /** When its last round started (ms), so pokes keep their distance. */
  lastStart?: number
  /** Poked while its round was running: polled again after it (the change may have missed the round). */
  pokedWhileRunning?: boolean
  failures: number
  stopTimer?: NodeJS.Timeout
}

/** One installation's polling: its watched topics and the one timer that runs their rounds. */
interface InstallationLoop {
  topics: Map<Topic, TopicLoop>
  /** Start of the installation's schedule: topics are due on multiples of their interval from here. */
  base: number
  timer?: NodeJS.Timeout
  running: boolean
  stopped: boolean
}

/** Topics due within this much of a round's start join it (timers fire a little late or early). */
const ROUND_SLACK_MS = 25

/**
 * Polls the upstream for every watched (installation, topic) (ARCHITECTURE §5): one call per topic and
 * interval however many subscribers watch, none when nobody does (RELAY.idleStopMs after the last one
 * left). Topics of an installation are due on a shared grid (multiples of their interval from when the
 * installation was first watched), so topics with the same interval, and every multiple, are polled in
 * one round: their calls run together and their events are published in one hub batch, so each
 * subscriber gets one write per round instead of one per topic (a second topic no longer waits
 * behind the first one's fan-out). A newly watched topic is polled at once, then joins the grid.
 * Upstream calls share a p-queue bounding their concurrency. Failures keep the last state, report
 * stale (then down after RELAY.downAfterFailures) and back off exponentially up to RELAY.maxBackoffMs.
 * Intervals are real time, whatever CLOCK_SPEED says: they are delivery cadence for watching browsers
 * (docs/decisions.md "One clock: jobs and the relay's polls"); only the sessions topic's "today" is
 * the process clock's (`today`).
 */
export function createPollers({ hub, upstream, intervals, idleStopMs = RELAY.idleStopMs, today, now = () => performance.now() }: {
  hub: () => Hub
  upstream: Upstream
  intervals: Record<Topic, number>
  idleStopMs?: number
  /** The process clock's now (ARCHITECTURE §1 "Time"): the sessions topic asks for the 24 h before it. */
  today: () => Date
  /** Monotonic real-time ms that the poll timers run on (performance.now() by default). */
  now?: () => number
}) {
  const queue = new PQueue({ concurrency: RELAY.upstreamConcurrency })
  const installations = new Map<number, InstallationLoop>()
  const stats: PollerStats = { calls: {}, errors: {}, active: 0 }
  const countActive = () => {
    let n = 0
    for (const inst of installations.values()) n += inst.topics.size
    stats.active = n
  }

  function schedule(installationId: number, inst: InstallationLoop): void {
    clearTimeout(inst.timer)
    if (inst.running || inst.stopped) return
    let next = Infinity
    for (const loop of inst.topics.values()) next = Math.min(next, loop.due)
    if (next === Infinity) return
    inst.timer = setTimeout(() => void round(installationId, inst), Math.max(0, next - now()))
  }

  async function round(installationId: number, inst: InstallationLoop): Promise<void> {
    const start = now()
    const due = [...inst.topics].filter(([, loop]) => loop.due <= start + ROUND_SLACK_MS)
    if (!due.length) return schedule(installationId, inst)
    inst.running = true
    const results = await Promise.allSettled(
      due.map(([topic]) => {
        stats.calls[topic] = (stats.calls[topic] ?? 0) + 1
        return queue.add(() => upstream.get(topicPath(topic, installationId, today())))
      }),
    )
    inst.running = false
    if (inst.stopped) return
    const h = hub()
    h.batch(() => {
      due.forEach(([topic, loop], i) => {
        const r = results[i]
        if (r.status === 'fulfilled') {
          loop.failures = 0
          h.publish(installationId, topic, toTopicState(topic, r.value))
          h.setStatus(installationId, topic, 'live')
        } else {
          stats.errors[topic] = (stats.errors[topic] ?? 0) + 1
          loop.failures++
          h.setStatus(installationId, topic, loop.failures >= RELAY.downAfterFailures ? 'down' : 'stale')
        }
        const interval = intervals[topic]
        loop.lastStart = start
        loop.due = loop.failures
          ? now() + Math.min(RELAY.maxBackoffMs, interval * 2 ** (loop.failures - 1))
          // The grid point after this round's: a round may start up to ROUND_SLACK_MS before its point
          // (timers and `now()` run on different clocks), and must not fall due again at once.
          : inst.base + (Math.floor((start + ROUND_SLACK_MS - inst.base) / interval) + 1) * interval
      })
    })
    for (const loop of inst.topics.values()) {
      if (loop.pokedWhileRunning && !loop.failures) loop.due = Math.min(loop.due, Math.max(now(), (loop.lastStart ?? -Infinity) + RELAY.pokeMinGapMs))
      loop.pokedWhileRunning = false
    }
    schedule(installationId, inst)
  }

  return {
    stats,
    /** Start polling a topic, or schedule its stop, as it gains its first or loses its last subscriber. */
    watch(installationId: number, topic: Topic, watched: boolean): void {
      let inst = installations.get(installationId)
      const loop = inst?.topics.get(topic)
      if (watched) {
        if (loop) {
          clearTimeout(loop.stopTimer)
          loop.stopTimer = undefined
          return
        }
        if (!inst) installations.set(installationId, (inst = { topics: new Map(), base: now(), running: false, stopped: false }))
        inst.topics.set(topic, { due: now(), failures: 0 })
        countActive()
        schedule(installationId, inst)
      } else if (inst && loop && !loop.stopTimer) {
        const owner = inst
        loop.stopTimer = setTimeout(() => {
          owner.topics.delete(topic)
          if (!owner.topics.size) {
            owner.stopped = true
            clearTimeout(owner.timer)
            installations.delete(installationId)
          }
          countActive()
        }, idleStopMs)
      }
    },
    /**
     * The upstream says a topic changed (a charge point's meter value, on the stream within 1 s;
     * docs/decisions.md "Relay: pokes instead of waiting for the interval"): poll it now rather than at its
     * next interval, but at most once per RELAY.pokeMinGapMs, so many changes cost one extra round. Nothing
     * when no loop polls it, or while it is failing (its back-off stands). A loop kept through the idle
     * delay (nobody watching, e.g. a page being reloaded) is polled too: a stream opened again gets its
     * data at once, which must not be the state from before the change.
     */
    poke(installationId: number, topic: Topic): void {
      const inst = installations.get(installationId)
      const loop = inst?.topics.get(topic)
      if (!inst || !loop || loop.failures) return
      if (inst.running) {
        loop.pokedWhileRunning = true
        return
      }
      const at = Math.max(now(), (loop.lastStart ?? -Infinity) + RELAY.pokeMinGapMs)
      if (at >= loop.due) return
      loop.due = at
      schedule(installationId, inst)
    },
    stopAll(): void {
      for (const inst of installations.values()) {
        inst.stopped = true
        clearTimeout(inst.timer)
        for (const loop of inst.topics.values()) clearTimeout(loop.stopTimer)
      }
      installations.clear()
      queue.clear()
      stats.active = 0
    },
  }
}
export type Pollers = ReturnType<typeof createPollers>
