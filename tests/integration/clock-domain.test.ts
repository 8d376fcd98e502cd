import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { decodeJwt } from 'jose'
import type { FastifyInstance } from 'fastify'
import { createTestClock } from '../../server/lib/clock.ts'
import { auth, PASSWORD, startApp } from './helpers.ts'

/**
 * ARCHITECTURE §1 "Time": the domain takes "now" from the server's one clock, not the wall clock. The
 * server here runs on a test clock five years ahead of the wall clock, which moves only when told; each
 * expiry below would not happen (or happen at once) if the wall clock judged it.
 */
const START = '2031-05-04T10:00:00Z'
const clock = createTestClock(START)
let app: FastifyInstance
let userId: number
const api = () => request(app.server)
const signIn = async () => (await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: PASSWORD }).expect(200)).body as { access: string; refresh: string }
const me = (token: string) => api().get(`/api/users/${userId}/`).set(auth(token))

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock }))
  userId = (await app.domain!.db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
})
afterAll(async () => app?.close())

describe('the clock drives the domain', () => {
  it('access tokens are issued at the clock and expire after 5 minutes of clock time; refresh tokens after 24 hours', async () => {
    const wallBefore = Date.now()
    const pair = await signIn()
    expect(decodeJwt(pair.access)).toMatchObject({ iat: Date.parse(START) / 1000, exp: Date.parse(START) / 1000 + 300 })
    await me(pair.access).expect(200)

    await clock.advance(6 * 60_000)
    await me(pair.access).expect(401)
    // The wall clock hardly moved: the clock alone expired the token.
    expect(Date.now() - wallBefore).toBeLessThan(60_000)

    const renewed = (await api().post('/api/authentication/token/refresh/').send({ refresh: pair.refresh }).expect(200)).body as { access: string; refresh: string }
    await me(renewed.access).expect(200)
    await clock.advance(25 * 3600_000)
    await api().post('/api/authentication/token/refresh/').send({ refresh: renewed.refresh }).expect(401)
  })

  it('a password reset link is valid for 60 minutes of clock time', async () => {
    const since = clock.now()
    await api().post('/api/password-reset/').send({ email: 'user@example.com' }).expect(200)
    // The answer comes before the work: wait for the mail to be in the outbox.
    await app.domain!.passwordReset.settled()
    const mail = await app.domain!.db.selectFrom('mail_outbox').select(['body_text', 'next_attempt_at']).where('recipient', '=', 'user@example.com')
      .where('kind', '=', 'reset').orderBy('id', 'desc').executeTakeFirstOrThrow()
    // Queued at the clock's now, so the mail job (on the same clock) sends it at once.
    expect(mail.next_attempt_at.getTime()).toBe(since.getTime())
    const token = /\/login\/reset\?token=([A-Za-z0-9_-]+)/.exec(mail.body_text)![1]
    await api().post('/api/password-reset/validate_token/').send({ token }).expect(200)

    await clock.advance(59 * 60_000)
    await api().post('/api/password-reset/validate_token/').send({ token }).expect(200)
    await clock.advance(2 * 60_000)
    await api().post('/api/password-reset/validate_token/').send({ token }).expect(404)
  })

  it("a display link's end date is judged at the clock: refused when past on the clock, ends when the clock passes it", async () => {
    const admin = (await api().post('/api/authentication/token/').send({ email: 'admin@example.com', password: PASSWORD }).expect(200)).body.access as string
    const create = (valid_until: string) => api().post('/api/cockpit/installations/1/displays').set(auth(admin)).send({ name: 'Lobby', valid_until })
    // Ahead of the wall clock but behind the server's clock: in the past.
    await create(new Date(clock.ms() - 3600_000).toISOString()).expect(400)

    const link = (await create(new Date(clock.ms() + 3600_000).toISOString()).expect(201)).body as { url: string }
    const key = link.url.slice(link.url.indexOf('#') + 1)
    await api().get('/api/display/').set(auth(key)).expect(200)
    await clock.advance(2 * 3600_000)
    await api().get('/api/display/').set(auth(key)).expect(401)
  })

  it('a server whose clock is behind the wall clock accepts the tokens it issues', async () => {
    // A token that expired years ago by the wall clock is fresh by this server's clock.
    await clock.set('2020-02-03T08:00:00Z')
    const pair = await signIn()
    expect(decodeJwt(pair.access).iat).toBe(Date.parse('2020-02-03T08:00:00Z') / 1000)
    await me(pair.access).expect(200)
    const renewed = (await api().post('/api/authentication/token/refresh/').send({ refresh: pair.refresh }).expect(200)).body as { access: string }
    await me(renewed.access).expect(200)
  })
})
