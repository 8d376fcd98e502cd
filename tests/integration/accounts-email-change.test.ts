import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { createTestClock } from '../../server/lib/clock.ts'
import { AT, auth, login, PASSWORD, seededSecond, startApp } from './helpers.ts'

/**
 * An e-mail change is confirmed from the new address (docs/decisions.md "Accounts: an e-mail change is
 * confirmed from the new address"): nobody learns from the answer whether an address has an account, in
 * either demo installation, as a resident, an admin of either installation or a superuser; an address with an
 * account is never changed; the mailed link changes the address once, on the clock, and only while the address
 * is still free.
 */
const clock = createTestClock(AT.morning)
let app: FastifyInstance
let bern: Awaited<ReturnType<typeof seededSecond>>
const api = () => request(app.server)
const db = () => app.domain!.db
const idOf = async (email: string) => (await db().selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
const emailOf = async (id: number) => (await db().selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email
const outbox = (to: string) => db().selectFrom('mail_outbox').select(['kind', 'subject', 'body_text']).where('recipient', '=', to).orderBy('id').execute()
const confirmTokenIn = (text: string) => /\/login\/email-confirm\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1]
const change = (token: string, id: number, email: string, password?: string) =>
  api().put(`/api/users/${id}/email`).set(auth(token)).send(password === undefined ? { email } : { email, password })

/** The confirmation link mailed to `to` last. */
async function lastLink(to: string): Promise<string> {
  const mails = (await outbox(to)).filter((m) => m.kind === 'email_confirm')
  const token = confirmTokenIn(mails.at(-1)?.body_text ?? '')
  expect(token, `a confirmation link to ${to}`).toBeTruthy()
  return token!
}

/** A fresh resident of `installation` with the demo password. */
async function newResident(email: string, installation = 1): Promise<number> {
  const hash = (await db().selectFrom('users').select('password_hash').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).password_hash
  const u = await db().insertInto('users').values({ email, password_hash: hash, first_name: 'Mara', last_name: 'Mail', title: null, is_superuser: false, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'de-CH', last_login: null, previous_login: null }).returning('id').executeTakeFirstOrThrow()
  await db().insertInto('installation_users').values({ user_id: u.id, installation_id: installation, role: 'installation_user' }).execute()
  return u.id
}

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock }))
  bern = await seededSecond(app)
})
afterAll(async () => app?.close())

describe('the answer tells nothing of other accounts', () => {
  it('a resident: a free address, one of the other installation and one of her own installation get the same answer, and nothing changes', async () => {
    const id = await newResident('probe-resident@example.com')
    const token = await login(app, 'probe-resident@example.com')
    const answers = []
    for (const email of ['nobody-here@example.com', 'admin2@example.com', 'admin@example.com', 'super@example.com']) {
      const r = await change(token, id, email, PASSWORD).set('Accept-Language', 'de')
      answers.push({ status: r.status, body: r.body })
    }
    expect(answers[0]).toEqual({ status: 202, body: { status: 'OK', detail: 'Wir haben einen Link zur Bestätigung der neuen Adresse gesendet. Die Anmelde-E-Mail ändert sich, sobald sie bestätigt ist.' } })
    for (const a of answers) expect(a).toEqual(answers[0])
    expect(await emailOf(id)).toBe('probe-resident@example.com')
    // The free address gets the link; an address with an account a notice without one, in its owner's language.
    expect((await outbox('nobody-here@example.com')).map((m) => m.kind)).toEqual(['email_confirm'])
    const notice = (await outbox('admin2@example.com')).filter((m) => m.kind === 'email_in_use')
    expect(notice).toHaveLength(1)
    expect(notice[0].body_text).not.toMatch(/token=/)
    expect(notice[0].body_text).toContain('nothing was changed')
    // The accounts with those addresses are as they were, and still sign in.
    await login(app, 'admin2@example.com')
  })

  it('an admin of either installation: an address of the other installation gets the answer of a free one; one they reach already is a clear 400', async () => {
    const zurich = await login(app, 'admin@example.com')
    const resident = await newResident('probe-by-admin@example.com')
    const free = await change(zurich, resident, 'free-by-admin@example.com')
    const elsewhere = await change(zurich, resident, bern.adminEmail)
    expect([free.status, elsewhere.status]).toEqual([202, 202])
    expect(elsewhere.body).toEqual(free.body)
    const mine = await change(zurich, resident, 'user@example.com').set('Accept-Language', 'fr').expect(400)
    expect(mine.body).toEqual({ email: ['Cette adresse e-mail est déjà utilisée par un autre compte.'] })
    // The superuser is in every installation's user list: no news to an admin.
    await change(zurich, resident, 'super@example.com').expect(400)
    expect(await emailOf(resident)).toBe('probe-by-admin@example.com')

    // The other installation's admin, for her own resident and for herself.
    const bernResident = await newResident('probe-bern@example.com', bern.installationId)
    const a = await change(bern.adminToken, bernResident, 'free-by-bern@example.com')
    const b = await change(bern.adminToken, bernResident, 'user@example.com')
    const c = await change(bern.adminToken, bern.adminId, 'admin@example.com', PASSWORD)
    expect([a.status, b.status, c.status]).toEqual([202, 202, 202])
    expect(b.body).toEqual(a.body)
    expect(c.body).toEqual(a.body)
    await change(bern.adminToken, bernResident, bern.adminEmail).expect(400)
    expect(await emailOf(bernResident)).toBe('probe-bern@example.com')
    expect(await emailOf(bern.adminId)).toBe(bern.adminEmail)
    // Neither admin reaches the other installation's people at all.
    await change(zurich, bernResident, 'x@example.com').expect(404)
    await change(bern.adminToken, resident, 'x@example.com').expect(404)
  })

  it('a superuser reaches every account: a taken address is a clear 400', async () => {
    const su = await login(app, 'super@example.com')
    const resident = await newResident('probe-by-super@example.com')
    await change(su, resident, bern.adminEmail).expect(400)
    await change(su, resident, 'free-by-super@example.com').expect(202)
  })

  it('answers the same time for a free address and one with an account (figures in the log)', async () => {
    const zurich = await login(app, 'admin@example.com')
    const resident = await newResident('timing@example.com')
    const time = async (email: string) => {
      const t = performance.now()
      await change(zurich, resident, email).expect(202)
      return performance.now() - t
    }
    const free: number[] = []
    const taken: number[] = []
    // Each address once, so the mails-per-address limit does not come into it.
    for (let i = 0; i < 40; i++) await newResident(`timing-taken-${i}@example.com`, bern.installationId)
    // Alternating which goes first, so work left behind by the previous request weighs on both alike.
    for (let i = 0; i < 40; i++) {
      if (i % 2) taken.push(await time(`timing-taken-${i}@example.com`))
      free.push(await time(`timing-free-${i}@example.com`))
      if (!(i % 2)) taken.push(await time(`timing-taken-${i}@example.com`))
    }
    const median = (xs: number[]) => [...xs].sort((p, q) => p - q)[xs.length >> 1]
    console.log(`e-mail change answer, median of 40: free ${median(free).toFixed(1)} ms, taken elsewhere ${median(taken).toFixed(1)} ms`)
    expect(await emailOf(resident)).toBe('timing@example.com')
  })
})

