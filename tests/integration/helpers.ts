import type { AddressInfo } from 'node:net'
import crypto from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { inject } from 'vitest'
import type { FastifyInstance } from 'fastify'
import request from 'supertest'
import { buildApp } from '../../server/app.ts'
import { loadConfig, type Config, type Role } from '../../config/env.ts'
import ocppRpc from 'ocpp-rpc'
import { createClock, createTestClock, type Clock, type TestClock } from '../../server/lib/clock.ts'
import { createSimulator, type Simulator } from '../../server/devices/simulator/index.ts'
import { AT, TEST_SIM_SEED } from './hours.ts'
import { SIMULATOR } from '../../config/defaults.ts'

export { AT, HOURS, stationFreeAt, demoCarAt, TEST_SIM_SEED } from './hours.ts'
import { pgliteTemplate, postgresDatabase } from './template.ts'

export const PASSWORD = 'Cockpit-2026!'

let databases = 0
const databaseName = () => `cockpit_${process.pid}_${++databases}_${crypto.randomBytes(3).toString('hex')}`
/**
 * A fresh, empty database for one app: on TEST_DB=postgres a new database on the run's throwaway cluster
 * (tests/postgres/global-setup.ts), else undefined (the app takes an in-memory PGlite).
 */
export async function testDatabaseUrl(): Promise<string | undefined> {
  const admin = inject('pgUrl')
  if (!admin) return undefined
  const name = databaseName()
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    // template0: concurrent CREATE DATABASE from template1 fails while another one copies it.
    await client.query(`CREATE DATABASE ${name} TEMPLATE template0`)
  } finally {
    await client.end()
  }
  const url = new URL(admin)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * Where a new app's database starts: with the demo already seeded at `seedAt` when a template serves
 * that day (tests/integration/template.ts), else empty, for the app to migrate and seed. On
 * TEST_DB=postgres a new database on the run's cluster, else an in-memory PGlite (from the template's dump).
 */
async function seededDatabase(seedAt: Date): Promise<Pick<Config, 'databaseUrl' | 'pgliteDump'>> {
  const admin = inject('pgUrl')
  if (admin) return { databaseUrl: await postgresDatabase(admin, databaseName(), PASSWORD, seedAt) }
  return { pgliteDump: await pgliteTemplate(PASSWORD, seedAt) }
}

/**
 * Build the app with the demo seeded, listening on a free port: on `databaseUrl`, else on a new database
 * (in-memory PGlite, or Postgres with TEST_DB=postgres) copied from the run's seeded template
 * (see seededDatabase). `clock` is the app's one clock (ARCHITECTURE §1 "Time"): by default it starts at
 * {@link AT}.morning and runs in real time, so no test's expectations hang on the hour the suite runs;
 * a test of another hour passes its own (`createClock({ start })`, or `createTestClock` to move time
 * itself). Test code asks the app for "now" (`app.clock.now()`), never the machine.
 */
