import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import Stripe from 'stripe'
import type { FastifyInstance } from 'fastify'
import { auth, login, startApp } from './helpers.ts'
import { startStripeFake } from './stripe-fake.ts'
import { loadConfig, ConfigError } from '../../config/env.ts'
import { transactionFeeRappen } from '../../shared/rules/card-fees.ts'

// The Stripe provider (PAYMENT_PROVIDER=stripe) against a local fake of Stripe's API (stripe-fake.ts):
// a setup-mode Checkout saves a card or TWINT, a signed webhook stores it, the charge job debits unpaid
// sessions with off-session PaymentIntents under the idempotency keys, a declined card stays unpaid.
const WEBHOOK_SECRET = 'whsec_test_secret'
let app: FastifyInstance
let fake: Awaited<ReturnType<typeof startStripeFake>>
const api = () => request(app.server)
const urls = { success_url: '/facility/1/settings/payment-method?success=1', error_url: '/facility/1/settings/payment-method?error=1', cancel_url: '/facility/1/settings/payment-method?cancel=1' }
const stripe = new Stripe('sk_test_unused')

beforeAll(async () => {
  fake = await startStripeFake()
  ;({ app } = await startApp({ roles: ['api'], payments: { provider: 'stripe', secretKey: 'sk_test_fake', webhookSecret: WEBHOOK_SECRET, api: fake.api } }))
})
afterAll(async () => {
  await app?.close()
  await fake?.close()
})

