import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { AT, auth, login, startApp, startWithTokens, until, type RoleTokens } from './helpers.ts'
import { createTestClock } from '../../server/lib/clock.ts'
import { inProcessRunner } from '../../server/jobs/runner.ts'
import { createPaymentJob } from '../../server/jobs/payments.ts'
import { createPaymentService } from '../../server/domain/payments/service.ts'
import { createDemoProvider } from '../../server/domain/payments/provider.ts'
import { PDFParse } from 'pdf-parse'

let app: FastifyInstance
let tokens: RoleTokens
let other: Awaited<ReturnType<typeof startWithTokens>>['other']
const ids: Record<string, number> = {}
const api = () => request(app.server)
const urls = { success_url: '/facility/1/settings/payment-method?success=1', error_url: '/facility/1/settings/payment-method?error=1', cancel_url: '/facility/1/settings/payment-method?cancel=1' }
// Card expiry years from the year the test apps start in (startApp's AT.morning), not the machine's.
const nextYear = new Date(AT.morning).getUTCFullYear() + 2

beforeAll(async () => {
  ;({ app, tokens, other } = await startWithTokens(['api']))
  for (const email of ['user@example.com', 'admin@example.com', 'super@example.com', other.adminEmail]) {
    ids[email] = (await app.domain!.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
  }
})
afterAll(async () => app?.close())

/** Through the whole hosted checkout: process → demo page → authorise (→ webhook) → redirect. */
async function addMethod(token: string, form: Record<string, string | number>) {
  const p = await api().post('/api/payments/process/').set(auth(token)).send(urls).expect(201)
  const page = await api().get(p.body.redirect_url).expect(200)
  expect(page.text).toContain('<label for="number">Card number</label>')
  const done = await api().post('/api/payments/demo-checkout').type('form').send({ session: p.body.session, action: 'authorise', ...form }).expect(303)
  return { location: done.headers.location as string, session: p.body.session as string }
}

async function unpaidSession(userId: number, priceRappen: number, installationId = 1) {
  const db = app.domain!.db
  const station = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).executeTakeFirstOrThrow()
  const row = await db.insertInto('charging_sessions').values({
    installation_id: installationId, station_id: station.id, rfid_id: null, user_id: userId, start: new Date(app.clock.ms() - 7200_000), end: new Date(app.clock.ms() - 3600_000),
    energy_kwh: 10, high_kwh: 10, low_kwh: 0, price_rappen: priceRappen, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false,
  }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

const sessionOf = async (id: number) => app.domain!.db.selectFrom('charging_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()

describe('payment methods through the demo provider', () => {
  it('stores an authorised card masked, with brand, expiry and a token only', async () => {
    const r = await addMethod(tokens.user, { kind: 'credit_card', number: '4242 4242 4242 4242', exp_month: 8, exp_year: nextYear })
    expect(r.location).toBe(urls.success_url)
    const list = await api().get(`/api/users/${ids['user@example.com']}/payment-info/`).set(auth(tokens.user)).expect(200)
    expect(list.body.count).toBe(2)
    const card = list.body.results.find((m: { masked: string }) => m.masked.endsWith('4242'))
    expect(card).toEqual({ id: expect.any(Number), alias: '', favourite: false, kind: 'credit_card', brand: 'Visa', masked: '•••• •••• •••• 4242', exp_month: 8, exp_year: nextYear, about_to_expire: false, charge_failed: false })
    // The seeded demo card stays primary.
    expect(list.body.results[0]).toMatchObject({ favourite: true, masked: '•••• •••• •••• 4444' })
    const stored = await app.domain!.db.selectFrom('payment_methods').selectAll().where('id', '=', card.id).executeTakeFirstOrThrow()
    expect(JSON.stringify(stored)).not.toContain('4242424242424242')
    expect(stored.token).toMatch(/^demo_ok_/)
    // A checkout is single use.
    await api().post('/api/payments/demo-checkout').type('form').send({ session: r.session, action: 'authorise', kind: 'twint' }).expect(404)
  })

  it('answers the error and cancel paths for a declined card and a cancelled checkout, storing nothing', async () => {
    const before = (await app.domain!.db.selectFrom('payment_methods').select('id').execute()).length
    const declined = await addMethod(tokens.admin, { kind: 'credit_card', number: '4000000000000002', exp_month: 1, exp_year: nextYear })
    expect(declined.location).toBe(urls.error_url)
    const unknown = await addMethod(tokens.admin, { kind: 'credit_card', number: '1234567812345678', exp_month: 1, exp_year: nextYear })
    expect(unknown.location).toBe(urls.error_url)
    const p = await api().post('/api/payments/process/').set(auth(tokens.admin)).send(urls).expect(201)
    const cancelled = await api().post('/api/payments/demo-checkout').type('form').send({ session: p.body.session, action: 'cancel' }).expect(303)
    expect(cancelled.headers.location).toBe(urls.cancel_url)
    expect((await app.domain!.db.selectFrom('payment_methods').select('id').execute()).length).toBe(before)
  })

  it('flags a card expiring this month (SPEC §5) and stores Twint without expiry', async () => {
    await addMethod(tokens.bern, { kind: 'credit_card', number: '4000 0000 0000 0069', exp_month: 5, exp_year: nextYear })
    await addMethod(tokens.bern, { kind: 'twint' })
    const list = await api().get(`/api/users/${ids[other.adminEmail]}/payment-info/`).set(auth(tokens.bern)).expect(200)
    expect(list.body.results).toEqual([
      expect.objectContaining({ favourite: true, masked: '•••• •••• •••• 0069', about_to_expire: true }),
      expect.objectContaining({ favourite: false, kind: 'twint', brand: 'TWINT', exp_month: null, exp_year: null, about_to_expire: false }),
    ])
  })

  it('refuses return URLs on other sites, unsigned webhooks and unknown checkout sessions', async () => {
    const bad = await api().post('/api/payments/process/').set(auth(tokens.user)).send({ ...urls, success_url: 'https://evil.example/steal' }).expect(400)
    expect(bad.body).toEqual({ success_url: ['The value is not valid.'] })
    await api().post('/api/payments/process/').set(auth(tokens.user)).send({ ...urls, error_url: '//evil.example/x' }).expect(400)
    await api().post('/api/payments/process/').send(urls).expect(401)
    const p = await api().post('/api/payments/process/').set(auth(tokens.user)).send(urls).expect(201)
    const forged = JSON.stringify({ type: 'checkout.completed', session: p.body.session, method: { kind: 'credit_card', brand: 'Visa', masked: 'x', exp_month: 1, exp_year: 2040, token: 'demo_ok_x' } })
    await api().post('/api/payments/webhook/').set('content-type', 'application/json').set('x-demo-signature', 'ab'.repeat(32)).send(forged).expect(400)
    await api().post('/api/payments/webhook/').set('content-type', 'application/json').send(forged).expect(400)
    const gone = await api().get('/api/payments/demo-checkout?session=nope').expect(200)
    expect(gone.text).toContain('This payment session has expired or is not valid.')
  })
})

describe('demo checkout page', () => {
  it('speaks the caller\'s language and closes after 30 minutes', async () => {
    const p = await api().post('/api/payments/process/').set(auth(tokens.user)).send(urls).expect(201)
    expect(p.body.redirect_url).toBe(`/api/payments/demo-checkout?session=${encodeURIComponent(p.body.session)}`)
    const de = await api().get(p.body.redirect_url).set('Accept-Language', 'de-CH').expect(200)
    expect(de.headers['content-type']).toMatch(/^text\/html/)
    expect(de.text).toContain('<label for="number">Kartennummer</label>')
    await app.domain!.db.updateTable('payment_checkouts').set({ expires_at: new Date(app.clock.ms() - 1000) }).where('id', '=', p.body.session).execute()
    const gone = await api().get(p.body.redirect_url).expect(200)
    expect(gone.text).toContain('This payment session has expired or is not valid.')
    await api().post('/api/payments/demo-checkout').type('form').send({ session: p.body.session, action: 'authorise', kind: 'twint' }).expect(404)
  })
})

describe('rights on payment info', () => {
  it('lets nobody, not even an admin or a superuser, read or change another user\'s methods', async () => {
    const userId = ids['user@example.com']
    const mine = (await api().get(`/api/users/${userId}/payment-info/`).set(auth(tokens.user)).expect(200)).body.results[0].id
    for (const t of [tokens.admin, tokens.super, tokens.bern]) {
      await api().get(`/api/users/${userId}/payment-info/`).set(auth(t)).expect(403)
      await api().get(`/api/users/${userId}/payment-info/${mine}/`).set(auth(t)).expect(403)
      await api().patch(`/api/users/${userId}/payment-info/${mine}/`).set(auth(t)).send({ favourite: 1 }).expect(403)
      await api().delete(`/api/users/${userId}/payment-info/${mine}/`).set(auth(t)).expect(403)
    }
    // Someone else's method id under one's own user id is unknown.
    const bernMethod = (await app.domain!.db.selectFrom('payment_methods').select('id').where('user_id', '=', ids[other.adminEmail]).executeTakeFirstOrThrow()).id
    await api().patch(`/api/users/${userId}/payment-info/${bernMethod}/`).set(auth(tokens.user)).send({ favourite: 1 }).expect(404)
    await api().get(`/api/users/${userId}/payment-info/`).expect(401)
  })

  it('sets the primary method (PATCH favourite 1), renames with PUT and promotes another on removing the primary', async () => {
    const userId = ids['user@example.com']
    const path = `/api/users/${userId}/payment-info`
    const [seeded, visa] = (await api().get(`${path}/`).set(auth(tokens.user)).expect(200)).body.results
    const r = await api().patch(`${path}/${visa.id}/`).set(auth(tokens.user)).send({ favourite: 1 }).expect(200)
    expect(r.body).toMatchObject({ id: visa.id, favourite: true })
    expect((await api().get(`${path}/${seeded.id}/`).set(auth(tokens.user)).expect(200)).body.favourite).toBe(false)
    const put = await api().put(`${path}/${seeded.id}/`).set(auth(tokens.user)).send({ alias: 'Old card', favourite: true }).expect(200)
    expect(put.body).toMatchObject({ alias: 'Old card', favourite: true })
    await api().delete(`${path}/${seeded.id}/`).set(auth(tokens.user)).expect(204)
    const after = (await api().get(`${path}/`).set(auth(tokens.user)).expect(200)).body.results
    expect(after).toEqual([expect.objectContaining({ id: visa.id, favourite: true })])
  })
})

describe('charging sessions and card orders', () => {
  it('charges unpaid sessions to the primary method with the SPEC §9 fee: credit card 2.5 % + 0.10, Twint 1.3 %', async () => {
    // user@example.com: Visa primary. bern admin: the 0069 card primary, then Twint.
    const card = await unpaidSession(ids['user@example.com'], 1000)
    const foreign = await unpaidSession(ids[other.adminEmail], 1000, other.installationId) // pay_enabled false
    const bernMethods = (await api().get(`/api/users/${ids[other.adminEmail]}/payment-info/`).set(auth(tokens.bern))).body.results
    await api().patch(`/api/users/${ids[other.adminEmail]}/payment-info/${bernMethods[1].id}/`).set(auth(tokens.bern)).send({ favourite: 1 }).expect(200)
    await app.domain!.db.insertInto('installation_users').values({ user_id: ids[other.adminEmail], installation_id: 1, role: 'installation_user' }).execute()
    const twint = await unpaidSession(ids[other.adminEmail], 1000)
    const r = await app.domain!.payments.chargeDue(app.clock.now())
    expect(r).toMatchObject({ paid: 2, declined: 0 })
    expect(await sessionOf(card)).toMatchObject({ status: 'paid', fee_rappen: 35 })
    expect(await sessionOf(twint)).toMatchObject({ status: 'paid', fee_rappen: 13 })
    expect(await sessionOf(foreign)).toMatchObject({ status: 'unpaid', fee_rappen: 0 })
    const shown = await api().get(`/api/rfids-charge/${card}/`).set(auth(tokens.admin)).expect(200)
    expect(shown.body).toMatchObject({ price: 10, transaction_fee: 0.35, total: 10.35, status: 'paid' })
    const charges = await app.domain!.db.selectFrom('payment_charges').selectAll().where('session_id', 'in', [card, twint]).orderBy('session_id').execute()
    expect(charges.map((c) => [c.amount_rappen, c.fee_rappen, c.status])).toEqual([[1000, 35, 'succeeded'], [1000, 13, 'succeeded']])
  })

  it('leaves a declined session unpaid, shows the failure and retries it after the back-off or with a new primary method', async () => {
    const adminId = ids['admin@example.com']
    await addMethod(tokens.admin, { kind: 'credit_card', number: '4000 0000 0000 0341', exp_month: 3, exp_year: nextYear })
    const s = await unpaidSession(adminId, 2000)
    const t0 = app.clock.now()
    expect(await app.domain!.payments.chargeDue(t0)).toMatchObject({ paid: 0, declined: 1 })
    expect(await sessionOf(s)).toMatchObject({ status: 'unpaid', paid_on: null })
    const list = (await api().get(`/api/users/${adminId}/payment-info/`).set(auth(tokens.admin)).expect(200)).body.results
    expect(list[0]).toMatchObject({ favourite: true, charge_failed: true })
    // Not again before the first wait (1 h) has passed, then again (declined).
    expect(await app.domain!.payments.chargeDue(new Date(t0.getTime() + 30 * 60_000))).toMatchObject({ paid: 0, declined: 0 })
    expect(await app.domain!.payments.chargeDue(new Date(t0.getTime() + 61 * 60_000))).toMatchObject({ paid: 0, declined: 1 })
    expect(await app.domain!.payments.chargeDue(new Date(t0.getTime() + 62 * 60_000))).toMatchObject({ paid: 0, declined: 0 })
    // The next wait is 3 h; every retry lies within 24 h of the previous one.
    expect(await app.domain!.payments.chargeDue(new Date(t0.getTime() + (61 + 181) * 60_000))).toMatchObject({ paid: 0, declined: 1 })
    // A new primary card is tried at the next run.
    await addMethod(tokens.admin, { kind: 'credit_card', number: '4242424242424242', exp_month: 3, exp_year: nextYear })
    const good = (await api().get(`/api/users/${adminId}/payment-info/`).set(auth(tokens.admin))).body.results.find((m: { charge_failed: boolean }) => !m.charge_failed)
    await api().patch(`/api/users/${adminId}/payment-info/${good.id}/`).set(auth(tokens.admin)).send({ favourite: 1 }).expect(200)
    const t1 = new Date(t0.getTime() + 243 * 60_000)
    expect(await app.domain!.payments.chargeDue(t1)).toMatchObject({ paid: 1, declined: 0 })
    expect(await sessionOf(s)).toMatchObject({ status: 'paid', fee_rappen: 60, paid_on: t1 })
    const tries = await app.domain!.db.selectFrom('payment_charges').select('status').where('session_id', '=', s).orderBy('id').execute()
    expect(tries.map((x) => x.status)).toEqual(['declined', 'declined', 'declined', 'succeeded'])
  })

  it('runs the charge job through the superuser hook only', async () => {
    await api().post('/api/payments/charge-due/').set(auth(tokens.admin)).expect(403)
    await api().post('/api/payments/charge-due/').set(auth(tokens.user)).expect(403)
    const r = await api().post('/api/payments/charge-due/').set(auth(tokens.super)).expect(200)
    expect(r.body).toEqual({ paid: expect.any(Number), declined: expect.any(Number), app_fees: expect.any(Number), app_fees_declined: expect.any(Number) })
  })

  it('charges an RFID card order (CHF 25 a card plus fee) to the primary method, refusing without one', async () => {
    const order = { first_name: 'Laura', last_name: 'Brunner', address: 'Seestrasse 1', zip_code: '8002', city: 'Zürich', country: 'CH', quantity: 1 }
    const db = app.domain!.db
    const mailsBefore = (await db.selectFrom('mail_outbox').select('id').where('kind', '=', 'rfid-order').execute()).length
    // The superuser has no stored method.
    const none = await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set(auth(tokens.super)).send(order).expect(400)
    expect(none.body.detail).toBe('No payment method is stored. Please add one under Settings, Payment methods.')
    const de = await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set({ ...auth(tokens.super), 'Accept-Language': 'de' }).send(order).expect(400)
    expect(de.body.detail).toMatch(/^Es ist keine Zahlungsmethode hinterlegt/)
    expect((await db.selectFrom('mail_outbox').select('id').where('kind', '=', 'rfid-order').execute()).length).toBe(mailsBefore)

    const ok = await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set(auth(tokens.user)).send({ ...order, quantity: 2 }).expect(201)
    expect(ok.body).toMatchObject({ quantity: 2, price: 50 })
    const charge = await db.selectFrom('payment_charges').selectAll().where('user_id', '=', ids['user@example.com']).where('purpose', '=', 'rfid_order').executeTakeFirstOrThrow()
    expect(charge).toMatchObject({ amount_rappen: 5000, fee_rappen: 135, status: 'succeeded', session_id: null })

    // A declining primary method: refused with the SPEC §8 text, no order mail.
    const adminId = ids['admin@example.com']
    const declining = (await db.selectFrom('payment_methods').select('id').where('user_id', '=', adminId).where('token', 'like', 'demo_decline_%').executeTakeFirstOrThrow()).id
    await api().patch(`/api/users/${adminId}/payment-info/${declining}/`).set(auth(tokens.admin)).send({ favourite: 1 }).expect(200)
    const before = (await db.selectFrom('mail_outbox').select('id').where('kind', '=', 'rfid-order').execute()).length
    const failed = await api().post('/api/emails/send-ordering-new-rfid/?installation=1').set(auth(tokens.admin)).send(order).expect(402)
    expect(failed.body.detail).toBe('Charging this payment method failed, please revise')
    expect((await db.selectFrom('mail_outbox').select('id').where('kind', '=', 'rfid-order').execute()).length).toBe(before)
  })
})

describe('monthly app fee (SPEC §9: the basic tariff, charged to the payment method)', () => {
  // A month next year, inside every stored card's validity, so no earlier run has charged it.
  const year = new Date(AT.morning).getUTCFullYear() + 1
  const month = `${year}-03`
  const at = (day: number, hour = 10) => new Date(Date.UTC(year, 2, day, hour))
  const feesOf = (userId: number, m = month) => app.domain!.db.selectFrom('app_fees').selectAll().where('user_id', '=', userId).where('month', '=', m).execute()
  const chargesOf = async (feeIds: number[]) => feeIds.length ? app.domain!.db.selectFrom('payment_charges').selectAll().where('app_fee_id', 'in', feeIds).execute() : []

  it('charges each user once per installation and month, with the card fee, even when runs repeat or overlap', async () => {
    const db = app.domain!.db
    const userId = ids['user@example.com']
    // A second process on the same database: its own payment service, its own run lock.
    const second = createPaymentService({ db, clock: app.domain!.clock, sessions: app.domain!.sessions, provider: createDemoProvider(), secret: new Uint8Array(32).fill(9), hold: app.domain!.sessionReview.hold })
    await Promise.all([app.domain!.payments.chargeDue(at(1, 0)), second.chargeDue(at(1, 0)), app.domain!.payments.chargeDue(at(1, 0))])
    await app.domain!.payments.chargeDue(at(1, 1))
    await second.chargeDue(at(20))
    const fees = await feesOf(userId)
    // Installation 1's basic tariff is CHF 5.00; the resident's primary method is a credit card: 2.5 % + 0.10.
    expect(fees).toEqual([expect.objectContaining({ installation_id: 1, amount_rappen: 500, fee_rappen: 23, status: 'paid', paid_on: at(1, 0) })])
    const charges = await chargesOf(fees.map((f) => f.id))
    expect(charges.map((c) => [c.purpose, c.amount_rappen, c.fee_rappen, c.status])).toEqual([['app_fee', 500, 23, 'succeeded']])
    // Every member with a primary method in the pay-enabled installation has exactly one fee, charged once.
    const all = await db.selectFrom('app_fees').selectAll().where('month', '=', month).execute()
    expect(all.length).toBeGreaterThanOrEqual(2)
    expect(new Set(all.map((f) => `${f.user_id}/${f.installation_id}`)).size).toBe(all.length)
    const allCharges = await chargesOf(all.map((f) => f.id))
    expect(allCharges.filter((c) => c.status === 'succeeded').length).toBe(all.filter((f) => f.status === 'paid').length)
    for (const f of all) expect(allCharges.filter((c) => c.app_fee_id === f.id && c.status === 'succeeded').length).toBe(f.status === 'paid' ? 1 : 0)
    // The next month is a new fee; an installation without card payments (Bern, pay_enabled false) charges none.
    await app.domain!.payments.chargeDue(new Date(Date.UTC(year, 3, 2, 10)))
    expect(await feesOf(userId, `${year}-04`)).toHaveLength(1)
    expect(await db.selectFrom('app_fees').select('id').where('installation_id', '=', other.installationId).execute()).toEqual([])
  })

  it('charges a session once when two processes run the job at the same time', async () => {
    const db = app.domain!.db
    const second = createPaymentService({ db, clock: app.domain!.clock, sessions: app.domain!.sessions, provider: createDemoProvider(), secret: new Uint8Array(32).fill(9), hold: app.domain!.sessionReview.hold })
    const s = await unpaidSession(ids['user@example.com'], 1200)
    const t = app.clock.now()
    await Promise.all([app.domain!.payments.chargeDue(t), second.chargeDue(t), second.chargeDue(t)])
    const charges = await db.selectFrom('payment_charges').selectAll().where('session_id', '=', s).execute()
    expect(charges.map((c) => [c.amount_rappen, c.fee_rappen, c.status])).toEqual([[1200, 40, 'succeeded']])
    expect(await sessionOf(s)).toMatchObject({ status: 'paid', fee_rappen: 40 })
  })

  it('shows the fees in the payments list and as a PDF invoice, to the user charged only', async () => {
    const userId = ids['user@example.com']
    const list = await api().get(`/api/users/${userId}/app-fees/`).set(auth(tokens.user)).expect(200)
    const fee = list.body.find((f: { month: string }) => f.month === month)
    expect(fee).toEqual({
      id: expect.any(Number), installation_id: 1, installation_name: 'Demo Residence Zürich', month, amount: 5, transaction_fee: 0.23, total: 5.23,
      status: 'paid', paid_on: at(1, 0).toISOString(), invoice_url: `/api/users/${userId}/app-fees/${fee.id}/invoice`,
    })
    for (const t of [tokens.admin, tokens.super]) {
      await api().get(`/api/users/${userId}/app-fees/`).set(auth(t)).expect(403)
      await api().get(fee.invoice_url).set(auth(t)).expect(403)
    }
    // Another user's fee id under one's own user id is unknown.
    await api().get(`/api/users/${ids[other.adminEmail]}/app-fees/${fee.id}/invoice`).set(auth(tokens.bern)).expect(404)
    const pdf = await api().get(`${fee.invoice_url}?lang=de`).set(auth(tokens.user)).buffer(true)
      .parse((res, cb) => { const c: Buffer[] = []; res.on('data', (d: Buffer) => c.push(d)); res.on('end', () => cb(null, Buffer.concat(c))) }).expect(200)
    expect(pdf.headers['content-type']).toBe('application/pdf')
    const parser = new PDFParse({ data: new Uint8Array(pdf.body as Buffer) })
    const text = (await parser.getText()).text
    await parser.destroy()
    expect(text).toContain('Monatliche App-Gebühr')
    expect(text).toContain(month)
    expect(text).toMatch(/Total\s+CHF 5\.23/)
    expect(text).toContain('Demo Energie Zürich AG')
    expect(text).not.toContain('Empfangsschein')
  })
})

// The payment job on the app's clock (server/jobs/payments.ts, every quarter hour): a declined session is
// tried again after 1, 3, 6, 12 and then every 24 hours (RETRY_DELAYS_MS), never more than a day apart.
describe('the payment job on a test clock', () => {
  let jobApp: FastifyInstance
  const clock = createTestClock(new Date(AT.morning))
  let stopJob: () => Promise<void> = async () => {}
  beforeAll(async () => {
    ;({ app: jobApp } = await startApp({ roles: ['api'], clock }))
  })
  afterAll(async () => {
    await stopJob()
    await jobApp?.close()
  })

  it('charges at the first quarter hour and retries a declined session after the back-off, as the clock advances', async () => {
    const admin = await login(jobApp, 'admin@example.com')
    const p = await request(jobApp.server).post('/api/payments/process/').set(auth(admin)).send(urls).expect(201)
    await request(jobApp.server).post('/api/payments/demo-checkout').type('form').send({ session: p.body.session, action: 'authorise', kind: 'credit_card', number: '4000 0000 0000 0341', exp_month: 3, exp_year: nextYear }).expect(303)
    const db = jobApp.domain!.db
    const adminId = (await db.selectFrom('users').select('id').where('email', '=', 'admin@example.com').executeTakeFirstOrThrow()).id
    const station = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).executeTakeFirstOrThrow()
    const s = (await db.insertInto('charging_sessions').values({
      installation_id: 1, station_id: station.id, rfid_id: null, user_id: adminId, start: new Date(clock.ms() - 7200_000), end: new Date(clock.ms() - 3600_000),
      energy_kwh: 10, high_kwh: 10, low_kwh: 0, price_rappen: 2000, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false,
    }).returning('id').executeTakeFirstOrThrow()).id
    // The runner starts a run at each cron instant without waiting for it; counting finished runs lets the
    // test move the clock on only once the run of the quarter hour it reached is done.
    const job = createPaymentJob({ domain: jobApp.domain!, log: jobApp.log })
    let runs = 0
    const runner = inProcessRunner([{ ...job, run: async () => { await job.run(); runs++ } }], jobApp.log, clock)
    await runner.start()
    stopJob = () => runner.stop()
    const tries = async () => (await db.selectFrom('payment_charges').select('status').where('session_id', '=', s).execute()).length
    // Not at start: the first run is at the next quarter hour (09:15).
    expect(await tries()).toBe(0)
    const seen: number[] = []
    for (let q = 1; q <= 4 * 50; q++) {
      await clock.advance(15 * 60_000)
      await until(() => runs >= q, 10_000, `the run at quarter hour ${q}`)
      const n = await tries()
      while (seen.length < n) seen.push(clock.ms())
    }
    const start = Date.parse(AT.morning)
    // Each try at the quarter hour its back-off ends: 09:15, 10:15, 13:15, 19:15, 07:15, 07:15 the next day.
    expect(seen.map((t) => (t - start) / 60_000)).toEqual([15, 75, 255, 615, 1335, 2775])
    expect(await sessionOf2(jobApp, s)).toMatchObject({ status: 'unpaid', paid_on: null })
  }, 120_000)
})

const sessionOf2 = (a: FastifyInstance, id: number) => a.domain!.db.selectFrom('charging_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
