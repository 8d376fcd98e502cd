import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../server/app.ts'
import { ConfigError, loadConfig, type Config } from '../../config/env.ts'
import { openDatabase } from '../../server/db/connection.ts'
import { verifyPassword } from '../../server/domain/auth/passwords.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { AT, auth, login, PASSWORD, startApp, testDatabaseUrl } from './helpers.ts'

/**
 * The first start of an empty database (README "Production start"): ADMIN_EMAIL/ADMIN_PASSWORD, the
 * setup link logged once (GET/POST /api/setup, /setup#<token>), and the recovery command
 * `npm run admin -- create-superuser EMAIL`.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const RULE = 'The password must be at least 8 characters long and contain a number and a symbol.'
const tmpDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-first-start-'))

/** A config of an empty database with DEMO off (on TEST_DB=postgres its own database, else PGlite in `dataDir` or in memory). */
async function emptyConfig(over: Partial<Config> & { dataDir?: string }): Promise<Config> {
  const databaseUrl = await testDatabaseUrl()
  return { ...loadConfig({}), port: 0, host: '127.0.0.1', demo: false, roles: ['api'], logLevel: 'silent', databaseUrl, memoryDb: !databaseUrl && !over.dataDir, dataDir: '/nonexistent', ...over }
}

/** buildApp, ready for requests (hooks in place). */
async function start(config: Config): Promise<FastifyInstance> {
  const app = await buildApp(config)
  await app.ready()
  return app
}

/** The user id an access token names (its `sub`). */
const userOf = (access: string) => Number(JSON.parse(Buffer.from(access.split('.')[1], 'base64url').toString()).sub)

const setupBody = (token: string, over: Record<string, unknown> = {}) => ({ token, email: 'Operator@Example.ch', password: 'First-start-1!', first_name: 'Olga', last_name: 'Operator', language: 'fr', ...over })

