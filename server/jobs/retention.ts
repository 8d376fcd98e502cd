import cron, { type ScheduledTask } from 'node-cron'
import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { SIMULATOR } from '../../config/defaults.ts'

export interface Job {
  start(): void
  stop(): void
}

/**
 * Thin raw 5-second readings older than 48 h (their 15-minute aggregates stay), every hour at :07.
 */
export function createRetentionJob({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  let task: ScheduledTask | undefined
  const run = async () => {
    const deleted = await domain.measurements.thin(new Date(Date.now() - SIMULATOR.rawRetentionHours * 3600_000))
    if (deleted) log.info({ deleted }, 'raw readings thinned to 15-minute aggregates')
  }
  return {
    start() {
      task = cron.schedule('7 * * * *', () => void run().catch((err) => log.error({ err }, 'retention failed')))
      void run().catch((err) => log.error({ err }, 'retention failed'))
    },
    stop() {
      void task?.stop()
    },
  }
}
