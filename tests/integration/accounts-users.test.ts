import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, auth, login, PASSWORD, startApp } from './helpers.ts'

let app: FastifyInstance
const ids: Record<string, number> = {}
const tokens: Record<string, string> = {}
let other: number
const api = () => request(app.server)
const idOf = async (email: string) => (await app.domain!.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
  const o = await addOtherInstallation(app)
  other = o.installationId
  const emails = { super: 'super@example.com', admin: 'admin@example.com', user: 'user@example.com', bern: o.adminEmail }
  for (const [k, email] of Object.entries(emails)) {
    ids[k] = await idOf(email)
    tokens[k] = await login(app, email)
  }
})
afterAll(async () => {
  await app?.close()
})

const create = (token: string, installation: number, body: Record<string, unknown>) =>
  api().post('/api/users/create/').set(auth(token)).set('installation-id', String(installation)).send(body)

describe('user management', () => {
  it('an admin creates a user in their installation, lists it by role, and it cannot sign in until set up', async () => {
    const r = await create(tokens.admin, 1, { email: 'New.Resident@example.com', first_name: 'Nora', last_name: 'Neu', title: 'ms', role: 'installation_user' }).expect(201)
    expect(r.body).toMatchObject({ email: 'new.resident@example.com', role: 'installation_user', is_active: true, installations: [{ id: 1, role: 'installation_user' }] })
    const users = await api().get('/api/cockpit/users/?role=installation_user').set(auth(tokens.admin)).expect(200)
    expect(users.body.results.map((u: { email: string }) => u.email)).toContain('new.resident@example.com')
    expect(users.body.results.every((u: { role: string }) => u.role === 'installation_user')).toBe(true)
    const admins = await api().get('/api/cockpit/users/?role=installation_admin').set(auth(tokens.admin)).expect(200)
    expect(admins.body.results.map((u: { email: string }) => u.email)).toEqual(['admin@example.com'])
    const all = await api().get('/api/cockpit/users/?role=all').set(auth(tokens.admin)).expect(200)
    expect(all.body.results.map((u: { email: string }) => u.email)).not.toContain('bern-admin@example.com')
    expect(all.body.results.map((u: { email: string }) => u.email)).not.toContain('relay@cockpit.internal')
    const supers = await api().get('/api/cockpit/users/?role=superuser').set(auth(tokens.super)).expect(200)
    expect(supers.body.results.map((u: { email: string }) => u.email)).toEqual(['super@example.com'])
    await api().post('/api/authentication/token/').send({ email: 'new.resident@example.com', password: PASSWORD }).expect(401)
  })

  it('refuses bad input with 400 in the SPEC wording (en, de), a used address, and a missing installation', async () => {
    const r = await create(tokens.admin, 1, { email: 'x' }).expect(400)
    expect(r.body).toMatchObject({ email: ['The field is not a valid email address'], first_name: ['The field is required.'] })
    const de = await create(tokens.admin, 1, { email: 'user@example.com', first_name: 'A', last_name: 'B' }).set('Accept-Language', 'de').expect(400)
    expect(de.body).toEqual({ email: ['Diese E-Mail-Adresse wird bereits von einem anderen Konto verwendet.'] })
    const none = await api().post('/api/users/create/').set(auth(tokens.admin)).send({ email: 'a@b.ch', first_name: 'A', last_name: 'B' }).expect(400)
    expect(none.body).toEqual({ detail: 'No installationId' })
    await api().post(`/api/users/${ids.user}/active`).set(auth(tokens.admin)).send({ active: 'yes' }).expect(400)
  })

  it('deactivation (with a date passed) ends the sessions; re-activation clears the date (SPEC §4)', async () => {
    const created = await create(tokens.admin, 1, { email: 'deact@example.com', first_name: 'D', last_name: 'A' }).expect(201)
    const id = created.body.id
    await app.domain!.db.updateTable('users').set({ password_hash: (await app.domain!.db.selectFrom('users').select('password_hash').where('id', '=', ids.user).executeTakeFirstOrThrow()).password_hash }).where('id', '=', id).execute()
    const s = await api().post('/api/authentication/token/').send({ email: 'deact@example.com', password: PASSWORD }).expect(200)
    // A date already passed on the app's clock (one ahead keeps the user in until then: accounts-hardening.test.ts).
    const date = new Date(app.clock.ms() - 3600_000).toISOString()
    const off = await api().post(`/api/users/${id}/active`).set(auth(tokens.admin)).send({ active: false, date }).expect(200)
    expect(off.body).toMatchObject({ is_active: false, deactivation_datetime: date })
    await api().get(`/api/users/${id}/`).set(auth(s.body.access)).expect(401)
    await api().post('/api/authentication/token/refresh/').send({ refresh: s.body.refresh }).expect(401)
    await api().post('/api/authentication/token/').send({ email: 'deact@example.com', password: PASSWORD }).expect(401)
    const on = await api().post(`/api/users/${id}/active`).set(auth(tokens.admin)).send({ active: true }).expect(200)
    expect(on.body).toMatchObject({ is_active: true, deactivation_datetime: null })
    await api().post('/api/authentication/token/').send({ email: 'deact@example.com', password: PASSWORD }).expect(200)
    const self = await api().post(`/api/users/${ids.admin}/active`).set(auth(tokens.admin)).set('Accept-Language', 'de').send({ active: false }).expect(400)
    expect(self.body.detail).toMatch(/eigenes Konto/)
  })

  it('memberships: an admin adds and removes facilities only within their installations', async () => {
    const created = await create(tokens.super, 1, { email: 'member@example.com', first_name: 'M', last_name: 'B' }).expect(201)
    const id = created.body.id
    // The Zürich admin cannot add the user to Bern; the superuser can.
    await api().post(`/api/cockpit/users/${id}/installations/`).set(auth(tokens.admin)).send({ installation_id: other }).expect(403)
    await api().post(`/api/cockpit/users/${id}/installations/`).set(auth(tokens.super)).send({ installation_id: other, role: 'installation_user' }).expect(201)
    // Each admin sees only their own installation's membership.
    expect((await api().get(`/api/cockpit/users/${id}/installations/`).set(auth(tokens.admin)).expect(200)).body.map((m: { id: number }) => m.id)).toEqual([1])
    expect((await api().get(`/api/cockpit/users/${id}/installations/`).set(auth(tokens.bern)).expect(200)).body.map((m: { id: number }) => m.id)).toEqual([other])
    await api().patch(`/api/cockpit/users/${id}/installations/${other}`).set(auth(tokens.admin)).send({ role: 'installation_admin' }).expect(403)
    await api().patch(`/api/cockpit/users/${id}/installations/1`).set(auth(tokens.admin)).send({ role: 'installation_admin' }).expect(200)
    await api().delete(`/api/cockpit/users/${id}/installations/${other}`).set(auth(tokens.admin)).expect(403)
    await api().delete(`/api/cockpit/users/${id}/installations/${other}`).set(auth(tokens.bern)).expect(204)
    const ofInst = await api().get('/api/cockpit/users/installation/1').set(auth(tokens.admin)).expect(200)
    expect(ofInst.body.find((u: { id: number }) => u.id === id)).toMatchObject({ role: 'installation_admin' })
    await api().get('/api/cockpit/users/installation/1').set(auth(tokens.bern)).expect(403)
    await api().get('/api/cockpit/users/installation/1').set(auth(tokens.user)).expect(403)
    await api().get('/api/cockpit/users/installation/999').set(auth(tokens.super)).expect(404)
  })

  it('only a superuser grants superuser rights', async () => {
    await api().put(`/api/cockpit/users/${ids.user}/superuser`).set(auth(tokens.admin)).send({ is_superuser: true }).expect(403)
    const r = await api().put(`/api/cockpit/users/${ids.user}/superuser`).set(auth(tokens.super)).send({ is_superuser: true }).expect(200)
    expect(r.body).toMatchObject({ is_superuser: true, role: 'superuser' })
    // Now the admin can no longer change that user.
    await api().post(`/api/users/${ids.user}/active`).set(auth(tokens.admin)).send({ active: false }).expect(403)
    await api().put(`/api/cockpit/users/${ids.user}/superuser`).set(auth(tokens.super)).send({ is_superuser: false }).expect(200)
    await api().put(`/api/cockpit/users/${ids.super}/superuser`).set(auth(tokens.super)).send({ is_superuser: false }).expect(400)
  })

  it('authorization matrix: no management call succeeds for an installation_user or across installations', async () => {
    const bernUser = (await create(tokens.bern, other, { email: 'bern-user@example.com', first_name: 'B', last_name: 'U' }).expect(201)).body.id
    const zUser = ids.user
    // [who, call, expected status]
    const calls: [string, () => request.Test, number][] = [
      ['user', () => api().get('/api/cockpit/users/').set(auth(tokens.user)), 403],
      ['user', () => create(tokens.user, 1, { email: 'u1@example.com', first_name: 'A', last_name: 'B' }), 403],
      ['user', () => api().post(`/api/users/${ids.admin}/active`).set(auth(tokens.user)).send({ active: false }), 404],
      ['user', () => api().post(`/api/users/${zUser}/send-welcome-email`).set(auth(tokens.user)), 404],
      ['user', () => api().get(`/api/cockpit/users/${ids.admin}/installations/`).set(auth(tokens.user)), 404],
      ['admin', () => api().get(`/api/cockpit/users/?installation=${other}`).set(auth(tokens.admin)), 403],
      ['admin', () => create(tokens.admin, other, { email: 'x1@example.com', first_name: 'A', last_name: 'B' }), 403],
      ['admin', () => api().post(`/api/users/${bernUser}/active`).set(auth(tokens.admin)).send({ active: false }), 404],
      ['admin', () => api().post(`/api/users/${bernUser}/send-welcome-email`).set(auth(tokens.admin)), 404],
      ['admin', () => api().get(`/api/cockpit/users/${bernUser}/`).set(auth(tokens.admin)), 404],
      ['admin', () => api().get(`/api/cockpit/users/${bernUser}/installations/`).set(auth(tokens.admin)), 404],
      ['admin', () => api().post(`/api/cockpit/users/${bernUser}/installations/`).set(auth(tokens.admin)).send({ installation_id: 1 }), 404],
      ['admin', () => api().get(`/api/cockpit/users/installation/${other}`).set(auth(tokens.admin)), 403],
      ['bern', () => api().post(`/api/users/${zUser}/active`).set(auth(tokens.bern)).send({ active: false }), 404],
      ['bern', () => api().get(`/api/cockpit/users/${zUser}/`).set(auth(tokens.bern)), 404],
      ['bern', () => api().post(`/api/cockpit/users/${zUser}/installations/`).set(auth(tokens.bern)).send({ installation_id: other }), 404],
      ['super', () => api().get(`/api/cockpit/users/${bernUser}/`).set(auth(tokens.super)), 200],
      ['super', () => api().post(`/api/users/${bernUser}/send-welcome-email`).set(auth(tokens.super)), 200],
    ]
    for (const [i, [who, call, status]] of calls.entries()) {
      const r = await call()
      expect(r.status, `call #${i} by ${who}`).toBe(status)
    }
    await api().get('/api/cockpit/users/').expect(401)
  })
})