describe('ADMIN_EMAIL and ADMIN_PASSWORD', () => {
  it('are checked at start: a weak password stops it with the SPEC §5 wording, exit 2', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.ch', ADMIN_PASSWORD: 'password' })).toThrow(ConfigError)
    expect(() => loadConfig({ ADMIN_EMAIL: 'a@b.ch' })).toThrow(/ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither/)
    expect(() => loadConfig({ ADMIN_EMAIL: 'not-an-address', ADMIN_PASSWORD: 'Good-pass-1!' })).toThrow(/ADMIN_EMAIL: must be an address/)
    expect(loadConfig({ ADMIN_EMAIL: ' Boss@Example.CH ', ADMIN_PASSWORD: 'Good-pass-1!' }).admin).toEqual({ email: 'boss@example.ch', password: 'Good-pass-1!' })
    const r = spawnSync(process.execPath, ['server/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DATA_DIR: tmpDir(), PORT: '0', ROLES: 'api', ADMIN_EMAIL: 'boss@example.ch', ADMIN_PASSWORD: 'password1' },
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(r.status).toBe(2)
    expect(r.stderr).toContain(`ADMIN_PASSWORD: ${RULE}`)
    expect(r.stderr).not.toMatch(/\n\s+at /)
  }, 60_000)

  it('create the first superuser once; restarts, also with other values, change nothing', async () => {
    const dataDir = tmpDir()
    const first = await emptyConfig({ dataDir, admin: { email: 'boss@example.ch', password: 'Boss-pass-1!' } })
    let app: FastifyInstance = await start(first)
    let hash: string
    try {
      await login(app, 'boss@example.ch', 'Boss-pass-1!')
      const boss = await app.domain!.db.selectFrom('users').selectAll().where('email', '=', 'boss@example.ch').executeTakeFirstOrThrow()
      // Nobody chose a language yet: the SPEC §9 default locale (en-US), which the screens switch to at
      // sign-in (docs/decisions.md "Client: the account's language is the truth once signed in").
      expect(boss).toMatchObject({ is_superuser: true, is_active: true, is_service: false, ietf_lang_tag: 'en-US' })
      hash = boss.password_hash
      expect((await request(app.server).get('/api/setup').expect(200)).body).toEqual({ needed: false, demo: null })
      // No setup link while the superuser exists.
      expect(await app.domain!.db.selectFrom('setup_tokens').selectAll().execute()).toEqual([])
    } finally {
      await app.close()
    }
    for (const admin of [first.admin!, { email: 'other@example.ch', password: 'Other-pass-2!' }]) {
      app = await start({ ...first, admin })
      try {
        await login(app, 'boss@example.ch', 'Boss-pass-1!')
        await request(app.server).post('/api/authentication/token/').send({ email: 'other@example.ch', password: 'Other-pass-2!' }).expect(401)
        const users = await app.domain!.db.selectFrom('users').select(['email', 'password_hash']).where('is_service', '=', false).execute()
        expect(users).toEqual([{ email: 'boss@example.ch', password_hash: hash }])
      } finally {
        await app.close()
      }
    }
  }, 180_000)
})

describe('the setup link', () => {
  let app: FastifyInstance
  let clock: TestClock
  const db = () => app.domain!.db
  const tokenOf = (url: string | null) => new URL(url!).hash.slice(1)
  const api = () => request(app.server)

  beforeAll(async () => {
    clock = createTestClock(AT.morning)
    // With the relay in the process: its service account is a superuser that does not count.
    app = await start(await emptyConfig({ roles: ['api', 'relay'], clock, publicUrl: 'https://cockpit.example.ch' }))
  })
  afterAll(async () => app?.close())

  it('is issued once at start while no superuser exists; GET /api/setup says setup is needed', async () => {
    expect(await db().selectFrom('setup_tokens').select(['expires_at', 'used_at']).execute()).toEqual([{ expires_at: new Date(clock.ms() + 3600_000), used_at: null }])
    expect(await db().selectFrom('users').select('is_service').where('is_superuser', '=', true).execute()).toEqual([{ is_service: true }])
    const r = await api().get('/api/setup').expect(200)
    expect(r.body).toEqual({ needed: true, demo: null })
    const link = await app.domain!.setup.issueLink()
    expect(link).toMatch(/^https:\/\/cockpit\.example\.ch\/setup#[\w-]{43}$/)
    // Only the token's hash is kept.
    const rows = await db().selectFrom('setup_tokens').select('token_hash').execute()
    expect(rows.map((t) => t.token_hash)).not.toContain(tokenOf(link))
  })

  it('refuses an unknown token (403), a weak password and bad fields (400) without spending the token', async () => {
    const token = tokenOf(await app.domain!.setup.issueLink())
    const unknown = await api().post('/api/setup').send(setupBody('made-up-token')).expect(403)
    expect(unknown.body.detail).toMatch(/setup link is invalid, used or expired/)
    expect((await api().post('/api/setup').send(setupBody(token, { password: 'password' })).expect(400)).body).toEqual({ password: [RULE] })
    expect(Object.keys((await api().post('/api/setup').send(setupBody(token, { email: 'nope', first_name: '' })).expect(400)).body).sort()).toEqual(['email', 'first_name'])
    const de = await api().post('/api/setup').set('Accept-Language', 'de').send(setupBody(token, { password: 'kurz' })).expect(400)
    expect(de.body.password[0]).toMatch(/mindestens 8 Zeichen/)
    expect((await api().get('/api/setup').expect(200)).body).toEqual({ needed: true, demo: null })
    expect(await db().selectFrom('setup_tokens').select('id').where('used_at', 'is not', null).execute()).toEqual([])
  })

  it('expires after one hour of the clock (403)', async () => {
    const token = tokenOf(await app.domain!.setup.issueLink())
    await clock.advance(3600_000)
    await api().post('/api/setup').send(setupBody(token)).expect(403)
    expect((await api().get('/api/setup').expect(200)).body).toEqual({ needed: true, demo: null })
  })

  it('creates the superuser and signs them in; the token is spent (403) and other links answer 409', async () => {
    const token = tokenOf(await app.domain!.setup.issueLink())
    const other = tokenOf(await app.domain!.setup.issueLink())
    const r = await api().post('/api/setup').send(setupBody(token)).expect(201)
    expect(r.headers['cache-control']).toBe('no-store')
    expect(r.body).toEqual({ access: expect.any(String), refresh: expect.any(String), installation_id: null })
    const id = userOf(r.body.access)
    const me = await api().get(`/api/users/${id}/`).set(auth(r.body.access)).expect(200)
    expect(me.body).toMatchObject({ email: 'operator@example.ch', first_name: 'Olga', last_name: 'Operator', is_superuser: true, is_active: true, ietf_lang_tag: 'fr-CH' })
    // A superuser's operation: the refresh token works too.
    await api().post('/api/authentication/token/refresh/').send({ refresh: r.body.refresh }).expect(200)
    await login(app, 'operator@example.ch', 'First-start-1!')

    expect((await api().get('/api/setup').expect(200)).body).toEqual({ needed: false, demo: null })
    const reuse = await api().post('/api/setup').send(setupBody(token, { email: 'second@example.ch' })).expect(403)
    expect(reuse.body.detail).toMatch(/invalid, used or expired/)
    const late = await api().post('/api/setup').set('Accept-Language', 'de').send(setupBody(other, { email: 'second@example.ch' })).expect(409)
    expect(late.body.detail).toMatch(/bereits eingerichtet/)
    expect(await app.domain!.setup.issueLink()).toBeNull()
    const supers = await db().selectFrom('users').select('email').where('is_superuser', '=', true).where('is_service', '=', false).execute()
    expect(supers).toEqual([{ email: 'operator@example.ch' }])
  })

  it('is throttled per address like sign-in: 429 with Retry-After after 10 wrong tokens', async () => {
    let answer = 0
    let retryAfter: string | undefined
    for (let i = 0; i < 12 && answer !== 429; i++) {
      const r = await api().post('/api/setup').send(setupBody(`guess-${i}`))
      answer = r.status
      retryAfter = r.headers['retry-after']
    }
    expect(answer).toBe(429)
    expect(Number(retryAfter)).toBeGreaterThan(0)
  })
})

/** A TCP port free at the moment of asking. */
async function freePort(): Promise<number> {
  const server = net.createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as net.AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

describe('a production start (server/main.ts, DEMO off) and the recovery command', () => {
  const dataDir = tmpDir()
  const admin = (args: string[], input: string) =>
    spawnSync(process.execPath, ['scripts/admin.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH, DATA_DIR: dataDir }, input, encoding: 'utf8', timeout: 120_000 })

  it('logs the setup link once; the link creates the first superuser', async () => {
    const port = await freePort()
    const child = spawn(process.execPath, ['server/main.ts'], { cwd: ROOT, env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', ROLES: 'api', PUBLIC_URL: `http://127.0.0.1:${port}/` } })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    const exited = new Promise((resolve) => child.on('exit', resolve))
    try {
      const end = performance.now() + 120_000
      while (!out.includes('Cockpit listening') && performance.now() < end) await new Promise((r) => setTimeout(r, 100))
      const links = [...out.matchAll(/"msg":"[^"]*(http:\/\/127\.0\.0\.1:\d+\/setup#[\w-]+)/g)].map((m) => m[1])
      expect(links, out).toHaveLength(1)
      const url = new URL(links[0])
      expect(url.port).toBe(String(port))
      const base = `http://127.0.0.1:${port}/api/setup`
      expect(await (await fetch(base)).json()).toEqual({ needed: true, demo: null })
      const created = await fetch(base, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(setupBody(url.hash.slice(1))) })
      expect(created.status).toBe(201)
      expect(await (await fetch(base)).json()).toEqual({ needed: false, demo: null })
    } finally {
      child.kill('SIGTERM')
      await exited
    }
  }, 180_000)

  it('create-superuser recovers an account (superuser, new password) and creates a missing one', async () => {
    // Reads the password from stdin when it is not a terminal; the repeat must match.
    const mismatch = admin(['create-superuser', 'operator@example.ch'], 'Recovered-9!\nOther-9!\n')
    expect(mismatch.status).toBe(1)
    expect(mismatch.stderr).toContain('The entered passwords do not match')
    const weak = admin(['create-superuser', 'operator@example.ch'], 'weak\n')
    expect(weak.status).toBe(1)
    expect(weak.stderr.trim()).toBe(RULE)
    expect(admin(['create-superuser'], '').status).toBe(2)
    expect(admin(['no-such-command'], '').stderr).toMatch(/Unknown command no-such-command[\s\S]*create-superuser EMAIL/)

    const recovered = admin(['create-superuser', 'Operator@Example.ch'], 'Recovered-9!\nRecovered-9!\n')
    expect(recovered.stderr).toBe('')
    expect(recovered.status).toBe(0)
    expect(recovered.stdout).toContain('operator@example.ch is a superuser with the new password')
    const created = admin(['create-superuser', 'rescue@example.ch'], 'Rescue-pass-7!\n')
    expect(created.status).toBe(0)
    expect(created.stdout).toContain('Created the superuser rescue@example.ch')

    const database = await openDatabase({ dataDir })
    try {
      const users = await database.db.selectFrom('users').select(['email', 'password_hash', 'is_superuser', 'is_active', 'first_name', 'ietf_lang_tag']).where('is_service', '=', false).orderBy('id').execute()
      expect(users.map(({ email, is_superuser, is_active, first_name, ietf_lang_tag }) => ({ email, is_superuser, is_active, first_name, ietf_lang_tag }))).toEqual([
        { email: 'operator@example.ch', is_superuser: true, is_active: true, first_name: 'Olga', ietf_lang_tag: 'fr-CH' },
        { email: 'rescue@example.ch', is_superuser: true, is_active: true, first_name: 'Administrator', ietf_lang_tag: 'en-US' },
      ])
      expect(await verifyPassword(users[0].password_hash, 'Recovered-9!')).toBe(true)
      expect(await verifyPassword(users[0].password_hash, 'First-start-1!')).toBe(false)
      expect(await verifyPassword(users[1].password_hash, 'Rescue-pass-7!')).toBe(true)
      // The first sign-in's refresh token was revoked: its sessions ended with the recovery.
      expect(await database.db.selectFrom('refresh_tokens').select('id').where('revoked_at', 'is', null).execute()).toEqual([])
    } finally {
      await database.close()
    }
  }, 300_000)
})

describe('a DEMO=on start', () => {
  it('keeps its demo accounts and issues no setup link', async () => {
    const { app } = await startApp({ roles: ['api'] })
    try {
      expect((await request(app.server).get('/api/setup').expect(200)).body).toMatchObject({ needed: false, demo: { password: PASSWORD } })
      expect(await app.domain!.db.selectFrom('setup_tokens').selectAll().execute()).toEqual([])
      await login(app, 'super@example.com', PASSWORD)
      await login(app, 'user@example.com', PASSWORD)
    } finally {
      await app.close()
    }
  }, 120_000)
})
