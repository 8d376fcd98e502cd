import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, auth, login, PASSWORD, startApp } from './helpers.ts'

let app: FastifyInstance
const ids: Record<string, number> = {}
const tokens: Record<string, string> = {}
let otherInstallation: number

const api = () => request(app.server)
const idOf = async (email: string) => (await app.domain!.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
  const other = await addOtherInstallation(app)
  otherInstallation = other.installationId
  for (const [k, email] of Object.entries({ super: 'super@example.com', admin: 'admin@example.com', user: 'user@example.com', bern: other.adminEmail })) {
    ids[k] = await idOf(email)
  }
})
afterAll(async () => {
  await app?.close()
})
beforeEach(async () => {
  for (const k of ['super', 'admin', 'user', 'bern']) {
    tokens[k] = await login(app, (await app.domain!.db.selectFrom('users').select('email').where('id', '=', ids[k]).executeTakeFirstOrThrow()).email)
  }
})

/** A fresh installation_user in `installation` (demo: 1) with the demo password. */
async function newUser(email: string, installation = 1): Promise<number> {
  const hash = (await app.domain!.db.selectFrom('users').select('password_hash').where('id', '=', ids.user).executeTakeFirstOrThrow()).password_hash
  const u = await app.domain!.db.insertInto('users').values({ email, password_hash: hash, first_name: 'Nina', last_name: 'Neu', title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'de-CH', last_login: null, previous_login: null }).returning('id').executeTakeFirstOrThrow()
  await app.domain!.db.insertInto('installation_users').values({ user_id: u.id, installation_id: installation, role: 'installation_user' }).execute()
  return u.id
}

const details = { title: 'ms', first_name: 'Ursula', last_name: 'Muster', address: 'Bahnhofstrasse 1', zip_code: '8001', city: 'Zürich', country: 'CH', telephone: '+41 44 123 45 67', company: 'Muster AG', comment: 'Parkplatz 12', ietf_lang_tag: 'de-CH' }

describe('own account: GET, PUT, PATCH /users/{id}/', () => {
  it('saves user details, language and region format, and reads them back', async () => {
    const put = await api().put(`/api/users/${ids.user}/`).set(auth(tokens.user)).send(details).expect(200)
    expect(put.body).toMatchObject({ ...details, full_name: 'Ursula Muster', email: 'user@example.com' })
    const patch = await api().patch(`/api/users/${ids.user}/`).set(auth(tokens.user)).send({ ietf_lang_tag: 'fr-FR', title: 'mr' }).expect(200)
    expect(patch.body).toMatchObject({ ietf_lang_tag: 'fr-FR', title: 'mr', city: 'Zürich' })
    const got = await api().get(`/api/users/${ids.user}/`).set(auth(tokens.user)).expect(200)
    expect(got.body).toMatchObject({ ietf_lang_tag: 'fr-FR', company: 'Muster AG', country: 'CH' })
  })

  it('answers 400 in the SPEC wording and the caller\'s language for bad input', async () => {
    const r = await api().put(`/api/users/${ids.user}/`).set(auth(tokens.user)).send({ first_name: '' }).expect(400)
    expect(r.body).toEqual({ first_name: ['The field is required.'], last_name: ['The field is required.'] })
    const de = await api().patch(`/api/users/${ids.user}/`).set(auth(tokens.user)).set('Accept-Language', 'de').send({ country: 'XX', ietf_lang_tag: 'es-ES' }).expect(400)
    expect(de.body).toEqual({ country: ['Der Wert ist ungültig.'], ietf_lang_tag: ['Der Wert ist ungültig.'] })
    await api().patch(`/api/users/${ids.user}/`).set(auth(tokens.user)).set('Content-Type', 'application/json').send('{bad').expect(400)
  })

  it('rights: self, an admin of the user\'s installation and a superuser; nobody else, and not across installations', async () => {
    const cases: [string, number, number][] = [
      ['user', ids.admin, 404], ['user', ids.super, 404], ['user', ids.bern, 404],
      ['admin', ids.user, 200], ['admin', ids.bern, 404], ['admin', ids.super, 404],
      ['bern', ids.user, 404], ['bern', ids.admin, 404],
      ['super', ids.user, 200], ['super', ids.bern, 200],
    ]
    for (const [who, target, status] of cases) {
      const r = await api().patch(`/api/users/${target}/`).set(auth(tokens[who])).send({ comment: `by ${who}` })
      expect(r.status, `${who} PATCH user ${target}`).toBe(status)
      const g = await api().get(`/api/users/${target}/`).set(auth(tokens[who]))
      expect(g.status, `${who} GET user ${target}`).toBe(status)
      // A change allowed is asked (202) and waits for the new address's confirmation: nothing to restore.
      const e = await api().put(`/api/users/${target}/email`).set(auth(tokens[who])).send({ email: `x-${who}-${target}@example.com` })
      expect(e.status, `${who} PUT email of ${target}`).toBe(status === 200 ? 202 : status)
    }
    const own = await api().get(`/api/users/${ids.bern}/`).set(auth(tokens.super)).expect(200)
    expect(own.body.installations).toEqual([{ id: otherInstallation, role: 'installation_admin' }])
    await api().get(`/api/users/${ids.user}/`).expect(401)
  })
})

