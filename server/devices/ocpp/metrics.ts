import { Counter, Gauge, type Registry } from 'prom-client'

/**
 * The OCPP server's Prometheus metrics, in the process's registry (server/lib/metrics.ts; GET /metrics
 * and /live/metrics, behind METRICS_TOKEN, docs/decisions.md "Metrics: a token"): charge points connected
 * to this process, refusals at the upgrade, and per charge point its connection, last message and
 * message counts since this process started.
 */
export function ocppMetrics(registry: Registry, { connected, perCp, totals }: {
  /** The charge points connected now, by id. */
  connected: () => { size: number; has(id: string): boolean }
  perCp: Map<string, { in: number; out: number; lastAt: number }>
  totals: { refused: number }
}): void {
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
}
