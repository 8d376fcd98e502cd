import { Counter, Gauge, Histogram, type Registry } from 'prom-client'

/**
 * The OCPP server's Prometheus metrics, in the process's registry (server/lib/metrics.ts; GET /metrics
 * and /live/metrics, behind METRICS_TOKEN, docs/decisions.md "Metrics: a token"): charge points connected
 * to this process, refusals at the upgrade, per charge point its connection, last message and
 * message counts since this process started, and the time to handle a charge point's message (its
 * database work, after its earlier messages). Returns what the server calls for each handled message.
 */
export function ocppMetrics(registry: Registry, { connected, perCp, totals }: {
  /** The charge points connected now, by id. */
  connected: () => { size: number; has(id: string): boolean }
  perCp: Map<string, { in: number; out: number; lastAt: number }>
  totals: { refused: number }
}): { handled(seconds: number, failed: boolean): void } {
  new Gauge({ name: 'cockpit_ocpp_connected', help: 'OCPP charge points connected to this process', registers: [registry], collect() { this.set(connected().size) } })
  new Counter({ name: 'cockpit_ocpp_refused_total', help: 'OCPP connections refused at the upgrade', registers: [registry], collect() { this.reset(); this.inc(totals.refused) } })
  new Gauge({
    name: 'cockpit_ocpp_charge_point_connected', help: 'Whether the charge point is connected (1) to this process', labelNames: ['charge_point'], registers: [registry],
    collect() { this.reset(); for (const id of perCp.keys()) this.set({ charge_point: id }, connected().has(id) ? 1 : 0) },
  })
  new Gauge({
    name: 'cockpit_ocpp_charge_point_last_message_seconds', help: 'Unix time of the last message from the charge point', labelNames: ['charge_point'], registers: [registry],
    collect() { this.reset(); for (const [id, c] of perCp) if (c.lastAt) this.set({ charge_point: id }, c.lastAt / 1000) },
  })
  new Counter({
    name: 'cockpit_ocpp_messages_total', help: 'OCPP messages by charge point and direction', labelNames: ['charge_point', 'direction'], registers: [registry],
    collect() { this.reset(); for (const [id, c] of perCp) { this.inc({ charge_point: id, direction: 'in' }, c.in); this.inc({ charge_point: id, direction: 'out' }, c.out) } },
  })
  const handling = new Histogram({ name: 'cockpit_ocpp_message_duration_seconds', help: 'Time to handle a message from a charge point', buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry] })
  const failures = new Counter({ name: 'cockpit_ocpp_message_failures_total', help: 'Messages from charge points answered InternalError (the central system failed)', registers: [registry] })
  return {
    handled(seconds, failed) {
      handling.observe(seconds)
      if (failed) failures.inc()
    },
  }
}