describe('PUT /users/{id}/email', () => {
  it('asks for the new sign-in address with the current password; an address in use gets the same answer and stays its owner\'s', async () => {
    const id = await newUser('mail-change@example.com')
    const token = await login(app, 'mail-change@example.com')
    const taken = await api().put(`/api/users/${id}/email`).set(auth(token)).set('Accept-Language', 'de').send({ email: 'admin@example.com', password: PASSWORD }).expect(202)
    await api().put(`/api/users/${id}/email`).set(auth(token)).send({ email: 'no-at', password: PASSWORD }).expect(400)
    const free = await api().put(`/api/users/${id}/email`).set(auth(token)).set('Accept-Language', 'de').send({ email: 'Neue.Adresse@Example.com', password: PASSWORD }).expect(202)
    expect(free.body).toEqual(taken.body)
    await login(app, 'admin@example.com')
    // The address counts once the link mailed to it is followed.
    const mail = await app.domain!.db.selectFrom('mail_outbox').select('body_text').where('recipient', '=', 'neue.adresse@example.com').where('kind', '=', 'email_confirm').executeTakeFirstOrThrow()
    const link = /email-confirm\?token=([A-Za-z0-9_-]+)/.exec(mail.body_text)![1]
    await api().post('/api/users/email/confirm/').send({ token: link }).expect(200)
    await login(app, 'neue.adresse@example.com')
  })
})

describe('PUT /users/password/', () => {
  it('checks the current password, the rule and the repeat (SPEC §5, en and de), then ends other sessions', async () => {
    const id = await newUser('pw@example.com')
    const other = await api().post('/api/authentication/token/').send({ email: 'pw@example.com', password: PASSWORD }).expect(200)
    const token = await login(app, 'pw@example.com')
    const wrong = await api().put('/api/users/password/').set(auth(token)).send({ old_password: 'nope', new_password: 'Neues-Pass-1' }).expect(400)
    expect(wrong.body).toEqual({ old_password: ['The entered password does not match your current password'] })
    const wrongDe = await api().put('/api/users/password/').set(auth(token)).set('Accept-Language', 'de').send({ old_password: 'nope', new_password: 'Neues-Pass-1' }).expect(400)
    expect(wrongDe.body).toEqual({ old_password: ['Das eingegebene Passwort stimmt nicht mit Ihrem aktuellen Passwort überein'] })
    const weak = await api().put('/api/users/password/').set(auth(token)).send({ old_password: PASSWORD, new_password: 'abcdefgh' }).expect(400)
    expect(weak.body).toEqual({ new_password: ['The password must be at least 8 characters long and contain a number and a symbol.'] })
    const mismatch = await api().put('/api/users/password/').set(auth(token)).send({ old_password: PASSWORD, new_password: 'Neues-Pass-1', new_password_confirm: 'Neues-Pass-2' }).expect(400)
    expect(mismatch.body).toEqual({ new_password_confirm: ['The entered passwords do not match'] })
    const missing = await api().put('/api/users/password/').set(auth(token)).set('Accept-Language', 'de').send({}).expect(400)
    expect(missing.body).toEqual({ old_password: ['Das Feld ist erforderlich.'], new_password: ['Das Feld ist erforderlich.'] })

    const ok = await api().put('/api/users/password/').set(auth(token)).send({ old_password: PASSWORD, new_password: 'Neues-Pass-1', new_password_confirm: 'Neues-Pass-1' }).expect(200)
    expect(ok.body.detail).toBe('Your password has been changed.')
    await api().post('/api/authentication/token/refresh/').send({ refresh: other.body.refresh }).expect(401)
    await api().post('/api/authentication/token/refresh/').send({ refresh: ok.body.refresh }).expect(200)
    await api().post('/api/authentication/token/').send({ email: 'pw@example.com', password: PASSWORD }).expect(401)
    await login(app, 'pw@example.com', 'Neues-Pass-1')
    expect(id).toBeGreaterThan(0)
  })
})

