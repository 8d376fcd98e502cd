import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import type { Job } from './runner.ts'

/**
 * Scheduled reports: every 15 minutes, and once at start so a run missed while the server
 * was down is made up (server/domain/reports/periods.ts decides what is due). Files written to a report's
 * output directory are logged ("report files written", paths relative to the installation's folder).
 * What is due is decided at the domain clock's now (ARCHITECTURE §1 "Time").
 */
export function createReportJob({ domain, log }: { domain: Domain; log: FastifyBaseLogger }): Job {
  return {
    name: 'reports',
    schedule: { cron: '*/15 * * * *' },
    runAtStart: true,
    async run() {
      const done = await domain.reports.runDue(domain.clock.now())
      if (done.length) log.info({ runs: done.map((d) => ({ report: d.report, interval: d.period.interval, from: d.period.from })) }, 'reports sent')
      // The server's journal names every file written to an output directory, and every one that could not be.
      for (const d of done) {
        if (d.files.length) log.info({ report: d.report, interval: d.period.interval, from: d.period.from, files: d.files }, 'report files written')
        if (d.error) log.error({ report: d.report, interval: d.period.interval, from: d.period.from, error: d.error }, 'report files not written')
      }
    },
  }
}
