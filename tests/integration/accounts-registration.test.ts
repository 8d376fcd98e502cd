import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, login, startApp } from './helpers.ts'

let app: FastifyInstance
const api = () => request(app.server)
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
})
afterAll(async () => {
  await app?.close()
})

const body = (email: string) => ({ email, first_name: 'Rita', last_name: 'Register', password: 'Regi-Pass-1', terms_accepted: true, ietf_lang_tag: 'de-CH' })

describe('registration', () => {
  it('is closed by default, then registers, verifies by the mailed link and logs in', async () => {
    expect((await api().get('/api/users/can-register?installation=1').expect(200)).body).toEqual({ can_register: false })
    expect((await api().get('/api/users/can-register?installation=999').expect(200)).body).toEqual({ can_register: false })
    await api().get('/api/users/can-register').expect(400)
    const closed = await api().post('/api/users/register/?installation=1').set('Accept-Language', 'de').send(body('rita@example.com')).expect(403)
    expect(closed.body.detail).toMatch(/keine Registrierung/)

    await app.domain!.db.updateTable('installations').set({ registration_enabled: true }).where('id', '=', 1).execute()
    expect((await api().get('/api/users/can-register?installation=1').expect(200)).body).toEqual({ can_register: true })
    const r = await api().post('/api/users/register/?installation=1').send(body('Rita@Example.com')).expect(201)
    expect(r.body.detail).toMatch(/confirm your address/)
    // Not active before verification.
    await api().post('/api/authentication/token/').send({ email: 'rita@example.com', password: 'Regi-Pass-1' }).expect(401)
    const mail = await app.domain!.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'rita@example.com').executeTakeFirstOrThrow()
    expect(mail).toMatchObject({ kind: 'verification', subject: 'Bestätigen Sie Ihre E-Mail-Adresse für Cockpit' })
    const token = /\/login\/verify\?token=([A-Za-z0-9_-]+)&installation=1/.exec(mail.body_text)![1]
    // A verification token is no reset token.
    await api().post('/api/password-reset/validate_token/').send({ token }).expect(404)
    const v = await api().post('/api/users/user-verification/').set('Accept-Language', 'de').send({ token }).expect(200)
    expect(v.body.detail).toBe('Ihre E-Mail-Adresse ist bestätigt. Sie können sich jetzt anmelden.')
    await api().post('/api/users/user-verification/').send({ token }).expect(404)
    const access = await login(app, 'rita@example.com', 'Regi-Pass-1')
    const me = await app.domain!.auth.verify(access)
    const user = await api().get(`/api/users/${me.id}/`).set(auth(access)).expect(200)
    expect(user.body.installations).toEqual([{ id: 1, role: 'installation_user' }])
    // Terms accepted at registration.
    const legal = await api().get('/api/cockpit/legal').set(auth(access)).expect(200)
    expect(legal.body.every((d: { accepted_at: string | null }) => d.accepted_at !== null)).toBe(true)
  })

  it('answers the same for an address already in use, and creates nothing', async () => {
    await app.domain!.db.updateTable('installations').set({ registration_enabled: true }).where('id', '=', 1).execute()
    const a = await api().post('/api/users/register/?installation=1').send(body('admin@example.com')).expect(201)
    const b = await api().post('/api/users/register/?installation=1').send(body('fresh-one@example.com')).expect(201)
    expect(a.body).toEqual(b.body)
    const mails = await app.domain!.db.selectFrom('mail_outbox').select('recipient').where('kind', '=', 'verification').execute()
    expect(mails.map((m) => m.recipient)).not.toContain('admin@example.com')
    await login(app, 'admin@example.com')
  })

  it('needs terms acceptance and the password rule; 400 in the caller\'s language', async () => {
    await app.domain!.db.updateTable('installations').set({ registration_enabled: true }).where('id', '=', 1).execute()
    const terms = await api().post('/api/users/register/?installation=1').set('Accept-Language', 'de').send({ ...body('t@example.com'), terms_accepted: false }).expect(400)
    expect(terms.body).toEqual({ terms_accepted: ['Bitte akzeptieren Sie die Nutzungsbedingungen und die Datenschutzerklärung.'] })
    const pw = await api().post('/api/users/register/?installation=1').send({ ...body('t@example.com'), password: 'password' }).expect(400)
    expect(pw.body).toEqual({ password: ['The password must be at least 8 characters long and contain a number and a symbol.'] })
    const missing = await api().post('/api/users/register/?installation=1').send({}).expect(400)
    expect(missing.body).toMatchObject({ email: ['The field is required.'], first_name: ['The field is required.'], password: ['The field is required.'] })
  })
})