describe('welcome e-mail', () => {
  it('goes through the outbox in the user\'s language with a set-password link that works', async () => {
    const created = await create(tokens.admin, 1, { email: 'welcome@example.com', first_name: 'Wanda', last_name: 'Willkomm', ietf_lang_tag: 'de-CH', send_welcome: true }).expect(201)
    const row = await app.domain!.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'welcome@example.com').executeTakeFirstOrThrow()
    expect(row.kind).toBe('welcome')
    expect(row.subject).toBe('Willkommen bei Cockpit')
    expect(row.body_text).toContain('Demo Residence')
    expect(row.body_html).toContain('Passwort festlegen')
    const token = /\/login\/reset\?token=([A-Za-z0-9_-]+)/.exec(row.body_text)![1]
    await api().post('/api/password-reset/confirm/').send({ token, password: 'Willkommen-1' }).expect(200)
    await login(app, 'welcome@example.com', 'Willkommen-1')
    const again = await api().post(`/api/users/${created.body.id}/send-welcome-email`).set(auth(tokens.admin)).set('Accept-Language', 'de').expect(200)
    expect(again.body.detail).toBe('Die Willkommens-E-Mail wurde versendet.')
  })
})

describe('a new user\'s language (SPEC §9 language and region)', () => {
  const db = () => app.domain!.db
  const tagOf = async (email: string) => (await db().selectFrom('users').select('ietf_lang_tag').where('email', '=', email).executeTakeFirstOrThrow()).ietf_lang_tag
  const welcome = (email: string) => db().selectFrom('mail_outbox').select(['subject', 'body_text']).where('recipient', '=', email).where('kind', '=', 'welcome').executeTakeFirstOrThrow()

  it('without one in the form, the user gets the creating admin\'s language and region, and the welcome mail is in it', async () => {
    const before = await tagOf('admin@example.com')
    await db().updateTable('users').set({ ietf_lang_tag: 'en-GB' }).where('email', '=', 'admin@example.com').execute()
    try {
      // Asked in German (Accept-Language) by an admin whose own setting is English: the setting counts.
      const r = await create(tokens.admin, 1, { email: 'english-resident@example.com', first_name: 'Emma', last_name: 'English', send_welcome: true })
        .set('Accept-Language', 'de').expect(201)
      expect(r.body.ietf_lang_tag).toBe('en-GB')
      expect(await tagOf('english-resident@example.com')).toBe('en-GB')
      const mail = await welcome('english-resident@example.com')
      expect(mail.subject).toBe('Welcome to Cockpit')
      expect(mail.body_text).toContain('Set your password')
    } finally {
      await db().updateTable('users').set({ ietf_lang_tag: before }).where('email', '=', 'admin@example.com').execute()
    }
  })

  it('a German-speaking admin\'s resident gets German; a language the form names wins over the admin\'s', async () => {
    // The Bern admin's setting is "de" (tests/integration/helpers.ts addOtherInstallation).
    const de = await create(tokens.bern, other, { email: 'bern-resident@example.com', first_name: 'Beat', last_name: 'Berner', send_welcome: true }).expect(201)
    expect(de.body.ietf_lang_tag).toBe('de')
    expect((await welcome('bern-resident@example.com')).subject).toBe('Willkommen bei Cockpit')
    const fr = await create(tokens.bern, other, { email: 'bern-romand@example.com', first_name: 'Fabienne', last_name: 'Romande', ietf_lang_tag: 'fr-CH', send_welcome: true }).expect(201)
    expect(fr.body.ietf_lang_tag).toBe('fr-CH')
    expect((await welcome('bern-romand@example.com')).subject).toBe('Bienvenue sur Cockpit')
  })

  it('a superuser\'s resident gets the superuser\'s language; an unknown language in the form is a 400 naming the field, and no user is made', async () => {
    const r = await create(tokens.super, 1, { email: 'super-resident@example.com', first_name: 'S', last_name: 'R' }).expect(201)
    expect(r.body.ietf_lang_tag).toBe(await tagOf('super@example.com'))
    const bad = await create(tokens.admin, 1, { email: 'klingon@example.com', first_name: 'K', last_name: 'L', ietf_lang_tag: 'tlh-KX' }).expect(400)
    expect(Object.keys(bad.body)).toEqual(['ietf_lang_tag'])
    expect(await db().selectFrom('users').select('id').where('email', '=', 'klingon@example.com').executeTakeFirst()).toBeUndefined()
  })
})

