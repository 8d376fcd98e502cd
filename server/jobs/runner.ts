import { CronExpressionParser } from 'cron-parser'
import { PgBoss } from 'pg-boss'
import type { FastifyBaseLogger } from 'fastify'
import type { Clock, ClockTimer } from '../lib/clock.ts'
import type { Metrics } from '../lib/metrics.ts'

/** What a runner reports of its jobs (server/lib/metrics.ts): passes, their time and outcome, queue depth. */
export type JobMetrics = Pick<Metrics, 'observeJob' | 'jobRunning' | 'gauge'>

/**
 * One pass of `job`: a failure is logged (`job failed`) and counted, never thrown, so the schedule goes
 * on; its duration (performance.now(), a duration and not a time of day) and outcome go to `metrics`.
 */
async function runPass(job: Job, log: FastifyBaseLogger, metrics?: JobMetrics): Promise<void> {
  const started = performance.now()
  let failed = false
  metrics?.jobRunning(job.name, 1)
  try {
    await job.run()
  } catch (err) {
    failed = true
    log.error({ err, job: job.name }, 'job failed')
  } finally {
    metrics?.jobRunning(job.name, -1)
    metrics?.observeJob(job.name, (performance.now() - started) / 1000, failed)
  }
}

/**
 * A background job (payments, report dispatch, mail outbox, retention): what runs and when. `run` does
 * one whole pass over what is due and is safe to repeat (state in the database says what is left).
 */
export interface Job {
  /** Queue name, unique: payments, reports, mail-outbox, retention. */
  name: string
  /** A cron expression (minute resolution, UTC) or an interval in seconds. */
  schedule: { cron: string } | { everySeconds: number }
  /** Also run once at start (a run missed while the server was down is made up). */
  runAtStart?: boolean
  run(): Promise<void>
}

/**
 * The first instant strictly after `after` that the cron expression `expression` names, in UTC. Parsed
 * by cron-parser, the parser pg-boss schedules with on Postgres, so an expression means the same in
 * both runners (standard cron: when day of month and weekday are both restricted, either matches).
 *
 * @throws RangeError for an expression cron-parser refuses
 */
export function nextCronRun(expression: string, after: Date): Date {
  try {
    return CronExpressionParser.parse(expression, { currentDate: after, tz: 'UTC', strict: false }).next().toDate()
  } catch (err) {
    throw new RangeError(`not a cron expression: ${expression} (${(err as Error).message})`)
  }
}

/** Starts and stops the jobs of a process. */
export interface JobRunner {
  start(): Promise<void>
  stop(): Promise<void>
}

/**
 * The embedded database (one process per DATA_DIR, ARCHITECTURE §1): timers of the process's clock
 * (ARCHITECTURE §1 "Time"), so CLOCK_SPEED and a test clock move the schedules too; a job never overlaps
 * itself. A cron job fires at the clock's next instant its expression names ({@link nextCronRun}, UTC).
 * Each pass is timed and counted in `metrics` (server/lib/metrics.ts).
 */
export function inProcessRunner(jobs: Job[], log: FastifyBaseLogger, clock: Clock, metrics?: JobMetrics): JobRunner {
  const stops: (() => void)[] = []
  const guarded = (job: Job) => {
    let running = false
    return async () => {
      if (running) return
      running = true
      try {
        await runPass(job, log, metrics)
      } finally {
        running = false
      }
    }
  }
  return {
    async start() {
      // No queue in one process: a tick that finds its job still running is skipped, none waits.
      metrics?.gauge('cockpit_job_queue_depth', 'Jobs queued and not yet started (pg-boss on Postgres; 0 in one process)', () => Object.fromEntries(jobs.map((j) => [j.name, 0])), 'job')
      for (const job of jobs) {
        const run = guarded(job)
        if ('cron' in job.schedule) {
          const expression = job.schedule.cron
          let timer: ClockTimer | undefined
          let stopped = false
          // The next fire time is counted from the one just due, so a timer that fires a little early
          // (real timers may) does not fire twice for one instant.
          const arm = (after: Date) => {
            if (stopped) return
            const due = nextCronRun(expression, after)
            timer = clock.setTimeout(() => {
              void run()
              arm(new Date(Math.max(clock.ms(), due.getTime())))
            }, due.getTime() - clock.ms()).unref()
          }
          arm(clock.now())
          stops.push(() => {
            stopped = true
            clock.clearTimeout(timer)
          })
        } else {
          const timer = clock.setInterval(() => void run(), job.schedule.everySeconds * 1000).unref()
          stops.push(() => clock.clearInterval(timer))
        }
        if (job.runAtStart) void run()
      }
    },
    async stop() {
      for (const stop of stops.splice(0)) stop()
    },
  }
}

/**
 * Several processes on one Postgres: pg-boss queues in the `pgboss` schema. Each job has
 * a queue with the `exclusive` policy (one job queued or active at a time, across every process), so a
 * schedule tick or an interval send by three processes still gives one run, and a run never overlaps
 * the next. Cron schedules are pg-boss's own (one job per tick for the whole cluster); interval jobs
 * are sent by every process, and the policy keeps one. A process that dies mid-run leaves its job to
 * expire (`expireInSeconds`), after which the next tick runs it elsewhere.
 *
 * Time (ARCHITECTURE §1, docs/decisions.md "One clock: jobs and the relay's polls"): interval sends
 * are timers of `clock`; cron ticks come from pg-boss, that is from the database server's real clock,
 * whatever CLOCK_START/CLOCK_SPEED say. What a run then finds due, each job decides with the clock's now.
 * `metrics` gets each pass run here and, at scrape time, the queues' depth (pg-boss's queued count).
 */
export function pgBossRunner(jobs: Job[], databaseUrl: string, log: FastifyBaseLogger, clock: Clock, opts: { pollingIntervalSeconds?: number; metrics?: JobMetrics } = {}): JobRunner {
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'pgboss', max: 3, application_name: 'cockpit-jobs' })
  boss.on('error', (err) => log.error({ err }, 'job queue error'))
  const timers: ClockTimer[] = []
  const send = (job: Job) => boss.send(job.name, null).catch((err) => log.error({ err, job: job.name }, 'job not queued'))
  return {
    async start() {
      await boss.start()
      opts.metrics?.gauge('cockpit_job_queue_depth', 'Jobs queued and not yet started (pg-boss on Postgres; 0 in one process)', async () => {
        const depth: Record<string, number> = {}
        for (const job of jobs) depth[job.name] = (await boss.getQueue(job.name))?.queuedCount ?? 0
        return depth
      }, 'job')
      for (const job of jobs) {
        if (!(await boss.getQueue(job.name))) {
          await boss.createQueue(job.name, { policy: 'exclusive', retryLimit: 0, expireInSeconds: 15 * 60 }).catch((err: Error) => {
            // Another process created it at the same moment.
            if (!/already exists|duplicate/i.test(err.message)) throw err
          })
        }
        await boss.work(job.name, { pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 2 }, () => runPass(job, log, opts.metrics))
        if ('cron' in job.schedule) await boss.schedule(job.name, job.schedule.cron, null, { tz: 'UTC' })
        else {
          timers.push(clock.setInterval(() => void send(job), job.schedule.everySeconds * 1000).unref())
        }
        if (job.runAtStart) await send(job)
      }
    },
    async stop() {
      for (const t of timers.splice(0)) clock.clearInterval(t)
      await boss.stop({ graceful: true, timeout: 3000 }).catch((err) => log.warn({ err }, 'job queue stop'))
    },
  }
}