describe('legal and countries', () => {
  it('records acceptance per user and version', async () => {
    // The demo accounts accepted the texts at seed time: start from a resident who has not.
    await app.domain!.db.deleteFrom('legal_acceptances').where('user_id', 'in', app.domain!.db.selectFrom('users').select('id').where('email', 'in', ['user@example.com', 'admin@example.com'])).execute()
    const token = await login(app, 'user@example.com')
    const before = await api().get('/api/cockpit/legal').set(auth(token)).set('Accept-Language', 'de').expect(200)
    expect(before.body).toMatchObject([
      { document: 'terms', version: '2025-04-01', title: 'Nutzungsbedingungen', accepted_at: null },
      { document: 'privacy', version: '2025-04-01', title: 'Datenschutzerklärung', accepted_at: null },
    ])
    // The text itself comes along, in the caller's language.
    expect(before.body[0].text).toMatch(/^Nutzungsbedingungen des Cockpit-Portals/)
    const after = await api().post('/api/cockpit/legal').set(auth(token)).send({ document: 'terms', version: '2025-04-01' }).expect(200)
    expect(after.body[0].accepted_at).toMatch(/^\d{4}-/)
    expect(after.body[1].accepted_at).toBeNull()
    await api().post('/api/cockpit/legal').set(auth(token)).send({ document: 'terms', version: '2020-01-01' }).expect(404)
    await api().post('/api/cockpit/legal').set(auth(token)).send({}).expect(400)
    // Another user's status is their own.
    const admin = await login(app, 'admin@example.com')
    expect((await api().get('/api/cockpit/legal').set(auth(admin)).expect(200)).body[0].accepted_at).toBeNull()
    await api().get('/api/cockpit/legal').expect(401)
  })

  it('lists the SPEC §9 countries with limit and offset, and cities per country', async () => {
    const all = await api().get('/api/cockpit/countries').set('Accept-Language', 'fr').expect(200)
    expect(all.body.count).toBe(7)
    expect(all.body.results.map((c: { code: string }) => c.code)).toEqual(['CH', 'DE', 'AT', 'IT', 'FR', 'GB', 'US'])
    expect(all.body.results[0]).toEqual({ code: 'CH', name: 'Suisse' })
    const page = await api().get('/api/cockpit/countries?limit=2&offset=2').expect(200)
    expect(page.body.results.map((c: { code: string }) => c.code)).toEqual(['AT', 'IT'])
    await api().get('/api/cockpit/countries?limit=5000').expect(400)
    const cities = await api().get('/api/cockpit/countries/ch/cities').expect(200)
    expect(cities.body.map((c: { name: string }) => c.name)).toContain('Zürich')
    await api().get('/api/cockpit/countries/ES/cities').expect(404)
  })
})

describe('mail outbox state', () => {
  it('is visible to superusers only', async () => {
    const superToken = await login(app, 'super@example.com')
    const r = await api().get('/api/cockpit/mail/outbox?limit=5').set(auth(superToken)).expect(200)
    expect(r.body.count).toBeGreaterThan(0)
    expect(r.body.results[0]).toMatchObject({ status: 'pending', attempts: 0 })
    expect(r.body.results[0]).not.toHaveProperty('body_text')
    await api().get('/api/cockpit/mail/outbox').set(auth(await login(app, 'admin@example.com'))).expect(403)
    await api().get('/api/cockpit/mail/outbox').set(auth(await login(app, 'user@example.com'))).expect(403)
  })
})