describe('identity of a person who also belongs to another installation (ARCHITECTURE §4)', () => {
  // The Zürich admin administers installation 1 only; `shared` is a resident of 1 and of the other
  // installation, the other installation's admin also lives in 1. Neither's identity is the Zürich admin's.
  const db = () => app.domain!.db
  const row = (id: number) => db().selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
  const mails = async (to: string) => (await db().selectFrom('mail_outbox').select('id').where('recipient', '=', to).execute()).length
  /** Follow the link that confirms a new sign-in address, mailed to `to`. */
  const confirmFromMail = async (to: string) => {
    const mail = await db().selectFrom('mail_outbox').select('body_text').where('recipient', '=', to).where('kind', '=', 'email_confirm').orderBy('id', 'desc').executeTakeFirstOrThrow()
    await api().post('/api/users/email/confirm/').send({ token: /email-confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.body_text)![1] }).expect(200)
  }

  it('an admin of one of them gets 403 for every identity write, and nothing changes', async () => {
    const shared = (await create(tokens.admin, 1, { email: 'shared@example.com', first_name: 'Sam', last_name: 'Shared' }).expect(201)).body.id as number
    await api().post(`/api/cockpit/users/${shared}/installations/`).set(auth(tokens.super)).send({ installation_id: other, role: 'installation_user' }).expect(201)
    await api().post(`/api/cockpit/users/${ids.bern}/installations/`).set(auth(tokens.super)).send({ installation_id: 1, role: 'installation_user' }).expect(201)
    const card = await db().insertInto('payment_methods').values({ user_id: ids.bern, kind: 'credit_card', brand: 'Visa', masked: '•••• 1111', exp_month: 1, exp_year: 2099, alias: 'mine', favourite: true, provider: 'demo', token: 'demo_ok_x' }).returning('id').executeTakeFirstOrThrow()

    for (const [victim, email] of [[shared, 'shared@example.com'], [ids.bern, 'bern-admin@example.com']] as const) {
      const before = await row(victim)
      const mailsBefore = await mails(email)
      const writes: [string, () => request.Test][] = [
        ['PUT email', () => api().put(`/api/users/${victim}/email`).set(auth(tokens.admin)).send({ email: 'attacker@example.com' })],
        ['welcome mail', () => api().post(`/api/users/${victim}/send-welcome-email`).set(auth(tokens.admin))],
        ['welcome mail for installation 1', () => api().post(`/api/users/${victim}/send-welcome-email`).set(auth(tokens.admin)).set('installation-id', '1')],
        ['deactivate', () => api().post(`/api/users/${victim}/active`).set(auth(tokens.admin)).send({ active: false })],
        ['PUT details', () => api().put(`/api/users/${victim}/`).set(auth(tokens.admin)).send({ first_name: 'Mallory', last_name: 'M', title: null, address: '', zip_code: '', city: '', country: '', telephone: '', company: '', comment: '', ietf_lang_tag: 'en' })],
        ['PATCH details', () => api().patch(`/api/users/${victim}/`).set(auth(tokens.admin)).send({ first_name: 'Mallory' })],
        ['DELETE', () => api().delete(`/api/users/${victim}/`).set(auth(tokens.admin))],
        ['PATCH payment info', () => api().patch(`/api/users/${victim}/payment-info/${card.id}/`).set(auth(tokens.admin)).send({ alias: 'x' })],
        ['DELETE payment info', () => api().delete(`/api/users/${victim}/payment-info/${card.id}/`).set(auth(tokens.admin))],
      ]
      for (const [what, call] of writes) expect((await call()).status, `${what} on ${email}`).toBe(403)
      expect(await row(victim)).toEqual(before)
      expect(await mails(email)).toBe(mailsBefore)
      expect(await mails('attacker@example.com')).toBe(0)
    }
    expect(await db().selectFrom('payment_methods').select('alias').where('id', '=', card.id).executeTakeFirstOrThrow()).toEqual({ alias: 'mine' })
    const refused = await api().put(`/api/users/${shared}/email`).set(auth(tokens.admin)).set('Accept-Language', 'de').send({ email: 'attacker@example.com' }).expect(403)
    expect(refused.body.detail).toMatch(/nur ein Superuser/)
    // The other installation's admin has no more say over the shared resident than the Zürich admin.
    await api().put(`/api/users/${shared}/email`).set(auth(tokens.bern)).send({ email: 'attacker@example.com' }).expect(403)
    await api().post(`/api/users/${shared}/active`).set(auth(tokens.bern)).send({ active: false }).expect(403)
    // Reading stays allowed, and so do the installation-scoped membership writes.
    await api().get(`/api/users/${shared}/`).set(auth(tokens.admin)).expect(200)
    await api().patch(`/api/cockpit/users/${shared}/installations/1`).set(auth(tokens.admin)).send({ role: 'installation_user' }).expect(200)
  })

  it('a person only in the admin’s installation stays theirs, and a superuser may act on anyone', async () => {
    const own = (await create(tokens.admin, 1, { email: 'only-here@example.com', first_name: 'O', last_name: 'H' }).expect(201)).body.id as number
    await api().put(`/api/users/${own}/email`).set(auth(tokens.admin)).send({ email: 'only-here-2@example.com' }).expect(202)
    await confirmFromMail('only-here-2@example.com')
    await api().post(`/api/users/${own}/send-welcome-email`).set(auth(tokens.admin)).expect(200)
    // The confirmation link, then the welcome mail.
    expect(await mails('only-here-2@example.com')).toBe(2)
    await api().post(`/api/users/${own}/active`).set(auth(tokens.admin)).send({ active: false }).expect(200)
    await api().patch(`/api/users/${own}/`).set(auth(tokens.admin)).send({ first_name: 'Olga' }).expect(200)
    await api().delete(`/api/users/${own}/`).set(auth(tokens.admin)).expect(204)

    const shared = (await db().selectFrom('users').select('id').where('email', '=', 'shared@example.com').executeTakeFirstOrThrow()).id
    await api().put(`/api/users/${shared}/email`).set(auth(tokens.super)).send({ email: 'shared-2@example.com' }).expect(202)
    await confirmFromMail('shared-2@example.com')
    await api().post(`/api/users/${shared}/send-welcome-email`).set(auth(tokens.super)).expect(200)
    expect(await mails('shared-2@example.com')).toBe(2)
    await api().post(`/api/users/${shared}/active`).set(auth(tokens.super)).send({ active: false }).expect(200)
    expect((await row(shared))?.is_active).toBe(false)
    // Once the other installation lets the person go, the Zürich admin administers all of their installations.
    await api().delete(`/api/cockpit/users/${shared}/installations/${other}`).set(auth(tokens.bern)).expect(204)
    await api().post(`/api/users/${shared}/active`).set(auth(tokens.admin)).send({ active: true }).expect(200)
  })
})

