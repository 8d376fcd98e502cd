import type { AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import request from 'supertest'
import { buildApp } from '../../server/app.ts'
import { loadConfig, type Config, type Role } from '../../config/env.ts'

export const PASSWORD = 'Cockpit-2026!'

/** Build the app on a fresh in-memory PGlite with the demo seeded, listening on a free port. */
export async function startApp(opts: { roles?: Role[]; intervals?: Partial<Config['intervals']>; upstreamUrl?: string; relayUpstream?: Config['relayUpstream']; relay?: Config['relay']; smtpUrl?: string; trustProxy?: Config['trustProxy']; clientDir?: string } = {}) {
  const config: Config = {
    ...loadConfig({}),
    smtpUrl: opts.smtpUrl,
    trustProxy: opts.trustProxy ?? false,
    clientDir: opts.clientDir,
    port: 0,
    host: '127.0.0.1',
    dataDir: '/nonexistent',
    memoryDb: true,
    demo: true,
    demoPassword: PASSWORD,
    roles: opts.roles ?? ['api', 'relay', 'simulator'],
    upstreamUrl: opts.upstreamUrl,
    relayUpstream: opts.relayUpstream,
    simSeed: 7,
    logLevel: 'silent',
    intervals: { metrics: 300, stations: 300, sessions: 300, info: 300, energy_return: 300, ...opts.intervals },
    relay: { maxStreamsPerUser: 100, ...opts.relay },
  }
  const app = await buildApp(config)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  return { app, url, config }
}

/** Sign in and return the access token. */
export async function login(app: FastifyInstance, email: string, password = PASSWORD): Promise<string> {
  const r = await request(app.server).post('/api/authentication/token/').send({ email, password }).expect(200)
  return r.body.access as string
}

export const auth = (token: string) => ({ Authorization: `Bearer ${token}` })

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Wait until `check` returns a truthy value (polling every 50 ms), or fail after `ms`. */
export async function until<T>(check: () => T | Promise<T>, ms = 10_000, what = 'condition'): Promise<NonNullable<T>> {
  const end = Date.now() + ms
  for (;;) {
    const v = await check()
    if (v) return v as NonNullable<T>
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
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
  return { ...started, other, tokens }
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
