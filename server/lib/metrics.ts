import crypto from 'node:crypto'
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client'
import type { FastifyInstance } from 'fastify'
import { message, pickLang } from './messages.ts'

/** Seconds: HTTP answers, from a cached read (ms) to a year's statistics (s). */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]
/** Seconds: database statements, mostly well under a millisecond to a report's scan. */
const DB_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
/** Seconds: a job's pass (mail outbox, reports, payments, retention). */
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300]
/** Statement kinds a query is labelled with (the SQL's first word); anything else is `other`. */
const STATEMENTS = new Set(['select', 'insert', 'update', 'delete', 'with', 'begin', 'commit', 'rollback'])
/** A value read at scrape time (database counts) gives up after this long: the scrape still answers. */
const READ_TIMEOUT_MS = 2_000

/** Readings of one ingestion batch by outcome (shared/schemas/ingest.ts IngestResult). */
export interface IngestOutcome {
  accepted: number
  duplicates: number
  rejected: number
}

/**
 * One process's Prometheus registry (docs/operations.md "Metrics", docs/decisions.md "Metrics: one
 * registry per process"), created once by server/app.ts and handed to the parts that report into it,
 * as the clock is. The hot paths only observe or increment; figures that live elsewhere (pool use,
 * outbox size, relay and OCPP counters) are read when Prometheus scrapes.
 */
export interface Metrics {
  /** The app's own metrics (the process's default ones are added by `text`). */
  registry: Registry
  /** An answered HTTP request: `route` is the route's pattern (`/api/…/:id/`), never the raw URL. */
  observeRequest(method: string, route: string, status: number, seconds: number): void
  /** A database statement (`sql` its text, for the statement kind only) and whether it failed. */
  observeQuery(sql: string, seconds: number, failed: boolean): void
  /** One pass of background job `job`; `failed` when it threw. */
  observeJob(job: string, seconds: number, failed: boolean): void
  /** Job `job` started (+1) or ended (−1) a pass in this process. */
  jobRunning(job: string, delta: 1 | -1): void
  /** One ingestion batch that arrived `via` (ingest, mqtt, modbus, simulator) and its outcome. */
  observeIngest(via: string, outcome: IngestOutcome, seconds: number): void
  /**
   * A gauge read at scrape time: `read` answers a number, or numbers by the value of the one label
   * `label`. A read that throws or takes over 2 s leaves the gauge empty for that scrape. A name given
   * again replaces the earlier reader (a job runner started anew reads its own queues).
   */
  gauge(name: string, help: string, read: () => number | Promise<number>): void
  gauge(name: string, help: string, read: () => Record<string, number> | Promise<Record<string, number>>, label: string): void
  /** The Prometheus text exposition of every metric of the process. */
  text(): Promise<string>
  contentType: string
}

/** `p`, or undefined when it takes longer than READ_TIMEOUT_MS or fails. */
async function bounded<T>(p: () => T | Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([Promise.resolve().then(p), new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), READ_TIMEOUT_MS)))])
  } catch {
    return undefined
  } finally {
    clearTimeout(timer)
  }
}

let processRegistry: Registry | undefined

/**
 * prom-client's default metrics (CPU, memory, event-loop lag, GC, handles): figures of the OS process,
 * so collected once per Node process (their event-loop monitor and GC observer are never stopped), and
 * shared by every app it builds (the tests build many).
 */
function processFigures(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry })
  }
  return processRegistry
}

/**
 * A new registry for one app, answered with prom-client's default process metrics ({@link processFigures})
 * and the app's histograms and counters: `http_request_duration_seconds{method,route,status_code}`,
 * `cockpit_db_query_duration_seconds{statement}`, `cockpit_db_query_errors_total{statement}`,
 * `cockpit_job_runs_total{job,outcome}`, `cockpit_job_duration_seconds{job}`, `cockpit_job_running{job}`,
 * `cockpit_ingest_readings_total{via,outcome}`, `cockpit_ingest_batch_duration_seconds{via}`. Not the
 * global default registry: two apps in one process (the tests) each count their own.
 */
