import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { SIMULATOR } from '../../config/defaults.ts'
import type { Job } from './runner.ts'

/**
 * Thin raw 5-second readings (and the ingested readings, server/domain/ingest/service.ts) older than 48 h
 * of the domain's clock (their 15-minute aggregates stay),
 * every hour at :07 and once at start.
 */
export function createRetentionJob({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  return {
    name: 'retention',
    schedule: { cron: '7 * * * *' },
    runAtStart: true,
    async run() {
      const before = new Date(domain.clock.ms() - SIMULATOR.rawRetentionHours * 3600_000)
      const deleted = await domain.measurements.thin(before)
      if (deleted) log.info({ deleted }, 'raw readings thinned to 15-minute aggregates')
      // The ingested readings kept for duplicates and late registers go with them (older ones are refused anyway).
      const ingested = await domain.ingest.thin(before)
      if (ingested) log.info({ deleted: ingested }, 'ingested readings older than the raw retention deleted')
    },
  }
}
