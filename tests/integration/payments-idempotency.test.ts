import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { startApp } from './helpers.ts'
import { createPaymentService } from '../../server/domain/payments/service.ts'
import { CHARGE_LEASE_MS } from '../../server/domain/payments/debits.ts'
import { createDemoProvider, type PaymentProvider } from '../../server/domain/payments/provider.ts'
import type { SessionService } from '../../server/domain/sessions/service.ts'

// Every charge carries an idempotency key stored before the debit, so a process that dies
// between the provider's debit and marking the session (or app fee) paid, or a job that runs again,
// never debits the card a second time.
let app: FastifyInstance
let userId: number
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
  userId = (await app.domain!.db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
})
afterAll(async () => app?.close())

const secret = new Uint8Array(32).fill(7)

async function unpaidSession(priceRappen: number) {
  const db = app.domain!.db
  const station = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', 1).orderBy('id').executeTakeFirstOrThrow()
  return (await db.insertInto('charging_sessions').values({
    installation_id: 1, station_id: station.id, rfid_id: null, user_id: userId, start: new Date(app.clock.ms() - 7200_000), end: new Date(app.clock.ms() - 3600_000),
    energy_kwh: 10, high_kwh: 10, low_kwh: 0, price_rappen: priceRappen, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false,
  }).returning('id').executeTakeFirstOrThrow()).id
}

/** The provider as another process sees it, dying right after the provider debited the card. */
function crashingAfterDebit(provider: PaymentProvider): PaymentProvider {
  return {
    ...provider,
    async charge(...args) {
      await provider.charge(...args)
      throw new Error('process killed after the debit')
    },
  }
}

describe('demo provider idempotency keys', () => {
  it('answers a repeated key with the first result and debits once', async () => {
    const provider = createDemoProvider()
    const a = await provider.charge('demo_ok_x', 1000, 'one', 'session-1-1')
    const b = await provider.charge('demo_ok_x', 1000, 'one again', 'session-1-1')
    expect(a.ok).toBe(true)
    expect(b).toEqual(a)
    expect(provider.debits()).toHaveLength(1)
    // Another key is another debit; a declined charge debits nothing.
    await provider.charge('demo_ok_x', 1000, 'two', 'session-1-2')
    expect(await provider.charge('demo_decline_x', 1000, 'three', 'session-2-1')).toEqual({ ok: false, reason: 'declined' })
    expect(provider.debits().map((d) => d.key)).toEqual(['session-1-1', 'session-1-2'])
  })
})

describe('a charge run that dies after the debit', () => {
  it('debits a session once when the job runs again after the crash', async () => {
    const db = app.domain!.db
    const provider = createDemoProvider()
    const sessions = app.domain!.sessions
    const dying = createPaymentService({ db, clock: app.domain!.clock, sessions, provider: crashingAfterDebit(provider), secret, hold: app.domain!.sessionReview.hold })
    const s = await unpaidSession(1500)
    const t = app.clock.now()
    await expect(dying.chargeDue(t)).rejects.toThrow('process killed')
    const [debit] = provider.debits().filter((d) => d.description === `Charging session CS-${s}`)
    // The key was stored before the debit: the dead run left its attempt pending under the key it sent.
    expect(await db.selectFrom('payment_charges').select(['status', 'idempotency_key']).where('session_id', '=', s).execute()).toEqual([{ status: 'pending', idempotency_key: debit.key }])
    expect((await db.selectFrom('charging_sessions').select('status').where('id', '=', s).executeTakeFirstOrThrow()).status).toBe('unpaid')

    // Another process runs the job: within the lease it leaves the session, after the lease it finishes it.
    const next = createPaymentService({ db, clock: app.domain!.clock, sessions, provider, secret, hold: app.domain!.sessionReview.hold })
    await next.chargeDue(new Date(t.getTime() + 60_000))
    await next.chargeDue(new Date(t.getTime() + CHARGE_LEASE_MS + 60_000))
    await next.chargeDue(new Date(t.getTime() + CHARGE_LEASE_MS + 120_000))
    expect(provider.debits().filter((d) => d.description === `Charging session CS-${s}`)).toHaveLength(1)
    expect(await db.selectFrom('charging_sessions').select(['status', 'fee_rappen']).where('id', '=', s).executeTakeFirstOrThrow()).toEqual({ status: 'paid', fee_rappen: 48 })
    const charges = await db.selectFrom('payment_charges').select(['status', 'amount_rappen', 'fee_rappen']).where('session_id', '=', s).execute()
    expect(charges).toEqual([{ status: 'succeeded', amount_rappen: 1500, fee_rappen: 48 }])
  })

  it('does not debit again when the process died after recording the charge but before marking the session paid', async () => {
    const db = app.domain!.db
    const provider = createDemoProvider()
    const sessions = app.domain!.sessions
    const dyingSessions: SessionService = { ...sessions, markPaid: async () => { throw new Error('process killed before markPaid') } }
    const s = await unpaidSession(800)
    const t = app.clock.now()
    await expect(createPaymentService({ db, clock: app.domain!.clock, sessions: dyingSessions, provider, secret, hold: app.domain!.sessionReview.hold }).chargeDue(t)).rejects.toThrow('process killed')
    const again = createPaymentService({ db, clock: app.domain!.clock, sessions, provider, secret, hold: app.domain!.sessionReview.hold })
    expect((await again.chargeDue(new Date(t.getTime() + CHARGE_LEASE_MS + 60_000))).paid).toBeGreaterThanOrEqual(1)
    expect(provider.debits().filter((d) => d.description === `Charging session CS-${s}`)).toHaveLength(1)
    expect((await db.selectFrom('charging_sessions').select('status').where('id', '=', s).executeTakeFirstOrThrow()).status).toBe('paid')
  })

  it('debits a monthly app fee once when the job runs again after the crash', async () => {
    const db = app.domain!.db
    const provider = createDemoProvider()
    const sessions = app.domain!.sessions
    // A month far ahead, so no other run has created its fees.
    const year = app.clock.now().getUTCFullYear() + 2
    const t = new Date(Date.UTC(year, 4, 1, 10))
    await expect(createPaymentService({ db, clock: app.domain!.clock, sessions, provider: crashingAfterDebit(provider), secret, hold: app.domain!.sessionReview.hold }).chargeDue(t)).rejects.toThrow('process killed')
    const next = createPaymentService({ db, clock: app.domain!.clock, sessions, provider, secret, hold: app.domain!.sessionReview.hold })
    await next.chargeDue(new Date(t.getTime() + CHARGE_LEASE_MS + 60_000))
    await next.chargeDue(new Date(t.getTime() + CHARGE_LEASE_MS + 120_000))
    const fees = await db.selectFrom('app_fees').select(['id', 'status']).where('month', '=', `${year}-05`).execute()
    expect(fees.length).toBeGreaterThan(0)
    expect(fees.every((f) => f.status === 'paid')).toBe(true)
    const feeDebits = provider.debits().filter((d) => d.description.startsWith(`App fee ${year}-05`))
    expect(feeDebits).toHaveLength(fees.length)
    expect(new Set(feeDebits.map((d) => d.key)).size).toBe(fees.length)
  })
})