export function createMetrics(): Metrics {
  const registry = new Registry()
  const figures = processFigures()
  const http = new Histogram({ name: 'http_request_duration_seconds', help: 'HTTP requests by method, route pattern and status code', labelNames: ['method', 'route', 'status_code'], buckets: HTTP_BUCKETS, registers: [registry] })
  const query = new Histogram({ name: 'cockpit_db_query_duration_seconds', help: 'Database statements by kind (first SQL word)', labelNames: ['statement'], buckets: DB_BUCKETS, registers: [registry] })
  const queryErrors = new Counter({ name: 'cockpit_db_query_errors_total', help: 'Database statements that failed, by kind', labelNames: ['statement'], registers: [registry] })
  const jobRuns = new Counter({ name: 'cockpit_job_runs_total', help: 'Passes of background jobs in this process by outcome (ok, failed)', labelNames: ['job', 'outcome'], registers: [registry] })
  const jobTime = new Histogram({ name: 'cockpit_job_duration_seconds', help: 'Duration of background job passes', labelNames: ['job'], buckets: JOB_BUCKETS, registers: [registry] })
  const jobRunning = new Gauge({ name: 'cockpit_job_running', help: 'Background job passes running in this process', labelNames: ['job'], registers: [registry] })
  const readings = new Counter({ name: 'cockpit_ingest_readings_total', help: 'Meter readings received by ingestion, by channel and outcome (accepted, duplicate, rejected)', labelNames: ['via', 'outcome'], registers: [registry] })
  const batches = new Histogram({ name: 'cockpit_ingest_batch_duration_seconds', help: 'Ingestion batches by channel: time to check and store', labelNames: ['via'], buckets: HTTP_BUCKETS, registers: [registry] })

  function gauge(name: string, help: string, read: () => unknown, label?: string): void {
    registry.removeSingleMetric(name)
    new Gauge({
      name, help, labelNames: label ? [label] : [], registers: [registry],
      async collect() {
        const value = await bounded(read)
        this.reset()
        if (typeof value === 'number') this.set(value)
        else if (value && label) for (const [k, v] of Object.entries(value as Record<string, number>)) this.set({ [label]: k }, v)
      },
    })
  }

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      http.observe({ method, route, status_code: String(status) }, seconds)
    },
    observeQuery(sql, seconds, failed) {
      const word = /^\s*\(?\s*([a-z]+)/i.exec(sql)?.[1]?.toLowerCase() ?? ''
      const statement = STATEMENTS.has(word) ? word : 'other'
      query.observe({ statement }, seconds)
      if (failed) queryErrors.inc({ statement })
    },
    observeJob(job, seconds, failed) {
      jobRuns.inc({ job, outcome: failed ? 'failed' : 'ok' })
      jobTime.observe({ job }, seconds)
    },
    jobRunning(job, delta) {
      jobRunning.inc({ job }, delta)
    },
    observeIngest(via, outcome, seconds) {
      if (outcome.accepted) readings.inc({ via, outcome: 'accepted' }, outcome.accepted)
      if (outcome.duplicates) readings.inc({ via, outcome: 'duplicate' }, outcome.duplicates)
      if (outcome.rejected) readings.inc({ via, outcome: 'rejected' }, outcome.rejected)
      batches.observe({ via }, seconds)
    },
    gauge: gauge as Metrics['gauge'],
    text: () => Registry.merge([figures, registry]).metrics(),
    contentType: registry.contentType,
  }
}

/**
 * Whether an `Authorization` header carries `token` as a Bearer credential (RFC 6750 §2.1): the scheme
 * case-insensitive, the token exact. Both sides are compared as SHA-256 digests in constant time, so a
 * guess learns nothing from the answer's timing, not even the token's length.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(authorization ?? '')
  if (!m) return false
  const digest = (v: string) => crypto.createHash('sha256').update(v, 'utf8').digest()
  return crypto.timingSafeEqual(digest(m[1]), digest(token))
}

/**
 * The route label of a request: its route's pattern, or `(unmatched)` for a URL no route took (a 404,
 * a client page served by the not-found handler), so a scan of random URLs adds no label values.
 */
function routeOf(req: { routeOptions: { url?: string } }): string {
  return req.routeOptions.url ?? '(unmatched)'
}

/**
 * Times every answered request into `http_request_duration_seconds` (Fastify's own elapsed time). A
 * live stream (text/event-stream) is left out: its "duration" is how long a display stayed open.
 */
export function httpMetrics(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (req, reply) => {
    if (String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) return
    metrics.observeRequest(req.method, routeOf(req), reply.statusCode, reply.elapsedTime / 1000)
  })
}

/**
 * GET `path` (`/metrics` on every process, `/live/metrics` on a relay as before): the process's
 * Prometheus text to a caller sending `Authorization: Bearer <token>` (METRICS_TOKEN), else 401 with
 * `WWW-Authenticate: Bearer`. Without a token the endpoint is off: 404, as for any unknown path
 * (docs/decisions.md "Metrics: a token"). Hidden from the OpenAPI: it is an operator's, not an
 * integrator's.
 */
export function metricsRoute(app: FastifyInstance, { path, metrics, token }: { path: string; metrics: Metrics; token?: string }): void {
  app.get(path, { schema: { hide: true } }, async (req, reply) => {
    const lang = pickLang(req.headers['accept-language'])
    if (!token) return reply.code(404).send({ detail: message('notFound', lang) })
    if (!bearerMatches(req.headers.authorization, token)) {
      return reply.code(401).header('WWW-Authenticate', 'Bearer realm="metrics"').header('Cache-Control', 'no-store').send({ detail: message('notAuthenticated', lang) })
    }
    return reply.type(metrics.contentType).header('Cache-Control', 'no-store').send(await metrics.text())
  })
}
