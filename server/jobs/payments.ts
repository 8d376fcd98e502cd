import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import type { Job } from './runner.ts'

/**
 * Payment charges (SPEC §4, §9): every 15 minutes, unpaid finished sessions are charged to their user's
 * primary method; declined ones wait for their retry (domain/payments/debits.ts RETRY_DELAYS_MS). Not run at start,
 * so a restart does not charge before the first quarter hour. Superusers can run it at once through
 * POST /api/payments/charge-due/. With several processes on Postgres one run at a time in the whole
 * cluster (server/jobs/runner.ts). What is due is decided at the domain clock's now (ARCHITECTURE §1 "Time").
 */
export function createPaymentJob({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  return {
    name: 'payments',
    schedule: { cron: '*/15 * * * *' },
    async run() {
      const r = await domain.payments.chargeDue(domain.clock.now())
      if (r.paid || r.declined) log.info(r, 'sessions charged')
    },
  }
}
