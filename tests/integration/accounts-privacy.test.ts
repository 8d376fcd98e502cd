import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { AT, auth, login, startApp } from './helpers.ts'
import { createTestClock } from '../../server/lib/clock.ts'
import { VERIFY_TTL_MS } from '../../server/domain/users/registration.ts'
import type { Actor } from '../../server/domain/auth/service.ts'

// Smaller privacy and fairness rules: personal answers are not cached; an unconfirmed self-registration
// frees its address once its link expired (on the app's clock); one user's heavy requests are limited.
let app: FastifyInstance
const clock = createTestClock(AT.morning)
const api = () => request(app.server)
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock }))
})
afterAll(async () => app?.close())

describe('personal answers are not cached', () => {
  it('a signed-in JSON answer carries Cache-Control: private, no-store; a public one does not', async () => {
    const token = await login(app, 'user@example.com')
    const me = await app.domain!.auth.verify(token)
    for (const path of [`/api/users/${me.id}/`, '/api/rfids-charge/?installation=1', `/api/users/${me.id}/payment-info/`, '/api/cockpit/installations']) {
      const r = await api().get(path).set(auth(token))
      expect(r.status, path).toBe(200)
      expect(r.headers['cache-control'], path).toBe('private, no-store')
    }
    // An invoice keeps its own policy; a public answer is not marked personal.
    const pub = await api().get('/api/users/can-register?installation=1').expect(200)
    expect(pub.headers['cache-control'] ?? '').not.toMatch(/private/)
  })
})

describe('an unconfirmed self-registration expires', () => {
  const body = (first: string) => ({ email: 'late@example.com', first_name: first, last_name: 'Late', password: 'Regi-Pass-1', terms_accepted: true, ietf_lang_tag: 'en' })
  const mails = () => app.domain!.db.selectFrom('mail_outbox').select(['body_text']).where('recipient', '=', 'late@example.com').where('kind', '=', 'verification').orderBy('id').execute()

  it('blocks its address while the link lives, frees it after, for a new registration and for an admin', async () => {
    const db = app.domain!.db
    await db.updateTable('installations').set({ registration_enabled: true }).where('id', '=', 1).execute()
    await api().post('/api/users/register/?installation=1').send(body('First')).expect(201)
    expect(await mails()).toHaveLength(1)
    // Within the link's lifetime the address stays taken: a second registration makes nothing.
    clock.advance(VERIFY_TTL_MS - 60_000)
    await api().post('/api/users/register/?installation=1').send(body('Second')).expect(201)
    expect(await mails()).toHaveLength(1)
    const admin = await login(app, 'admin@example.com')
    const taken = await api().post('/api/users/create/?installation=1').set(auth(admin)).send({ email: 'late@example.com', first_name: 'A', last_name: 'B', role: 'installation_user' }).expect(400)
    expect(taken.body.email).toBeDefined()
    // Once the link expired the address registers again: a new account and a new link that works.
    clock.advance(120_000)
    await api().post('/api/users/register/?installation=1').send(body('Third')).expect(201)
    const all = await mails()
    expect(all).toHaveLength(2)
    expect(await db.selectFrom('users').select('first_name').where('email', '=', 'late@example.com').execute()).toEqual([{ first_name: 'Third' }])
    const token = /token=([A-Za-z0-9_-]+)/.exec(all[1].body_text)![1]
    await api().post('/api/users/user-verification/').send({ token }).expect(200)
    await login(app, 'late@example.com', 'Regi-Pass-1')
    // A confirmed account never expires, and an admin's own new user with an expired registration's address is made.
    clock.advance(VERIFY_TTL_MS * 2)
    // (Access tokens live minutes: sign in again after moving the clock.)
    await api().post('/api/users/create/?installation=1').set(auth(await login(app, 'admin@example.com'))).send({ email: 'late@example.com', first_name: 'A', last_name: 'B', role: 'installation_user' }).expect(400)
    await api().post('/api/users/register/?installation=1').send({ ...body('Other'), email: 'later@example.com' }).expect(201)
    clock.advance(VERIFY_TTL_MS + 1)
    const made = await api().post('/api/users/create/?installation=1').set(auth(await login(app, 'admin@example.com'))).send({ email: 'later@example.com', first_name: 'Made', last_name: 'ByAdmin', role: 'installation_user' }).expect(201)
    expect(made.body).toMatchObject({ email: 'later@example.com', first_name: 'Made' })
  })
})

describe('heavy requests per user', () => {
  it('one user runs 2 statistics requests at a time, 4 more wait, beyond is 429 with a message; others are not held back', async () => {
    const resident = await login(app, 'user@example.com')
    const admin = await login(app, 'admin@example.com')
    const residentId = (await app.domain!.auth.verify(resident)).id
    // Hold the resident's statistics in flight until the test lets them go.
    const stats = app.domain!.statistics
    const original = stats.installation
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    let started = 0
    stats.installation = (async (actor: Actor, ...rest: unknown[]) => {
      if (actor.id === residentId) {
        started++
        await held
      }
      return (original as (...a: unknown[]) => unknown)(actor, ...rest)
    }) as typeof stats.installation
    try {
      const q = { start: '2026-01-01', end: '2027-01-01', granularity: 'month' }
      // Eight at once: two run (held here), four wait for a slot, two are refused at once, whatever their order.
      const answered: request.Response[] = []
      const all = Array.from({ length: 8 }, () => api().get('/api/statistics/1').query(q).set({ ...auth(resident), 'Accept-Language': 'de' }).then((r) => (answered.push(r), r)))
      while (started < 2 || answered.length < 2) await new Promise((r) => setTimeout(r, 10))
      for (const refused of answered) {
        expect(refused.status).toBe(429)
        expect(refused.body.detail).toBe('Zu viele Ihrer Anfragen werden noch bearbeitet. Warten Sie, bis sie abgeschlossen sind, und versuchen Sie es erneut.')
        expect(refused.headers['retry-after']).toBe('1')
      }
      // Another user is not held back by the resident's requests.
      await api().get('/api/statistics/1').query(q).set(auth(admin)).expect(200)
      release()
      expect((await Promise.all(all)).map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 429, 429])
      // Slots are free again once the work finished.
      await api().get('/api/statistics/1').query(q).set(auth(resident)).expect(200)
    } finally {
      release()
      stats.installation = original
    }
  })
})