export async function startApp(opts: { databaseUrl?: string; roles?: Role[]; intervals?: Partial<Config['intervals']>; upstreamUrl?: string; relayUpstream?: Config['relayUpstream']; relay?: Config['relay']; smtpUrl?: string; trustProxy?: Config['trustProxy']; clientDir?: string; ocpp?: Config['ocpp']; simOcpp?: boolean; reportsDir?: string; simSeed?: number; clock?: Clock; simBackfillDays?: number; metricsToken?: string; payments?: Config['payments'] } = {}) {
  const roles = opts.roles ?? ['api', 'relay', 'simulator']
  const clock = opts.clock ?? createClock({ start: new Date(AT.morning) })
  // A relay alone has no database (server/app.ts).
  const database = opts.databaseUrl ? { databaseUrl: opts.databaseUrl } : roles.some((r) => r !== 'relay') ? await seededDatabase(clock.now()) : {}
  const config: Config = {
    ...loadConfig({}),
    smtpUrl: opts.smtpUrl,
    trustProxy: opts.trustProxy ?? false,
    clientDir: opts.clientDir,
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    ...database,
    memoryDb: true,
    demo: true,
    demoPassword: PASSWORD,
    roles,
    upstreamUrl: opts.upstreamUrl,
    relayUpstream: opts.relayUpstream,
    simSeed: opts.simSeed ?? 7,
    // The simulator's first backfill (30 days by default, about a minute and a half here); a test of
    // the start itself picks a shorter one.
    ...(opts.simBackfillDays !== undefined ? { simBackfillDays: opts.simBackfillDays } : {}),
    clock,
    logLevel: 'silent',
    intervals: { metrics: 300, stations: 300, sessions: 300, info: 300, energy_return: 300, ...opts.intervals },
    relay: { maxStreamsPerUser: 100, ...opts.relay },
    ocpp: opts.ocpp ?? { heartbeatSeconds: 30 },
    simOcpp: opts.simOcpp,
    // METRICS_TOKEN: without one the Prometheus endpoint is off (docs/decisions.md "Metrics: a token").
    metricsToken: opts.metricsToken,
    // PAYMENT_PROVIDER: the demo unless a test points Stripe at its fake (tests/integration/stripe-fake.ts).
    payments: opts.payments ?? { provider: 'demo' },
    // Reports' output directories: a folder of this app's own, created only when a report writes.
    reportsDir: opts.reportsDir ?? path.join(os.tmpdir(), `cockpit-reports-${process.pid}-${crypto.randomBytes(4).toString('hex')}`),
  }
  const app = await buildApp(config)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  return { app, url, config }
}

/**
 * An app (roles api and simulator) on a test clock at `at`, with a simulator of its own whose
 * `backfillDays` of history are filled in and which steps only when the test advances `clock`. The
 * app's own simulator would backfill 30 days; a day or none shows a chosen hour in a fraction of the
 * time. Stop it with `close()`.
 */
export async function startSimulatedAt(at: string, { seed = TEST_SIM_SEED, backfillDays = 0 }: { seed?: number; backfillDays?: number } = {}): Promise<{ app: FastifyInstance; clock: TestClock; simulator: Simulator; close(): Promise<void> }> {
  const clock = createTestClock(new Date(at))
  const { app } = await startApp({ roles: ['api', 'simulator'], simSeed: seed, clock })
  const simulator = createSimulator({ domain: app.domain!, seed, log: app.log, backfillDays })
  await simulator.start()
  return {
    app, clock, simulator,
    async close() {
      await simulator.stop()
      await app.close()
    },
  }
}

/**
 * Advance `booted`'s clock by one simulator step and wait (up to 30 s) until that step is done: the
 * simulator saves its state last, stamped with the step's instant. The step before must be over
 * first, installations after `installationId` included: a clock that passes a step while the simulator
 * is still busy skips it (server/devices/simulator/index.ts `schedule`).
 */
export async function stepSimulator(booted: { app: FastifyInstance; clock: TestClock; simulator: Simulator }, installationId = 1): Promise<void> {
  await booted.simulator.idle()
  const due = booted.clock.ms() + SIMULATOR.stepMs
  await booted.clock.advance(SIMULATOR.stepMs)
  const db = booted.app.domain!.db
  await until(async () => (await db.selectFrom('simulator_state').select('saved_at').where('installation_id', '=', installationId).executeTakeFirst())?.saved_at.getTime() === due, 30_000, 'the simulator step')
  await booted.simulator.idle()
}

/** The ids of the demo's six stations ("Station 1"…"Station 6" of installation 1), in order. */
export async function demoStationIds(app: FastifyInstance): Promise<number[]> {
  return (await app.domain!.db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).where('name', 'like', 'Station %').orderBy('id').execute()).map((s) => s.id)
}

