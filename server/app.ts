import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import type { AddressInfo } from 'node:net'
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Config } from '../config/env.ts'
import { SHUTDOWN_GRACE_MS } from '../config/defaults.ts'
import { openDatabase } from './db/connection.ts'
import { demoSignIn, seedDemo } from './db/demo-seed.ts'
import { createDomain, type Domain } from './domain/index.ts'
import { hashPassword } from './domain/auth/passwords.ts'
import { apiPlugin } from './api/index.ts'
import { serializerCompiler, validatorCompiler } from './api/openapi.ts'
import { invalidFields } from './api/http.ts'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { AppError, Invalid } from './lib/errors.ts'
import { message, pickLang } from './lib/messages.ts'
import { dbErrorAnswer } from './lib/db-errors.ts'
import { createRelay, relayRoutes, type Relay } from './relay/index.ts'
import { createOwnership } from './devices/simulator/ownership.ts'
import { createSimulator, type Simulator } from './devices/simulator/index.ts'
import { createOcppServer, OCPP_PATH, type OcppServer } from './devices/ocpp/index.ts'
import { createSimOcppLink } from './devices/simulator/ocpp-link.ts'
import { createMqttSubscriber, type MqttSubscriber } from './devices/mqtt/index.ts'
import { createRetentionJob } from './jobs/retention.ts'
import { inProcessRunner, pgBossRunner, type Job, type JobRunner } from './jobs/runner.ts'
import { createMailJob } from './jobs/mail-outbox.ts'
import { createReportJob } from './jobs/reports.ts'
import { createPaymentJob } from './jobs/payments.ts'
import { createDeviceWatchdog } from './jobs/device-watchdog.ts'
import { createImapJob, createSmtpReceiverService } from './jobs/support-inbound.ts'
import { registerSecurity, trustProxyOption } from './api/security.ts'
import { requestId, requestLog } from './api/request-log.ts'
import { databaseCheck, readinessRoutes, type ReadinessCheck } from './api/readiness.ts'
import { compression, serveClient } from './lib/static.ts'
import { createClock, type Clock } from './lib/clock.ts'
import { createMetrics, httpMetrics, metricsRoute, type Metrics } from './lib/metrics.ts'
import { createLoadController, type LoadController } from './control/controller.ts'

declare module 'fastify' {
  interface FastifyInstance {
    domain?: Domain
    relay?: Relay
    simulator?: Simulator
    ocpp?: OcppServer
    /** The MQTT subscriber (MQTT_URL, api role), connected by startBackground. */
    mqtt?: MqttSubscriber

    /** The load controller (server/control/controller.ts), run as a job of the api role. */
    control?: LoadController
    jobs: Job[]
    /** The process's one clock (ARCHITECTURE §1 "Time"): CLOCK_START/CLOCK_SPEED, or the test's. */
    clock: Clock
    /** The process's one Prometheus registry (server/lib/metrics.ts), read by GET /metrics. */
    metrics: Metrics
    /** The SMTP receiver for replies to support tickets (INBOUND_SMTP_PORT), started by startBackground. */
    supportInbound?: { start(): Promise<void>; stop(): Promise<void> }
    /** Runs `jobs` once started (startBackground): timers in this process, or pg-boss on Postgres. */
    jobRunner?: JobRunner
    /** DATABASE_URL when the system of record is a Postgres server (jobs then go through pg-boss). */
    databaseUrl?: string
    /** True once startBackground finished (the simulator's backfill done, jobs started): GET /api/ready. */
    started: boolean
  }
}

const SERVICE_EMAIL = 'relay@cockpit.internal'

/**
 * Build the program for `config` without listening (ARCHITECTURE §6): opens the database when the api or
 * simulator role runs (seeding the demo when DEMO is on), registers /api, /live and the client. Devices
 * and jobs are created but started by main.ts (`startBackground`), so tests decide what runs.
 */
