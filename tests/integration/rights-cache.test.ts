import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, login, PASSWORD, startApp } from './helpers.ts'
import { AT } from './hours.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { hashPassword } from '../../server/domain/auth/passwords.ts'

/**
 * Sign-in and rights per request (~8 small statements before every answer, all on the embedded
 * database's one connection): kept between requests, and still refused at once after every change that
 * takes a right away: deactivation, password change, removal from the installation, a lowered permission,
 * logout.
 */
let app: FastifyInstance
/** The app's clock, moved by the tests where a rule counts in whole seconds. */
let clock: TestClock
let statements = 0
const api = () => request(app.server)
const idOf = async (email: string) => (await app.domain!.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id

beforeAll(async () => {
  clock = createTestClock(new Date(AT.morning))
  ;({ app } = await startApp({ roles: ['api'], clock }))
  // Count what reaches the database (Kysely's executor: every query and raw statement outside transactions).
  const executor = app.domain!.db.getExecutor() as unknown as { executeQuery: (...a: unknown[]) => Promise<unknown> }
  const run = executor.executeQuery.bind(executor)
  executor.executeQuery = (...a: unknown[]) => {
    statements++
    return run(...a)
  }
})
afterAll(async () => {
  await app?.close()
})

/** Statements the request ran. */
async function counted(send: () => Promise<unknown>): Promise<number> {
  const before = statements
  await send()
  return statements - before
}

describe('sign-in and rights kept between requests', () => {
  it('answers a repeated statistics call with its query and one revision check, not ~8 sign-in and rights statements', async () => {
    const token = await login(app, 'admin@example.com')
    const call = () => api().get('/api/statistics/1?start=2026-01-01&end=2026-01-02&granularity=hour').set(auth(token)).expect(200)
    const first = await counted(call)
    const again = await counted(call)
    // The repeated call: the revision, the statistics query and its data-quality queries (gaps, flagged
    // readings); the five or more sign-in and rights statements of the first call are not run again.
    expect(again).toBeLessThanOrEqual(4)
    expect(first - again).toBeGreaterThanOrEqual(5)
  })

  it('refuses a deactivated user at once, although the same token was just accepted', async () => {
    const admin = await login(app, 'admin@example.com')
    const email = `cache-${Date.now()}@example.com`
    const created = await api().post('/api/users/create/?installation=1').set(auth(admin))
      .send({ email, first_name: 'Cache', last_name: 'Probe', role: 'installation_user' }).expect(201)
    await app.domain!.db.updateTable('users').set({ is_active: true, password_hash: await hashPassword(PASSWORD) }).where('id', '=', created.body.id).execute()
    const token = await login(app, email)
    await api().get('/api/cockpit/installations/1/').set(auth(token)).expect(200)
    await api().get('/api/cockpit/installations/1/').set(auth(token)).expect(200)
    await api().post(`/api/users/${created.body.id}/active`).set(auth(admin)).send({ active: false }).expect(200)
    await api().get('/api/cockpit/installations/1/').set(auth(token)).expect(401)
  })

  it('refuses the other sessions of a user at once after a password change', async () => {
    const other = await login(app, 'user@example.com')
    await api().get('/api/cockpit/installations/1/').set(auth(other)).expect(200)
    const mine = await login(app, 'user@example.com')
    // Whole seconds: tokens issued in the second of the change stay valid (auth service, endSessions).
    await clock.advance(1100)
    const changed = await api().put('/api/users/password/').set(auth(mine)).send({ old_password: PASSWORD, new_password: 'Cockpit-2027!x' })
    expect(changed.status).toBe(200)
    await api().get('/api/cockpit/installations/1/').set(auth(other)).expect(401)
    await api().put('/api/users/password/').set(auth(changed.body.access)).send({ old_password: 'Cockpit-2027!x', new_password: PASSWORD }).expect(200)
  })

  it('refuses a member removed from the installation at once, and shows a lowered permission at once', async () => {
    const admin = await login(app, 'admin@example.com')
    const resident = await login(app, 'user@example.com')
    const userId = await idOf('user@example.com')
    const station = (await app.domain!.db.selectFrom('permissions').select('object_id').where('user_id', '=', userId).where('object_type', '=', 'charging_station').orderBy('object_id').executeTakeFirstOrThrow()).object_id
    const readable = async () => (await api().get('/api/cockpit/installations/1/access').set(auth(resident)).expect(200)).body as { stations: Record<string, string> } & Record<string, unknown>
    const before = await readable()
    expect(JSON.stringify(before)).toContain(String(station))
    await api().put('/api/cockpit/installations/1/permissions').set(auth(admin)).send({ user_id: userId, object_type: 'charging_station', object_id: station, level: 'none' }).expect(200)
    expect(await readable()).not.toEqual(before)
    await api().put('/api/cockpit/installations/1/permissions').set(auth(admin)).send({ user_id: userId, object_type: 'charging_station', object_id: station, level: 'read' }).expect(200)
    expect(await readable()).toEqual(before)

    await api().get('/api/cockpit/installations/1/').set(auth(resident)).expect(200)
    await api().delete(`/api/cockpit/users/${userId}/installations/1`).set(auth(admin)).expect(204)
    await api().get('/api/cockpit/installations/1/').set(auth(resident)).expect(403)
  })

  it('refuses a logged-out refresh token at once', async () => {
    const pair = (await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: PASSWORD }).expect(200)).body as { access: string; refresh: string }
    await api().get('/api/cockpit/installations/1/').set(auth(pair.access)).expect(200)
    await api().post('/api/authentication/logout/').send({ refresh: pair.refresh }).expect(204)
    await api().post('/api/authentication/token/refresh/').send({ refresh: pair.refresh }).expect(401)
  })
})
