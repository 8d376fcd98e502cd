import cron, { type ScheduledTask } from 'node-cron'
import type { FastifyBaseLogger } from 'fastify'
import type { Domain } from '../domain/index.ts'
import type { Job } from './retention.ts'

/**
 * Scheduled reports (issue 5 §5): every 15 minutes, and once at start so a run missed while the server
 * was down is made up (server/domain/reports/periods.ts decides what is due).
 */
export function createReportJob({ domain, log, now = () => new Date() }: { domain: Domain; log: FastifyBaseLogger; now?: () => Date }): Job {
  let task: ScheduledTask | undefined
  let running = false
  const run = async () => {
    if (running) return
    running = true
    try {
      const done = await domain.reports.runDue(now())
      if (done.length) log.info({ runs: done.map((d) => ({ report: d.report, interval: d.period.interval, from: d.period.from })) }, 'reports sent')
    } catch (err) {
      log.error({ err }, 'report run failed')
    } finally {
      running = false
    }
  }
  return {
    start() {
      task = cron.schedule('*/15 * * * *', () => void run())
      void run()
    },
    stop() {
      void task?.stop()
    },
  }
}
