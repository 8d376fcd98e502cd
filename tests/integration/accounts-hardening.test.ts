import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { createMailJob } from '../../server/jobs/mail-outbox.ts'
import { createTestClock } from '../../server/lib/clock.ts'
import { AT, auth, login, PASSWORD, startApp, captureSmtp, decodeQp } from './helpers.ts'

/**
 * Accounts as an attacker meets them (docs/decisions.md "Accounts: e-mail change with password and undo,
 * access tokens denied at logout, deactivation from its date"): a stolen access token alone cannot move
 * the sign-in address, the old address can undo a change, logout ends the access token at once, and a
 * deactivation dated in the future starts at that date on the clock.
 */
const smtp = captureSmtp()
const received = smtp.received
const undoTokenIn = (raw: string) => /\/login\/email-undo\?token=([A-Za-z0-9_-]+)/.exec(decodeQp(raw))?.[1]
const confirmTokenIn = (raw: string) => /\/login\/email-confirm\?token=([A-Za-z0-9_-]+)/.exec(decodeQp(raw))?.[1]

const clock = createTestClock(AT.morning)
let app: FastifyInstance
let job: ReturnType<typeof createMailJob>
const api = () => request(app.server)
const idOf = async (email: string) => (await app.domain!.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id

beforeAll(async () => {
  const smtpUrl = await smtp.listen()
  ;({ app } = await startApp({ roles: ['api'], clock }))
  job = createMailJob({ domain: app.domain!, smtpUrl, from: 'Cockpit <no-reply@cockpit.local>', log: app.log })
})
afterAll(async () => {
  job?.close()
  await app?.close()
  await smtp.close()
})

/** Send the mails and follow the confirmation link mailed to `to` since `before` mails were received. */
async function confirmNewAddress(to: string, before: number): Promise<void> {
  await job.runOnce()
  const token = confirmTokenIn(received.slice(before).find((m) => m.to === to)!.raw)
  await api().post('/api/users/email/confirm/').send({ token }).expect(200)
}

/** A fresh resident of the demo installation with the demo password. */
async function newResident(email: string): Promise<number> {
  const db = app.domain!.db
  const hash = (await db.selectFrom('users').select('password_hash').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).password_hash
  const u = await db.insertInto('users').values({ email, password_hash: hash, first_name: 'Olga', last_name: 'Alt', title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'de-CH', last_login: null, previous_login: null }).returning('id').executeTakeFirstOrThrow()
  await db.insertInto('installation_users').values({ user_id: u.id, installation_id: 1, role: 'installation_user' }).execute()
  return u.id
}

describe('changing one\'s own sign-in e-mail', () => {
  it('needs the current password: none or a wrong one is a 400 naming the field, in the caller\'s language', async () => {
    const id = await newResident('olga@example.com')
    const token = await login(app, 'olga@example.com')
    const none = await api().put(`/api/users/${id}/email`).set(auth(token)).send({ email: 'thief@example.com' }).expect(400)
    expect(none.body).toEqual({ password: ['The field is required.'] })
    const wrong = await api().put(`/api/users/${id}/email`).set(auth(token)).set('Accept-Language', 'de').send({ email: 'thief@example.com', password: 'not-it' }).expect(400)
    expect(wrong.body).toEqual({ password: ['Das eingegebene Passwort stimmt nicht mit Ihrem aktuellen Passwort überein'] })
    const me = await api().get(`/api/users/${id}/`).set(auth(token)).expect(200)
    expect(me.body.email).toBe('olga@example.com')
    // An admin changing a resident's address does not know (or need) her password.
    const admin = await login(app, 'admin@example.com')
    await api().put(`/api/users/${id}/email`).set(auth(admin)).send({ email: 'olga2@example.com' }).expect(202)
  })

  it('mails the old address a link that restores it (and ends the sessions), usable once and for a limited time', async () => {
    const id = await newResident('paula@example.com')
    const token = await login(app, 'paula@example.com')
    const before = received.length
    await api().put(`/api/users/${id}/email`).set(auth(token)).send({ email: 'paula.neu@example.com', password: PASSWORD }).expect(202)
    await confirmNewAddress('paula.neu@example.com', before)
    await job.runOnce()
    const notice = received.slice(before).find((m) => m.to === 'paula@example.com')
    expect(notice, 'a notice to the old address').toBeDefined()
    expect(decodeQp(notice!.raw)).toContain('paula.neu@example.com')
    const undo = undoTokenIn(notice!.raw)!
    expect(undo).toBeTruthy()
    // Paula reads the mail a minute later.
    await clock.advance(60_000)
    const restored = await api().post('/api/users/email/undo/').set('Accept-Language', 'fr').send({ token: undo }).expect(200)
    expect(restored.body).toEqual({ status: 'OK', detail: 'Votre ancienne adresse e-mail a été rétablie. Par sécurité, toutes les sessions ont été fermées.' })
    // The old address signs in again; whoever held the session that changed it is signed out.
    await login(app, 'paula@example.com')
    await api().get(`/api/users/${id}/`).set(auth(token)).expect(401)
    await api().post('/api/authentication/token/').send({ email: 'paula.neu@example.com', password: PASSWORD }).expect(401)
    // Single use.
    const again = await api().post('/api/users/email/undo/').send({ token: undo }).expect(404)
    expect(again.body.detail).toBe('The link has expired. Please create a new link')
  })

  it('refuses the undo link once its time has passed on the clock', async () => {
    const id = await newResident('rita@example.com')
    const token = await login(app, 'rita@example.com')
    const before = received.length
    await api().put(`/api/users/${id}/email`).set(auth(token)).send({ email: 'rita.neu@example.com', password: PASSWORD }).expect(202)
    await confirmNewAddress('rita.neu@example.com', before)
    await job.runOnce()
    const undo = undoTokenIn(received.slice(before).find((m) => m.to === 'rita@example.com')!.raw)!
    await clock.advance(8 * 24 * 3600_000)
    await api().post('/api/users/email/undo/').send({ token: undo }).expect(404)
    await api().post('/api/users/email/undo/').send({ token: 'never-issued' }).expect(404)
    expect((await app.domain!.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email).toBe('rita.neu@example.com')
  })
})

describe('logout', () => {
  it('ends the access token of the signed-out session at once; another sign-in stays', async () => {
    const userId = await idOf('user@example.com')
    const pair = async () => (await api().post('/api/authentication/token/').send({ email: 'user@example.com', password: PASSWORD }).expect(200)).body as { access: string; refresh: string }
    const mine = await pair()
    const other = await pair()
    await api().get(`/api/users/${userId}/`).set(auth(mine.access)).expect(200)
    // A refreshed access token of the same sign-in ends with it too.
    const refreshed = (await api().post('/api/authentication/token/refresh/').send({ refresh: mine.refresh }).expect(200)).body as { access: string; refresh: string }
    await api().post('/api/authentication/logout/').send({ refresh: refreshed.refresh }).expect(204)
    await api().get(`/api/users/${userId}/`).set(auth(mine.access)).expect(401)
    await api().get(`/api/users/${userId}/`).set(auth(refreshed.access)).expect(401)
    await api().get(`/api/users/${userId}/`).set(auth(other.access)).expect(200)
  })
})

describe('a deactivation dated in the future', () => {
  it('keeps the user in until the date on the clock, then locks them out', async () => {
    const id = await newResident('vera@example.com')
    const admin = await login(app, 'admin@example.com')
    const from = new Date(clock.ms() + 2 * 24 * 3600_000)
    const r = await api().post(`/api/users/${id}/active`).set(auth(admin)).send({ active: false, date: from.toISOString() }).expect(200)
    expect(r.body.deactivation_datetime).toBe(from.toISOString())
    expect(r.body.is_active).toBe(true)
    const token = await login(app, 'vera@example.com')
    await api().get(`/api/users/${id}/`).set(auth(token)).expect(200)
    // The relay's re-check of open live streams keeps her in until the date, too.
    const watching = async () => ((await api().get(`/api/cockpit/installations/1/accesses?user_ids=${id}`).set(auth(await login(app, 'super@example.com'))).expect(200)).body.results as { user_id: number }[]).map((a) => a.user_id)
    expect(await watching()).toEqual([id])
    // The number the relay polls moves when the date is reached, so it re-checks open streams then.
    const revision = async () => (await api().get('/api/cockpit/rights-revision').set(auth(await login(app, 'super@example.com'))).expect(200)).body.revision as number
    const before = await revision()
    await clock.set(new Date(from.getTime() - 60_000))
    const late = await login(app, 'vera@example.com')
    await api().get(`/api/users/${id}/`).set(auth(late)).expect(200)
    await clock.advance(2 * 60_000)
    await api().get(`/api/users/${id}/`).set(auth(late)).expect(401)
    await api().post('/api/authentication/token/').send({ email: 'vera@example.com', password: PASSWORD }).expect(401)
    expect(await watching()).toEqual([])
    expect(await revision()).not.toBe(before)
    const listed = await api().get(`/api/cockpit/users/${id}/`).set(auth(await login(app, 'admin@example.com'))).expect(200)
    expect(listed.body.is_active).toBe(false)
  })

  it('a deactivation without a date or dated in the past locks out at once', async () => {
    const id = await newResident('wanda@example.com')
    const token = await login(app, 'wanda@example.com')
    const admin = await login(app, 'admin@example.com')
    await api().post(`/api/users/${id}/active`).set(auth(admin)).send({ active: false, date: new Date(clock.ms() - 3600_000).toISOString() }).expect(200)
    await api().get(`/api/users/${id}/`).set(auth(token)).expect(401)
    await api().post('/api/authentication/token/').send({ email: 'wanda@example.com', password: PASSWORD }).expect(401)
  })
})