describe('the link mailed to the new address', () => {
  it('changes the address once; the previous address gets the undo notice', async () => {
    const id = await newResident('confirm-me@example.com')
    const token = await login(app, 'confirm-me@example.com')
    await change(token, id, 'Confirmed.New@Example.com', PASSWORD).expect(202)
    const link = await lastLink('confirmed.new@example.com')
    expect(await emailOf(id)).toBe('confirm-me@example.com')
    await clock.advance(60_000)
    const ok = await api().post('/api/users/email/confirm/').set('Accept-Language', 'it').send({ token: link }).expect(200)
    expect(ok.body).toEqual({ status: 'OK', detail: 'Il nuovo indirizzo e-mail è confermato. D’ora in poi lo usi per accedere.' })
    expect(await emailOf(id)).toBe('confirmed.new@example.com')
    await login(app, 'confirmed.new@example.com')
    expect((await outbox('confirm-me@example.com')).map((m) => m.kind)).toContain('email_changed')
    const again = await api().post('/api/users/email/confirm/').send({ token: link }).expect(404)
    expect(again.body).toEqual({ detail: 'The link has expired. Please create a new link' })
    await api().post('/api/users/email/confirm/').send({ token: 'never-issued' }).expect(404)
    await api().post('/api/users/email/confirm/').send({}).expect(400)
  })

  it('expires after 48 hours on the clock', async () => {
    const id = await newResident('slow@example.com')
    const admin = await login(app, 'admin@example.com')
    await change(admin, id, 'slow-new@example.com').expect(202)
    const link = await lastLink('slow-new@example.com')
    await clock.advance(48 * 3600_000 + 1000)
    await api().post('/api/users/email/confirm/').send({ token: link }).expect(404)
    expect(await emailOf(id)).toBe('slow@example.com')
  })

  it('is refused when the address got an account meanwhile, and when a later request replaced it', async () => {
    const id = await newResident('race@example.com')
    const admin = await login(app, 'admin@example.com')
    await change(admin, id, 'contested@example.com').expect(202)
    const link = await lastLink('contested@example.com')
    await newResident('contested@example.com', bern.installationId)
    const taken = await api().post('/api/users/email/confirm/').send({ token: link }).expect(400)
    expect(taken.body).toEqual({ email: ['This e-mail address is already used by another account.'] })
    expect(await emailOf(id)).toBe('race@example.com')

    await change(admin, id, 'first-choice@example.com').expect(202)
    const first = await lastLink('first-choice@example.com')
    await change(admin, id, 'second-choice@example.com').expect(202)
    const second = await lastLink('second-choice@example.com')
    await api().post('/api/users/email/confirm/').send({ token: first }).expect(404)
    await api().post('/api/users/email/confirm/').send({ token: second }).expect(200)
    expect(await emailOf(id)).toBe('second-choice@example.com')
  })

  it('mails one address at most 5 times an hour, with the same answer after', async () => {
    const id = await newResident('bomber@example.com')
    const token = await login(app, 'bomber@example.com')
    const before = (await outbox(bern.adminEmail)).length
    for (let i = 0; i < 8; i++) await change(token, id, bern.adminEmail, PASSWORD).expect(202)
    expect((await outbox(bern.adminEmail)).length - before).toBe(5)
    await clock.advance(3600_000 + 1000)
    await change(await login(app, 'bomber@example.com'), id, bern.adminEmail, PASSWORD).expect(202)
    expect((await outbox(bern.adminEmail)).length - before).toBe(6)
    expect(await idOf('bomber@example.com')).toBe(id)
  })
})
