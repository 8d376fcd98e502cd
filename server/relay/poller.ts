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

/**
 * One poll loop per (installation, topic) while anybody watches (ARCHITECTURE §5): the first poll at
 * once, then every interval; upstream calls share a p-queue bounding their concurrency. Failures keep
 * the last state, report stale (then down after RELAY.downAfterFailures) and back off exponentially.
 * A loop stops RELAY.idleStopMs after its last subscriber left.
 */
export function createPollers({ hub, upstream, intervals, idleStopMs = RELAY.idleStopMs }: {
  hub: () => Hub
  upstream: Upstream
  intervals: Record<Topic, number>
  idleStopMs?: number
}) {
  const queue = new PQueue({ concurrency: RELAY.upstreamConcurrency })
  const loops = new Map<string, { timer?: NodeJS.Timeout; stopTimer?: NodeJS.Timeout; failures: number; running: boolean; stopped: boolean }>()
  const stats: PollerStats = { calls: {}, errors: {}, active: 0 }

  async function poll(installationId: number, topic: Topic, key: string): Promise<void> {
    const loop = loops.get(key)
    if (!loop || loop.stopped) return
    stats.calls[topic] = (stats.calls[topic] ?? 0) + 1
    try {
      const body = await queue.add(() => upstream.get(topicPath(topic, installationId)))
      loop.failures = 0
      hub().publish(installationId, topic, toTopicState(topic, body))
      hub().setStatus(installationId, topic, 'live')
    } catch {
      stats.errors[topic] = (stats.errors[topic] ?? 0) + 1
      loop.failures++
      hub().setStatus(installationId, topic, loop.failures >= RELAY.downAfterFailures ? 'down' : 'stale')
    }
    if (loop.stopped) return
    const delay = loop.failures ? Math.min(RELAY.maxBackoffMs, intervals[topic] * 2 ** (loop.failures - 1)) : intervals[topic]
    loop.timer = setTimeout(() => void poll(installationId, topic, key), delay)
  }

  return {
    stats,
    /** Start or schedule the stop of a loop as a topic gains its first or loses its last subscriber. */
    watch(installationId: number, topic: Topic, watched: boolean): void {
      const key = `${installationId}:${topic}`
      const loop = loops.get(key)
      if (watched) {
        if (loop) {
          clearTimeout(loop.stopTimer)
          loop.stopTimer = undefined
          return
        }
        loops.set(key, { failures: 0, running: true, stopped: false })
        stats.active = loops.size
        void poll(installationId, topic, key)
      } else if (loop && !loop.stopTimer) {
        loop.stopTimer = setTimeout(() => {
          loop.stopped = true
          clearTimeout(loop.timer)
          loops.delete(key)
          stats.active = loops.size
        }, idleStopMs)
      }
    },
    stopAll(): void {
      for (const loop of loops.values()) {
        loop.stopped = true
        clearTimeout(loop.timer)
        clearTimeout(loop.stopTimer)
      }
      loops.clear()
      queue.clear()
      stats.active = 0
    },
  }
}
export type Pollers = ReturnType<typeof createPollers>