const userId = async (email: string) => (await app.domain!.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id
/** Stripe's webhook call: the event signed with the endpoint's secret (Stripe-Signature: t=…,v1=…). */
function signedEvent(type: string, object: unknown, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({ id: `evt_${Math.random().toString(16).slice(2)}`, object: 'event', type, data: { object }, api_version: '2026-10-28.endive', created: Math.floor(app.clock.ms() / 1000) })
  // Stripe checks the signature's time against the machine's (its tolerance, 5 minutes), as Stripe signs with its own.
  return { payload, header: stripe.webhooks.generateTestHeaderString({ payload, secret }) }
}
const webhook = (e: { payload: string; header: string }) => api().post('/api/payments/stripe/webhook/').set('content-type', 'application/json').set('stripe-signature', e.header).send(e.payload)

/** Through Stripe's hosted Checkout: process → (the user saves `pm` there) → signed checkout.session.completed. */
async function addMethod(token: string, pm: 'pm_card_visa' | 'pm_card_chargeDeclined' | 'pm_twint') {
  const p = await api().post('/api/payments/process/').set(auth(token)).send(urls).expect(201)
  expect(p.body.redirect_url).toMatch(/^https:\/\/checkout\.stripe\.com\//)
  const session = [...fake.sessions.values()].find((s) => s.client_reference_id === p.body.session)!
  await webhook(signedEvent('checkout.session.completed', fake.complete(session.id as string, pm))).expect(200)
  return session
}

async function unpaidSession(user: number, priceRappen: number) {
  const row = await app.domain!.db.insertInto('charging_sessions').values({
    installation_id: 1, station_id: 1, rfid_id: null, user_id: user, start: new Date(app.clock.ms() - 7200_000), end: new Date(app.clock.ms() - 3600_000),
    energy_kwh: 10, high_kwh: 10, low_kwh: 0, price_rappen: priceRappen, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false,
  }).returning('id').executeTakeFirstOrThrow()
  return row.id
}

describe('Stripe as the payment provider', () => {
  it('saves a card through a setup-mode Checkout for the user’s Customer, stored when the signed webhook arrives', async () => {
    const token = await login(app, 'user@example.com')
    const me = await userId('user@example.com')
    const session = await addMethod(token, 'pm_card_visa')
    expect(session).toMatchObject({ mode: 'setup', currency: 'chf', allowed_payment_method_types: ['card', 'twint'], success_url: expect.stringMatching(/\/facility\/1\/settings\/payment-method\?success=1$/) })
    expect(fake.customers.get(session.customer as string)).toMatchObject({ email: 'user@example.com', metadata: { user_id: String(me) } })
    const list = (await api().get(`/api/users/${me}/payment-info/`).set(auth(token)).expect(200)).body.results
    expect(list).toContainEqual(expect.objectContaining({ kind: 'credit_card', brand: 'Visa', masked: '•••• •••• •••• 4242', exp_month: 12, exp_year: 2034 }))
    // TWINT too; the Customer is made once per user.
    await addMethod(token, 'pm_twint')
    expect(fake.requests.filter((r) => r.path === '/v1/customers')).toHaveLength(1)
    const again = (await api().get(`/api/users/${me}/payment-info/`).set(auth(token)).expect(200)).body.results
    expect(again).toContainEqual(expect.objectContaining({ kind: 'twint', brand: 'TWINT' }))
  })

  it('refuses an unsigned or wrongly signed webhook, storing nothing', async () => {
    const before = (await app.domain!.db.selectFrom('payment_methods').select('id').execute()).length
    const token = await login(app, 'admin@example.com')
    const p = await api().post('/api/payments/process/').set(auth(token)).send(urls).expect(201)
    const session = [...fake.sessions.values()].find((s) => s.client_reference_id === p.body.session)!
    const event = signedEvent('checkout.session.completed', fake.complete(session.id as string, 'pm_card_visa'), 'whsec_someone_else')
    const bad = await webhook(event).expect(400)
    expect(bad.body.detail).toBeTruthy()
    await api().post('/api/payments/stripe/webhook/').set('content-type', 'application/json').send(event.payload).expect(400)
    expect((await app.domain!.db.selectFrom('payment_methods').select('id').execute()).length).toBe(before)
  })

  it('debits an unpaid session off-session with the card fee under the session’s idempotency key, once', async () => {
    const me = await userId('user@example.com')
    // The Stripe card is the user's primary method.
    const card = await app.domain!.db.selectFrom('payment_methods').select('id').where('user_id', '=', me).where('provider', '=', 'stripe').where('kind', '=', 'credit_card').executeTakeFirstOrThrow()
    await api().patch(`/api/users/${me}/payment-info/${card.id}/`).set(auth(await login(app, 'user@example.com'))).send({ favourite: 1 }).expect(200)
    const s = await unpaidSession(me, 1000)
    const run = await app.domain!.payments.chargeDue()
    expect(run.paid).toBeGreaterThanOrEqual(1)
    const fee = transactionFeeRappen('credit_card', 1000)
    const intents = fake.paymentIntents.filter((pi) => pi.description === `Charging session CS-${s}`)
    expect(intents).toEqual([expect.objectContaining({ amount: String(1000 + fee), currency: 'chf', payment_method: 'pm_card_visa', off_session: 'true', confirm: 'true' })])
    expect(fake.requests.find((r) => r.path === '/v1/payment_intents' && r.key === `session-${s}-1`)).toBeTruthy()
    expect(await app.domain!.db.selectFrom('charging_sessions').select(['status', 'fee_rappen']).where('id', '=', s).executeTakeFirstOrThrow()).toEqual({ status: 'paid', fee_rappen: fee })
    // The same key again (a run that died after the debit) is answered with the first PaymentIntent, no new debit.
    const charge = await app.domain!.db.selectFrom('payment_charges').select(['reference', 'idempotency_key']).where('session_id', '=', s).executeTakeFirstOrThrow()
    const m = await app.domain!.db.selectFrom('payment_methods').select('token').where('id', '=', card.id).executeTakeFirstOrThrow()
    const again = await app.domain!.payments.provider.charge(m.token, 1000 + fee, `Charging session CS-${s}`, charge.idempotency_key!)
    expect(again).toEqual({ ok: true, reference: charge.reference })
    expect(fake.paymentIntents.filter((pi) => pi.description === `Charging session CS-${s}`)).toHaveLength(1)
  })

  it('a declined card leaves the session unpaid and the card marked, to be retried', async () => {
    const token = await login(app, 'admin@example.com')
    const admin = await userId('admin@example.com')
    await addMethod(token, 'pm_card_chargeDeclined')
    const m = await app.domain!.db.selectFrom('payment_methods').select('id').where('user_id', '=', admin).where('provider', '=', 'stripe').orderBy('id', 'desc').executeTakeFirstOrThrow()
    await api().patch(`/api/users/${admin}/payment-info/${m.id}/`).set(auth(token)).send({ favourite: 1 }).expect(200)
    const s = await unpaidSession(admin, 500)
    const run = await app.domain!.payments.chargeDue()
    expect(run.declined).toBeGreaterThanOrEqual(1)
    expect((await app.domain!.db.selectFrom('charging_sessions').select('status').where('id', '=', s).executeTakeFirstOrThrow()).status).toBe('unpaid')
    expect(await app.domain!.db.selectFrom('payment_charges').select(['status']).where('session_id', '=', s).execute()).toEqual([{ status: 'declined' }])
    const list = (await api().get(`/api/users/${admin}/payment-info/`).set(auth(token)).expect(200)).body.results
    expect(list.find((x: { id: number }) => x.id === m.id)).toMatchObject({ charge_failed: true, masked: '•••• •••• •••• 0341' })
  })
})

describe('PAYMENT_PROVIDER configuration', () => {
  const base = { ROLES: 'api' }
  it('refuses the demo provider in production unless explicitly allowed, and Stripe without its keys', () => {
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(ConfigError)
    expect(() => loadConfig({ ...base, NODE_ENV: 'production' })).toThrow(/PAYMENT_PROVIDER=demo is refused with NODE_ENV=production/)
    expect(loadConfig({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER_DEMO_ALLOWED: 'true' }).payments).toEqual({ provider: 'demo' })
    expect(loadConfig({ ...base }).payments).toEqual({ provider: 'demo' })
    // A relay alone handles no payments.
    expect(loadConfig({ ROLES: 'relay', UPSTREAM_URL: 'http://x/api', RELAY_UPSTREAM_EMAIL: 'r@x.ch', RELAY_UPSTREAM_PASSWORD: 'p', NODE_ENV: 'production' }).payments).toEqual({ provider: 'demo' })
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'stripe' })).toThrow(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/)
    expect(() => loadConfig({ ...base, PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'nope', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET })).toThrow(/STRIPE_SECRET_KEY/)
    expect(loadConfig({ ...base, NODE_ENV: 'production', PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_PUBLISHABLE_KEY: '' }).payments)
      .toEqual({ provider: 'stripe', secretKey: 'sk_live_abc', webhookSecret: WEBHOOK_SECRET, publishableKey: undefined })
  })
})