describe('users screen', () => {
  const db = () => app.domain!.db
  const list = async (token: string, role: string, installation = 1) =>
    (await api().get('/api/cockpit/users/').query({ role, installation }).set(auth(token)).expect(200)).body.results as { id: number; email: string; role: string; telephone: string; installations: unknown[] }[]

  it('the Superuser filter of an installation lists the superusers, who hold every installation without a membership', async () => {
    // The screen always asks for one installation; the demo superuser is a member of none.
    expect((await list(tokens.super, 'superuser')).map((u) => u.email)).toEqual(['super@example.com'])
    expect((await list(tokens.super, 'all')).map((u) => u.email)).toContain('super@example.com')
    // An admin sees who operates the portal, but not their personal details.
    await db().updateTable('users').set({ telephone: '+41 44 000 00 00' }).where('id', '=', ids.super).execute()
    const seen = await list(tokens.admin, 'superuser')
    expect(seen).toEqual([expect.objectContaining({ email: 'super@example.com', role: 'superuser', telephone: '', installations: [] })])
    // The filters stay disjoint.
    expect((await list(tokens.admin, 'installation_user')).map((u) => u.email)).not.toContain('super@example.com')
    expect((await list(tokens.admin, 'installation_admin')).map((u) => u.email)).not.toContain('super@example.com')
    // The other installation's admin sees no Zürich people, only the superuser.
    expect((await list(tokens.bern, 'all', other)).map((u) => u.email)).not.toContain('user@example.com')
  })

  it('a user has a description (SPEC §3), set by an admin and shown in the list', async () => {
    const made = await create(tokens.admin, 1, { email: 'desc@example.com', first_name: 'Dora', last_name: 'Desc', description: 'Flat 2.1' }).expect(201)
    expect(made.body.description).toBe('Flat 2.1')
    const patched = await api().patch(`/api/users/${made.body.id}/`).set(auth(tokens.admin)).send({ description: 'Flat 2.2, garage 7' }).expect(200)
    expect(patched.body.description).toBe('Flat 2.2, garage 7')
    expect((await list(tokens.admin, 'all')).find((u) => u.id === made.body.id)).toMatchObject({ description: 'Flat 2.2, garage 7' })
    expect((await api().get(`/api/cockpit/users/${made.body.id}/`).set(auth(tokens.admin)).expect(200)).body.description).toBe('Flat 2.2, garage 7')
    await api().patch(`/api/users/${made.body.id}/`).set(auth(tokens.admin)).send({ description: 'x'.repeat(256) }).expect(400)
    // The other installation's admin cannot reach the person.
    await api().patch(`/api/users/${made.body.id}/`).set(auth(tokens.bern)).send({ description: 'hacked' }).expect(404)
  })

  it('role per installation: an admin changes it in their installation only, never their own; a superuser anywhere', async () => {
    const id = (await create(tokens.admin, 1, { email: 'role@example.com', first_name: 'R', last_name: 'Ole' }).expect(201)).body.id as number
    await api().post(`/api/cockpit/users/${id}/installations/`).set(auth(tokens.super)).send({ installation_id: other, role: 'installation_user' }).expect(201)
    const promoted = await api().patch(`/api/cockpit/users/${id}/installations/1`).set(auth(tokens.admin)).send({ role: 'installation_admin' }).expect(200)
    expect(promoted.body).toEqual({ id: 1, role: 'installation_admin' })
    // Admin of 1 only: the role in Bern is not theirs (and Bern stays as it was).
    await api().put(`/api/cockpit/users/${id}/installations/${other}`).set(auth(tokens.admin)).send({ role: 'installation_admin' }).expect(403)
    const memberships = await db().selectFrom('installation_users').select(['installation_id', 'role']).where('user_id', '=', id).orderBy('installation_id').execute()
    expect(memberships).toEqual([{ installation_id: 1, role: 'installation_admin' }, { installation_id: other, role: 'installation_user' }])
    // The new admin can now manage installation 1's users.
    await api().get('/api/cockpit/users/installation/1').set(auth(await loginAs(id))).expect(200)
    // Nobody changes their own role (an admin would lock themselves out).
    const self = await api().patch(`/api/cockpit/users/${ids.admin}/installations/1`).set(auth(tokens.admin)).send({ role: 'installation_user' }).expect(400)
    expect(self.body.detail).toMatch(/own account/)
    expect((await db().selectFrom('installation_users').select('role').where('user_id', '=', ids.admin).where('installation_id', '=', 1).executeTakeFirstOrThrow()).role).toBe('installation_admin')
    // A resident and the other installation's admin cannot change it; a superuser can, anywhere.
    await api().patch(`/api/cockpit/users/${id}/installations/1`).set(auth(tokens.user)).send({ role: 'installation_user' }).expect(403)
    await api().patch(`/api/cockpit/users/${id}/installations/1`).set(auth(tokens.bern)).send({ role: 'installation_user' }).expect(403)
    await api().patch(`/api/cockpit/users/${id}/installations/${other}`).set(auth(tokens.super)).send({ role: 'installation_admin' }).expect(200)
    // Changing the role of a user who is not a member answers 404, not a new membership.
    const stranger = (await create(tokens.bern, other, { email: 'stranger@example.com', first_name: 'S', last_name: 'T' }).expect(201)).body.id
    await api().patch(`/api/cockpit/users/${stranger}/installations/1`).set(auth(tokens.super)).send({ role: 'installation_admin' }).expect(404)
    expect(await db().selectFrom('installation_users').select('role').where('user_id', '=', stranger).where('installation_id', '=', 1).executeTakeFirst()).toBeUndefined()
  })

  it('assigning an RFID card to a user: admins of the card’s installation, to members of it', async () => {
    const id = (await create(tokens.admin, 1, { email: 'cardholder@example.com', first_name: 'C', last_name: 'Holder' }).expect(201)).body.id as number
    const card = (await api().post('/api/cockpit/installations/1/rfids/').set(auth(tokens.admin)).send({ tag: 'ASSIGN01', description: 'spare' }).expect(201)).body
    expect(card.user_id).toBeNull()
    const assigned = await api().patch(`/api/cockpit/installations/1/rfids/${card.id}/`).set(auth(tokens.admin)).send({ user_id: id }).expect(200)
    expect(assigned.body).toMatchObject({ user_id: id, user_name: 'C Holder' })
    // A person of another installation cannot get the card; nor can other admins or the resident assign it.
    const bernOnly = (await create(tokens.bern, other, { email: 'bern-only@example.com', first_name: 'B', last_name: 'O' }).expect(201)).body.id
    const refused = await api().patch(`/api/cockpit/installations/1/rfids/${card.id}/`).set(auth(tokens.admin)).send({ user_id: bernOnly }).expect(400)
    expect(Object.keys(refused.body)).toEqual(['user_id'])
    await api().patch(`/api/cockpit/installations/1/rfids/${card.id}/`).set(auth(tokens.bern)).send({ user_id: ids.bern }).expect(404)
    await api().patch(`/api/cockpit/installations/${other}/rfids/${card.id}/`).set(auth(tokens.bern)).send({ user_id: bernOnly }).expect(404)
    await api().patch(`/api/cockpit/installations/1/rfids/${card.id}/`).set(auth(tokens.user)).send({ user_id: ids.user }).expect(404)
    expect((await db().selectFrom('rfids').select('user_id').where('id', '=', card.id).executeTakeFirstOrThrow()).user_id).toBe(id)
    // The new holder sees their card; unassigning takes it away again.
    const holder = await loginAs(id)
    expect((await api().get('/api/cockpit/installations/1/rfids/').set(auth(holder)).expect(200)).body.results.map((r: { id: number }) => r.id)).toEqual([card.id])
    await api().patch(`/api/cockpit/installations/1/rfids/${card.id}/`).set(auth(tokens.admin)).send({ user_id: null }).expect(200)
    expect((await api().get('/api/cockpit/installations/1/rfids/').set(auth(holder)).expect(200)).body.results).toEqual([])
  })
})

/** Give a test user the demo password and sign in as them. */
async function loginAs(userId: number): Promise<string> {
  const db = app.domain!.db
  const hash = (await db.selectFrom('users').select('password_hash').where('id', '=', ids.user).executeTakeFirstOrThrow()).password_hash
  const u = await db.updateTable('users').set({ password_hash: hash }).where('id', '=', userId).returning('email').executeTakeFirstOrThrow()
  return login(app, u.email)
}
