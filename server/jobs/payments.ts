import cron, { type ScheduledTask } from 'node-cron'
import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import type { Job } from './retention.ts'

/**
 * Payment charges (SPEC §4, §9): every 15 minutes, unpaid finished sessions are charged to their user's
 * primary method; declined ones wait for their retry (domain/payments RETRY_DELAYS_MS). Not run at start,
 * so a restart does not charge before the first quarter hour. Superusers can run it at once through
 * POST /api/payments/charge-due/.
 */
export function createPaymentJob({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  let task: ScheduledTask | undefined
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      const r = await domain.payments.chargeDue(new Date())
      if (r.paid || r.declined) log.info(r, 'sessions charged')
    } catch (err) {
      log.error({ err }, 'payment charges failed')
    } finally {
      running = false
    }
  }
  return {
    start() {
      task = cron.schedule('*/15 * * * *', () => void run())
    },
    stop() {
      void task?.stop()
    },
  }
}
