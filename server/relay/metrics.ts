import { Gauge, Counter, type Registry } from 'prom-client'
import type { Hub } from './hub.ts'
import type { PollerStats } from './poller.ts'
import type { AccessQueue } from './access-queue.ts'

/**
 * The relay's figures in the process's registry (server/lib/metrics.ts; GET /metrics and /live/metrics):
 * subscribers, installations and topics polled, upstream calls and errors by topic, events and bytes
 * sent, dropped subscribers, replay hits, the access queue. Values are read from the hub's and pollers'
 * plain counters at scrape time, so the hot path only increments integers.
 */
export function registerRelayMetrics(registry: Registry, hub: Hub, pollers: { stats: PollerStats }, access?: Pick<AccessQueue, 'stats' | 'waitP95Seconds'>): void {
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({ name, help, registers: [registry], collect() { this.set(read()) } })
  const counter = (name: string, help: string, read: () => number) =>
    new Counter({ name, help, registers: [registry], collect() { this.reset(); this.inc(read()) } })
  gauge('cockpit_relay_subscribers', 'Open live streams', () => hub.stats.subscribers)
  gauge('cockpit_relay_installations', 'Installations with live state in the relay', () => hub.stats.installations)
  gauge('cockpit_relay_profiles', 'Permission profiles (each serializes its events once)', () => hub.stats.profiles)
  gauge('cockpit_relay_polled_topics', '(installation, topic) pairs being polled', () => pollers.stats.active)
  counter('cockpit_relay_events_sent_total', 'Events written to subscribers', () => hub.stats.eventsSent)
  counter('cockpit_relay_bytes_sent_total', 'Bytes written to subscribers', () => hub.stats.bytesSent)
  counter('cockpit_relay_dropped_subscribers_total', 'Subscribers dropped for not keeping up', () => hub.stats.dropped)
  counter('cockpit_relay_replay_hits_total', 'Resumes served exactly from the replay ring', () => hub.stats.replayHits)
  counter('cockpit_relay_access_checks_total', 'Upstream calls re-checking the rights of open streams', () => hub.stats.accessChecks)
  counter('cockpit_relay_replay_misses_total', 'Resumes outside the replay ring (fresh snapshots)', () => hub.stats.replayMisses)
  if (access) {
    // Access checks of joining streams: the queue in front of the API and its waits.
    const queue = access
    const a = queue.stats
    gauge('cockpit_relay_access_queue_length', 'Access checks of joining streams waiting for a slot', () => a.waiting)
    gauge('cockpit_relay_access_checks_in_flight', 'Access checks of joining streams upstream now', () => a.running)
    counter('cockpit_relay_access_queue_wait_seconds_total', 'Summed time access checks waited in the queue before going upstream', () => a.waitSecondsTotal)
    counter('cockpit_relay_access_checks_started_total', 'Access checks that went upstream after waiting in the queue', () => a.started)
    gauge('cockpit_relay_access_queue_wait_p95_seconds', 'p95 of the latest 500 waits in the access queue', () => queue.waitP95Seconds())
    counter('cockpit_relay_access_queue_refused_total', 'Joining streams answered 503 with Retry-After for waiting past the bound', () => a.refused)
    counter('cockpit_relay_access_queue_abandoned_total', 'Queued access checks dropped because their callers had hung up', () => a.abandoned)
    counter('cockpit_relay_access_checks_coalesced_total', 'Joining streams that shared an identical access check in flight', () => a.coalesced)
  }
  new Counter({
    name: 'cockpit_relay_upstream_calls_total', help: 'Upstream polls by topic', labelNames: ['topic'], registers: [registry],
    collect() { this.reset(); for (const [topic, n] of Object.entries(pollers.stats.calls)) this.inc({ topic }, n) },
  })
  new Counter({
    name: 'cockpit_relay_upstream_errors_total', help: 'Failed upstream polls by topic', labelNames: ['topic'], registers: [registry],
    collect() { this.reset(); for (const [topic, n] of Object.entries(pollers.stats.errors)) this.inc({ topic }, n) },
  })
}