/** A charging station as GET /api/cockpit/installations/{id}/charging_stations/ answers it (the fields load tests read). */
export type StationJson = { id: number; power_kw: number; status: string; status_code: number; alerts: string[]; reason: { code: string; text: string; until: string | null } }

/** The stations `ids` of installation 1 as `token`'s holder gets them, in `lang` (reasons are translated). */
export async function stationsOf(app: FastifyInstance, token: string, ids: number[], lang = 'en'): Promise<StationJson[]> {
  const r = await request(app.server).get('/api/cockpit/installations/1/charging_stations/').set(auth(token)).set('Accept-Language', lang).expect(200)
  return (r.body.results as StationJson[]).filter((s) => ids.includes(s.id))
}

/** Sign in and return the access token. */
export async function login(app: FastifyInstance, email: string, password = PASSWORD): Promise<string> {
  const r = await request(app.server).post('/api/authentication/token/').send({ email, password }).expect(200)
  return r.body.access as string
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` })

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * Wait for `p`, an answer that needs a timer on the test `clock` (the OCPP service's meter batch): the
 * clock moves 100 ms for every 5 ms of real time until `p` settles.
 */
export async function answerOnClock<T>(clock: TestClock, p: Promise<T>): Promise<T> {
  let done = false
  const watched = p.finally(() => (done = true))
  while (!done) {
    await sleep(5)
    if (!done) await clock.advance(100)
  }
  return watched
}

/** The id of the demo's station bound to the OCPP charge point `chargePointId` (DEMO-CP-1 in the seed). */
export async function stationOfChargePoint(app: FastifyInstance, chargePointId = 'DEMO-CP-1'): Promise<number> {
  return (await app.domain!.db.selectFrom('ocpp_charge_points').select('station_id').where('id', '=', chargePointId).executeTakeFirstOrThrow()).station_id
}

/** Wait until `check` returns a truthy value (polling every 50 ms), or fail after `ms`. */
export async function until<T>(check: () => T | Promise<T>, ms = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const end = performance.now() + ms
  for (;;) {
    const v = await check()
    if (v) return v as NonNullable<T>
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(50)
  }
}

/** Add a second installation with one station and an admin of its own (cross-installation checks). */
export async function addOtherInstallation(app: FastifyInstance): Promise<{ installationId: number; stationId: number; adminEmail: string }> {
  const db = app.domain!.db
  const inst = await db.insertInto('installations').values({ name: 'Other Site Bern', timezone: 'Europe/Zurich', currency: 'CHF', latitude: 46.95, longitude: 7.44, pay_enabled: false, online: true, offline_since: null, alerts: '[]' }).returning('id').executeTakeFirstOrThrow()
  const meter = await db.insertInto('meters').values({ installation_id: inst.id, object_id: null, meter_type: 'charging_station', name: 'm', capacity: 22 }).returning('id').executeTakeFirstOrThrow()
  const st = await db.insertInto('charging_stations').values({ installation_id: inst.id, object_id: null, meter_id: meter.id, device_id: 'BE-1', name: 'Bern 1', description: '', capacity_kw: 22, charging_mode: 'instant', status: 'noCar', status_code: 0, alerts: '[]', rfid_lernmodus: 0, power_kw: 0, current_session_id: null }).returning('id').executeTakeFirstOrThrow()
  const hash = (await db.selectFrom('users').select('password_hash').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).password_hash
  const u = await db.insertInto('users').values({ email: 'bern-admin@example.com', password_hash: hash, first_name: 'Bea', last_name: 'Bern', title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'de', last_login: null, previous_login: null }).returning('id').executeTakeFirstOrThrow()
  await db.insertInto('installation_users').values({ user_id: u.id, installation_id: inst.id, role: 'installation_admin' }).execute()
  return { installationId: inst.id, stationId: st.id, adminEmail: 'bern-admin@example.com' }
}

/** Tokens of the three demo roles and of the second installation's admin. */
export type RoleTokens = Record<'super' | 'admin' | 'user' | 'bern', string>

/**
 * The usual fixture for rights tests: the app with `roles`, a second installation (see
 * addOtherInstallation) and tokens of superuser, admin, user and the other installation's admin.
 */
export async function startWithTokens(roles: Role[] = ['api']) {
  const started = await startApp({ roles })
  const other = await addOtherInstallation(started.app)
  const tokens: RoleTokens = {
    super: await login(started.app, 'super@example.com'),
    admin: await login(started.app, 'admin@example.com'),
    user: await login(started.app, 'user@example.com'),
    bern: await login(started.app, other.adminEmail),
  }
  // The demo installation (server/db/demo-seed.ts), the one the tokens above administer or use.
  const demo = await started.app.domain!.db.selectFrom('installations').select('id').where('name', '=', 'Demo Residence Zürich').executeTakeFirstOrThrow()
  return { ...started, other, tokens, demoInstallationId: demo.id }
}

/**
 * The seeded second demo installation "Demo Office Bern" (server/db/demo-seed.ts): its id, station and
 * card ids, and its admin (admin2@example.com) with a token.
 */
export async function seededSecond(app: FastifyInstance) {
  const db = app.domain!.db
  const inst = await db.selectFrom('installations').select('id').where('name', '=', 'Demo Office Bern').executeTakeFirstOrThrow()
  const stations = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', inst.id).orderBy('id').execute()
  const rfids = await db.selectFrom('rfids').select('id').where('installation_id', '=', inst.id).orderBy('id').execute()
  const admin = await db.selectFrom('users').select('id').where('email', '=', 'admin2@example.com').executeTakeFirstOrThrow()
  return {
    installationId: inst.id,
    stationIds: stations.map((s) => s.id),
    rfidIds: rfids.map((r) => r.id),
    adminId: admin.id,
    adminEmail: 'admin2@example.com',
    adminToken: await login(app, 'admin2@example.com'),
  }
}

/** Who signs in for the authorization matrix: nobody, the resident, both admins, the superuser. */
export type MatrixActor = 'anon' | 'resident' | 'admin1' | 'admin2' | 'super'

/**
 * Ids of one installation's objects for the authorization matrix: for installation 1, `foreign` objects
 * are ones the resident (user@example.com) has no right to and `readable` the station they may only read.
 */
export interface TenantObjects {
  installationId: number
  station: { id: number; device_id: string }
  readableStation?: { id: number; device_id: string }
  rfidId: number
  ownRfidId?: number
  timerId: number
  rateId: number
  reportId: number
  objectId: number
  sessionId: number
  /** a member of this installation only (not the resident): the target of identity changes */
  userId: number
  paymentInfoId: number
  /** the neighbour's shortcut in this installation */
  shortcutId?: number
  /** the neighbour's support ticket */
  conversationId?: number
}

/**
 * Two installations with an object of every kind each, and tokens of every matrix actor: the demo's two
 * seeded installations and their admins (admin@ and admin2@example.com). Objects a seed lacks are
 * added straight in the database, so the matrix has a target for every path parameter.
 */
export async function startTenants() {
  const started = await startApp({ roles: ['api'] })
  const { app } = started
  const db = app.domain!.db
  // The demo's second installation ("Demo Office Bern", admin2@example.com).
  const other = await seededSecond(app)
  const hash = (await db.selectFrom('users').select('password_hash').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).password_hash
  const userIn = async (installationId: number, email: string) => {
    const u = await db.insertInto('users').values({ email, password_hash: hash, first_name: 'Nina', last_name: 'Nachbar', title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'en', last_login: null, previous_login: null }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('installation_users').values({ user_id: u.id, installation_id: installationId, role: 'installation_user' }).execute()
    await db.insertInto('payment_methods').values({ user_id: u.id, kind: 'credit_card', brand: 'Visa', masked: '•••• 1111', exp_month: 12, exp_year: 2030, provider: 'demo', token: `tok-${email}` }).execute()
    return u.id
  }
  const objectsOf = async (installationId: number, neighbour: number, resident?: number): Promise<TenantObjects> => {
    const stations = await db.selectFrom('charging_stations').select(['id', 'device_id', 'object_id']).where('installation_id', '=', installationId).orderBy('id').execute()
    const readable = resident
      ? (await db.selectFrom('permissions').select('object_id').where('user_id', '=', resident).where('object_type', '=', 'charging_station').where('level', '!=', 'none').execute()).map((p) => p.object_id)
      : []
    const station = stations.find((s) => !readable.includes(s.id))!
    let rfids = await db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', installationId).orderBy('id').execute()
    if (!rfids.some((r) => r.user_id !== resident)) {
      await db.insertInto('rfids').values({ installation_id: installationId, user_id: neighbour, tag: `MATRIX${installationId}`, description: 'matrix', active: true, all_stations: true }).execute()
      rfids = await db.selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', installationId).orderBy('id').execute()
    }
    const rfid = rfids.find((r) => r.user_id !== resident && r.user_id !== null) ?? rfids.find((r) => r.user_id !== resident)!
    const one = async <T>(q: Promise<T | undefined>, make: () => Promise<T>) => (await q) ?? make()
    const timer = await one(db.selectFrom('timers').select('id').where('installation_id', '=', installationId).where('object_type', '=', 'charging_station').where('object_id', '=', station.id).executeTakeFirst(),
      () => db.insertInto('timers').values({ installation_id: installationId, object_type: 'charging_station', object_id: station.id, repeat_monday: true, repeat_tuesday: false, repeat_wednesday: false, repeat_thursday: false, repeat_friday: false, repeat_saturday: false, repeat_sunday: false, start_time: '22:00', description: 'matrix', charging_mode: 'instant' }).returning('id').executeTakeFirstOrThrow())
    const rate = await one(db.selectFrom('rates').select('id').where('installation_id', '=', installationId).where('kind', '=', 'power').executeTakeFirst(),
      () => db.insertInto('rates').values({ installation_id: installationId, kind: 'power', name: 'matrix', start_date: '2030-01-01', end_date: null, prices: JSON.stringify({ general: 20 }) as never, time_spans: '[]' }).returning('id').executeTakeFirstOrThrow())
    const report = await one(db.selectFrom('reports').select('id').where('installation_id', '=', installationId).executeTakeFirst(),
      () => db.insertInto('reports').values({ installation_id: installationId, name: 'matrix', report_type: 'electrical', year: null, recipients: JSON.stringify(['a@example.com']) as never, output_directory: null, intervals: JSON.stringify(['m']) as never, show_deltas: false, language: 'en' }).returning('id').executeTakeFirstOrThrow())
    const object = await one(db.selectFrom('objects').select('id').where('installation_id', '=', installationId).orderBy('id').executeTakeFirst(),
      () => db.insertInto('objects').values({ installation_id: installationId, parent_object_id: null, description: 'Office', object_type: 'building' }).returning('id').executeTakeFirstOrThrow())
    const session = await one(db.selectFrom('charging_sessions').select('id').where('installation_id', '=', installationId).where('station_id', '=', station.id).where('end', 'is not', null).executeTakeFirst(),
      () => db.insertInto('charging_sessions').values({ installation_id: installationId, station_id: station.id, rfid_id: rfid.id, user_id: neighbour, start: new Date(app.clock.ms() - 7200_000), end: new Date(app.clock.ms() - 3600_000), energy_kwh: 5, high_kwh: 5, low_kwh: 0, price_rappen: 150, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false }).returning('id').executeTakeFirstOrThrow())
    const payment = await db.selectFrom('payment_methods').select('id').where('user_id', '=', neighbour).executeTakeFirstOrThrow()
    const shortcut = await db.insertInto('shortcuts').values({ user_id: neighbour, installation_id: installationId, name: 'matrix', url: `/facility/${installationId}/power` }).returning('id').executeTakeFirstOrThrow()
    const ticket = await db.insertInto('support_tickets').values({ user_id: neighbour, installation_id: installationId, topic: 'other', reply_token: `${installationId}`.padStart(40, 'f') }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('support_messages').values({ ticket_id: ticket.id, author: 'user', author_user_id: neighbour, body: 'matrix', via: 'portal' }).execute()
    const readableStation = stations.find((s) => readable.includes(s.id))
    const ownRfid = resident ? rfids.find((r) => r.user_id === resident) : undefined
    return {
      installationId, station: { id: station.id, device_id: station.device_id },
      readableStation: readableStation && { id: readableStation.id, device_id: readableStation.device_id },
      rfidId: rfid.id, ownRfidId: ownRfid?.id, timerId: timer.id, rateId: rate.id, reportId: report.id, objectId: object.id,
      sessionId: session.id, userId: neighbour, paymentInfoId: payment.id, shortcutId: shortcut.id, conversationId: ticket.id,
    }
  }
  const resident = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
  const inst1 = (await db.selectFrom('installation_users').select('installation_id').where('user_id', '=', resident).executeTakeFirstOrThrow()).installation_id
  const tenants = {
    1: await objectsOf(inst1, await userIn(inst1, 'neighbour1@example.com'), resident),
    2: await objectsOf(other.installationId, await userIn(other.installationId, 'neighbour2@example.com')),
  }
  const tokens: Record<MatrixActor, string | null> = {
    anon: null,
    resident: await login(app, 'user@example.com'),
    admin1: await login(app, 'admin@example.com'),
    admin2: await login(app, other.adminEmail),
    super: await login(app, 'super@example.com'),
  }
  const emails: Record<Exclude<MatrixActor, 'anon'>, string> = { resident: 'user@example.com', admin1: 'admin@example.com', admin2: other.adminEmail, super: 'super@example.com' }
  /** A token of `actor` that still works (signs in again after a fuzzed request ended the session). */
  const freshToken = async (actor: Exclude<MatrixActor, 'anon'>): Promise<string> => {
    const token = tokens[actor]!
    try {
      await app.domain!.auth.verify(token)
      return token
    } catch {
      return (tokens[actor] = await login(app, emails[actor]))
    }
  }
  return { ...started, tenants, tokens, freshToken, residentId: resident }
}

/** An OCPP 1.6J charge point client (ocpp-rpc, strict mode, as a real charger would speak). */
export type ChargePoint = InstanceType<typeof ocppRpc.RPCClient>

/**
 * Connect an OCPP 1.6J charge point (ocpp-rpc client, strict schema validation) as `id` with HTTP Basic
 * `password` to the app at `url`. No automatic reconnect unless asked; rejects with the
 * upgrade's HTTP status in `code` when refused.
 */
export async function connectChargePoint(url: string, id: string, password: string | undefined, opts: { path?: string; reconnect?: boolean } = {}): Promise<ChargePoint> {
  const cp = new ocppRpc.RPCClient({
    endpoint: `${url.replace(/^http/, 'ws')}${opts.path ?? '/ocpp'}`, identity: id, ...(password === undefined ? {} : { password }), protocols: ['ocpp1.6'], strictMode: true,
    reconnect: opts.reconnect ?? false, backoff: { initialDelay: 50, maxDelay: 200, factor: 2, randomisationFactor: 0 },
    // ocpp-rpc's typings mark every option required; its documentation and code give them defaults.
  } as never)
  await cp.connect()
  return cp
}

/** The SMTP capture and quoted-printable decoder the integration and browser tests share (tests/smtp-capture.ts). */
export { captureSmtp, decodeQp } from '../smtp-capture.ts'