export async function buildApp(config: Config): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    routerOptions: { ignoreTrailingSlash: true },
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: 1 << 20,
    // Request ids: the caller's X-Request-Id when it is one, else a UUID; one line per request, routine
    // traffic at debug (server/api/request-log.ts).
    requestIdHeader: false,
    genReqId: requestId,
    logController: new LogController({ disableRequestLogging: true }),
  })
  requestLog(app)
  app.decorate('jobs', [])
  const clock = config.clock ?? createClock({ start: config.clockStart, speed: config.clockSpeed })
  app.decorate('clock', clock)
  // One registry per process, whatever its roles (docs/operations.md "Metrics"): each part reports into it.
  const metrics = createMetrics()
  app.decorate('metrics', metrics)
  httpMetrics(app, metrics)
  metrics.gauge('cockpit_process_roles', 'The roles this process runs (1 per role)', () => Object.fromEntries(config.roles.map((r) => [r, 1])), 'role')
  app.decorate('databaseUrl', config.databaseUrl)
  app.decorate('started', false)
  // Routes declare zod schemas (fastify-type-provider-zod): Fastify validates requests and serializes answers.
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  await registerSecurity(app)
  // Compression hooks only the routes added after it.
  await compression(app)
  // Graceful close: requests in flight get SHUTDOWN_GRACE_MS to finish; then every connection still
  // open is cut (a client that connected and never sent a request would otherwise hold the close).
  app.addHook('preClose', async () => {
    // A long statistics answer starts no further database piece (503): the grace is not spent on it.
    app.domain?.statistics.stop()
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref()
  })
  app.addHook('onClose', async () => {
    await app.jobRunner?.stop()
    await app.simulator?.stop()
    await app.mqtt?.stop()
  })
  // Before the HTTP server closes (preClose): charge points are told with a clean close, 1001 "going away"
  // (RFC 6455 §7.4.1), and marked disconnected while the database is still open. An upgraded WebSocket is no
  // connection the HTTP server closes itself, so this comes first, or the server's close waits for the
  // charge points. ocpp-rpc's close can wait past the 10 s main.ts allows (seen with no charge point connected): bounded.
  app.addHook('preClose', async () => {
    if (!app.ocpp) return
    let timer: NodeJS.Timeout | undefined
    await Promise.race([app.ocpp.stop().catch(() => undefined), new Promise<void>((r) => (timer = setTimeout(r, 2000)))])
    clearTimeout(timer)
  })
  app.setErrorHandler((err, req, reply) => {
    const lang = pickLang(req.headers['accept-language'])
    // A request refused by its route's zod schema: SPEC §5 field messages, as for Invalid.
    if (hasZodFastifySchemaValidationErrors(err)) err = invalidFields(err.validation.map((v) => ({ ...v.params, code: v.keyword, path: v.instancePath.split('/').filter(Boolean) })))
    if (err instanceof Invalid) {
      return reply.code(err.status).send(Object.fromEntries(Object.entries(err.fields).map(([f, keys]) => [f, keys.map((k) => (typeof k === 'string' ? message(k, lang, err.params) : message(k.key, lang, k.params)))])))
    }
    if (err instanceof AppError) {
      return reply.code(err.status).headers(err.headers).send({ detail: message(err.key, lang, err.params) })
    }
    const status = (err as { statusCode?: number }).statusCode
    if (status && status >= 400 && status < 500) {
      // Malformed JSON, unsupported media type, body too large: Fastify's own 4xx, message kept.
      return reply.code(status).send({ detail: (err as Error).message })
    }
    const db = dbErrorAnswer(err)
    if (db) {
      // Bad input a schema let through: the caller's fault, not the server's.
      req.log.warn({ err, sqlstate: db.code }, 'database refused the request data')
      return reply.code(db.status).send({ detail: message(db.key, lang) })
    }
    req.log.error({ err }, 'unhandled error')
    return reply.code(500).send({ detail: message('serverError', lang) })
  })

  let domain: Domain | undefined
  if (config.roles.includes('api') || config.roles.includes('simulator') || config.roles.includes('ocpp')) {
    const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl, memory: config.memoryDb, dump: config.pgliteDump, log: app.log, onQuery: metrics.observeQuery })
    app.addHook('onClose', async () => database.close())
    const poolUse = database.pool
    metrics.gauge('cockpit_db_pool_connections', 'Database pool connections by state (busy, idle)', () => {
      const p = poolUse()
      return { busy: p.total - p.idle, idle: p.idle }
    }, 'state')
    metrics.gauge('cockpit_db_pool_max', 'Size limit of the database pool', () => poolUse().max)
    metrics.gauge('cockpit_db_pool_waiting', 'Callers waiting for a database connection', () => poolUse().waiting)
    const { loadJwtSecret } = await import('./domain/auth/service.ts')
    domain = createDomain({ db: database.db, clock, log: app.log, jwtSecret: await loadJwtSecret(database.db, config.jwtSecret), publicUrl: config.publicUrl, supportAddress: config.supportAddress, reportsDir: config.reportsDir, payments: config.payments, processMetrics: metrics, demo: config.demo ? demoSignIn(config.demoPassword) : null })
    app.decorate('domain', domain)
    if (config.demo) {
      const seeded = await seedDemo(database.db, { passwordHash: await hashPassword(config.demoPassword), now: clock.now() })
      if (seeded) app.log.info({ installation: seeded }, 'demo facility seeded')
    }
    // An API process told the relays' account (RELAY_UPSTREAM_*) provisions it, so relays started
    // apart (compose.yaml) can sign in; with the relay in this process it is done below.
    if (config.roles.includes('api') && !config.roles.includes('relay') && config.relayUpstream) {
      await domain.auth.ensureServiceAccount(config.relayUpstream.email, config.relayUpstream.password)
    }
  }

  if (config.roles.includes('api') && domain) {
    const mail = domain.mail
    metrics.gauge('cockpit_mail_outbox_messages', 'Mail waiting in the outbox by state (new, retrying after a failed attempt)', () => mail.outboxSize(), 'state')
    app.jobs.push(createMailJob({ domain, smtpUrl: config.smtpUrl, from: config.mailFrom ?? 'Cockpit <no-reply@cockpit.local>', log: app.log }))
    app.jobs.push(createReportJob({ domain, log: app.log }))
    app.jobs.push(createPaymentJob({ domain, log: app.log }))
    app.jobs.push(createDeviceWatchdog({ domain, log: app.log }))
    // Load management: every 10 s of the clock, once across processes (pg-boss's exclusive queue).
    const control = createLoadController({ domain, log: app.log })
    app.decorate('control', control)
    app.jobs.push(control.job())
    // Replies to support tickets: an IMAP mailbox read by a job, and/or the built-in SMTP receiver.
    const supportAddress = config.supportAddress ?? 'support@cockpit.local'
    if (config.imapUrl) app.jobs.push(createImapJob({ domain, supportAddress, imapUrl: config.imapUrl, log: app.log }))
    if (config.inboundSmtpPort !== undefined) {
      const receiver = createSmtpReceiverService({ domain, supportAddress, port: config.inboundSmtpPort, host: config.inboundSmtpHost, log: app.log })
      app.decorate('supportInbound', receiver)
      app.addHook('onClose', async () => receiver.stop())
    }
    const d = domain
    await app.register(async (api) => apiPlugin(api, { domain: d }), { prefix: '/api' })
    // The first superuser (server/domain/auth/first-start.ts): from ADMIN_EMAIL/ADMIN_PASSWORD, else a
    // setup link logged once, while no superuser exists (after the demo seed, whose superuser counts).
    const first = await domain.setup.atStart(config.admin)
    if (first.kind === 'created') app.log.info({ email: first.email }, 'first superuser created from ADMIN_EMAIL')
    if (first.kind === 'taken') app.log.warn({ email: first.email }, `ADMIN_EMAIL ${first.email} belongs to an account that is not a superuser; it was left unchanged (make it one with: npm run admin -- create-superuser ${first.email})`)
    if (first.kind === 'link') app.log.warn({ setup: first.url }, `No superuser yet: open ${first.url} within an hour to create the first one (or start with ADMIN_EMAIL and ADMIN_PASSWORD, or run: npm run admin -- create-superuser EMAIL)`)
  }

  // Meter readings over MQTT (MQTT_URL): into the same ingestion service as the HTTP API's.
  if (config.roles.includes('api') && domain && config.mqtt) {
    const d = domain
    // A message is the installation's devices reporting (SPEC §4: online, waiting changes sent).
    const mqtt = createMqttSubscriber({ ...config.mqtt, ingest: async (installationId, readings, via) => (await d.devices.reported(installationId, clock.now()), d.ingest.ingest(installationId, readings, via)), clock, log: app.log })
    // Stopped by the first onClose hook, before the database closes: messages in hand are stored.
    app.decorate('mqtt', mqtt)
  }

  if (config.roles.includes('relay')) {
    let credentials = config.relayUpstream
    if (!credentials && domain) {
      // All roles in one process: provision the relay's upstream account with a fresh password.
      credentials = { email: SERVICE_EMAIL, password: crypto.randomBytes(24).toString('base64url') }
      await domain.auth.ensureServiceAccount(credentials.email, credentials.password)
    }
    const upstream = () => config.upstreamUrl ?? `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api`
    const relay = createRelay({ upstream, credentials: credentials!, intervals: config.intervals, limits: config.relay, clock })
    app.decorate('relay', relay)
    await app.register(relayRoutes, { relay, metrics, metricsToken: config.metricsToken })
  }

  if (config.roles.includes('simulator') && domain) {
    // SIM_OCPP: the simulated stations speak OCPP to the central system (this process by default).
    const ownUrl = () => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
    const simOcpp = config.simOcpp ? createSimOcppLink({ domain, url: () => config.simOcppUrl ?? ownUrl(), log: app.log }) : undefined
    if (!config.simOcpp) await domain.ocpp.unbindSimulated()
    app.decorate('simulator', createSimulator({ domain, seed: config.simSeed, log: app.log, backfillDays: config.simBackfillDays, ownership: createOwnership(config.databaseUrl, { clock }), ocpp: simOcpp }))
    app.jobs.push(createRetentionJob({ domain, log: app.log }))
  }

  if (config.roles.includes('ocpp') && domain) {
    // OCPP 1.6J charge points: WebSocket upgrades of /ocpp/{id}, beside Fastify's routes.
    const ocpp = createOcppServer({ domain, log: app.log, registry: metrics.registry, heartbeatSeconds: config.ocpp?.heartbeatSeconds })
    app.decorate('ocpp', ocpp)
    app.server.on('upgrade', (req, socket, head) => {
      // Another path: answered here unless another listener takes WebSocket upgrades too.
      if (!ocpp.handleUpgrade(req, socket, head) && app.server.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
    })
    // A relay in this process shows a meter value at once rather than at the next stations poll
    // (docs/decisions.md "Relay: pokes instead of waiting for the interval").
    const relay = app.relay
    if (relay) domain.ocpp.onSamplesWritten((ids) => { for (const id of ids) relay.pollers.poke(id, 'stations') })
  }

  // Liveness for every role; readiness (503 until the background start — the first backfill after an
  // outage can take a minute — is done, and while a check of this process's roles fails) so a load
  // balancer or a test sends users only then.
  const checks: Record<string, ReadinessCheck> = {}
  if (domain) checks.database = databaseCheck(domain.db as never)
  const relayForReady = app.relay
  if (relayForReady) checks.relay_upstream = () => relayForReady.upstream.signInProblem()
  const ocppForReady = app.ocpp
  if (ocppForReady) checks.ocpp = async () => (ocppForReady.accepting() ? null : 'not accepting charge points (stopped or not started)')
  readinessRoutes(app, { clock, roles: config.roles, checks })
  // Prometheus text on every process, behind METRICS_TOKEN (off without it); deploy/nginx.conf keeps it
  // off the public side.
  metricsRoute(app, { path: '/metrics', metrics, token: config.metricsToken })

  // A relay in this process shows a facility going offline or coming back at once, not at the next info poll.
  if (app.relay && domain) {
    const relay = app.relay
    domain.devices.onOnlineChanged((ids) => { for (const id of ids) relay.pollers.poke(id, 'info') })
  }

  const notFound = (req: FastifyRequest, reply: FastifyReply) => reply.code(404).send({ detail: message('notFound', pickLang(req.headers['accept-language'])) })
  // A plain request to the OCPP path (a browser, a mistyped wallbox URL with http://): 426 with what to
  // use where the role runs (RFC 9110 §15.5.22), 404 where it does not — never the web page.
  const ocppRole = config.roles.includes('ocpp')
  for (const url of [OCPP_PATH, `${OCPP_PATH}/*`]) {
    app.all(url, async (req, reply) => {
      if (!ocppRole) return notFound(req, reply)
      return reply.code(426).header('upgrade', 'websocket').header('connection', 'Upgrade').send({ detail: 'OCPP 1.6J charge points connect here over WebSocket (ws:// or wss://, subprotocol ocpp1.6)' })
    })
  }
  const CLIENT_DIR = config.clientDir ?? path.resolve(import.meta.dirname, '../dist/client')
  if (fs.existsSync(path.join(CLIENT_DIR, 'index.html')) && (config.roles.includes('api') || config.roles.includes('relay'))) {
    await serveClient(app, CLIENT_DIR, notFound)
  } else {
    app.setNotFoundHandler(notFound)
  }
  return app
}

/** Start what runs in the background: the simulator (with its backfill) and scheduled jobs. */
export async function startBackground(app: FastifyInstance): Promise<void> {
  app.ocpp?.start()
  if (app.simulator) await app.simulator.start()
  await app.supportInbound?.start()
  await app.mqtt?.start()
  // Several API processes may share one Postgres: there pg-boss runs each job once in the cluster;
  // the embedded database has one process, so timers in it suffice.
  app.jobRunner = app.databaseUrl ? pgBossRunner(app.jobs, app.databaseUrl, app.log, app.clock, { metrics: app.metrics }) : inProcessRunner(app.jobs, app.log, app.clock, app.metrics)
  await app.jobRunner.start()
  app.started = true
}