describe('DELETE /users/{id}/', () => {
  it('is refused while unpaid charging sessions exist (en, de), then deletes and ends the sessions', async () => {
    const id = await newUser('leaving@example.com')
    const session = await api().post('/api/authentication/token/').send({ email: 'leaving@example.com', password: PASSWORD }).expect(200)
    const station = await app.domain!.db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).executeTakeFirstOrThrow()
    const s = await app.domain!.db.insertInto('charging_sessions').values({ installation_id: 1, station_id: station.id, rfid_id: null, user_id: id, start: new Date(app.clock.ms() - 7200_000), end: new Date(app.clock.ms() - 3600_000), energy_kwh: 10, high_kwh: 10, low_kwh: 0, price_rappen: 300, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false }).returning('id').executeTakeFirstOrThrow()
    const refused = await api().delete(`/api/users/${id}/`).set(auth(session.body.access)).expect(400)
    expect(refused.body.detail).toBe('The profile cannot be deleted while unpaid charging sessions exist. Please pay them first.')
    const refusedDe = await api().delete(`/api/users/${id}/`).set(auth(session.body.access)).set('Accept-Language', 'de').expect(400)
    expect(refusedDe.body.detail).toMatch(/unbezahlte Ladevorgänge/)
    await app.domain!.db.updateTable('charging_sessions').set({ status: 'paid', paid_on: app.clock.now() }).where('id', '=', s.id).execute()
    await api().delete(`/api/users/${id}/`).set(auth(session.body.access)).expect(204)
    await api().get(`/api/users/${id}/`).set(auth(session.body.access)).expect(401)
    await api().post('/api/authentication/token/refresh/').send({ refresh: session.body.refresh }).expect(401)
    await api().post('/api/authentication/token/').send({ email: 'leaving@example.com', password: PASSWORD }).expect(401)
  })

  it('rights: an installation_user cannot delete others; an admin only users of their own installations; not across installations', async () => {
    const a = await newUser('del-a@example.com')
    const b = await newUser('del-b@example.com', otherInstallation)
    await api().delete(`/api/users/${a}/`).set(auth(tokens.user)).expect(404)
    await api().delete(`/api/users/${a}/`).set(auth(tokens.bern)).expect(404)
    await api().delete(`/api/users/${b}/`).set(auth(tokens.admin)).expect(404)
    await api().delete(`/api/users/${ids.super}/`).set(auth(tokens.admin)).expect(404)
    // A user of two installations cannot be deleted by the admin of only one of them.
    await app.domain!.db.insertInto('installation_users').values({ user_id: a, installation_id: otherInstallation, role: 'installation_user' }).execute()
    await api().delete(`/api/users/${a}/`).set(auth(tokens.admin)).expect(403)
    await app.domain!.db.deleteFrom('installation_users').where('user_id', '=', a).where('installation_id', '=', otherInstallation).execute()
    await api().delete(`/api/users/${a}/`).set(auth(tokens.admin)).expect(204)
    await api().delete(`/api/users/${b}/`).set(auth(tokens.bern)).expect(204)
    const c = await newUser('del-c@example.com', otherInstallation)
    await api().delete(`/api/users/${c}/`).set(auth(tokens.super)).expect(204)
  })
})
