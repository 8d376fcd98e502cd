import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { SIMULATOR } from '../../config/defaults.ts'
import type { Job } from './runner.ts'

/**
 * Thin raw 5-second readings older than 48 h of the domain's clock (their 15-minute aggregates stay),
 * every hour at :07 and once at start.
 */
export function createRetentionJob({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  return {
    name: 'retention',
    schedule: { cron: '7 * * * *' },
    runAtStart: true,
    async run() {
      const deleted = await domain.measurements.thin(new Date(domain.clock.ms() - SIMULATOR.rawRetentionHours * 3600_000))
      if (deleted) log.info({ deleted }, 'raw readings thinned to 15-minute aggregates')
    },
  }
}
