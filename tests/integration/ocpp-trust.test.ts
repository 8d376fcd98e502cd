import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { answerOnClock, addOtherInstallation, AT, auth, connectChargePoint, login, PASSWORD, sleep, startApp, type ChargePoint, stationOfChargePoint } from './helpers.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { PDFParse } from 'pdf-parse'

// Charger figures, clocks and sessions that never end (docs/decisions.md "Charging: plausible charger
// figures and debit ceilings"), sent by an OCPP 1.6J charge point (ocpp-rpc client, strict mode) on the
// demo's 11 kW OCPP station. The app runs on a test clock, so "now" is exact and time moves only here.
let app: FastifyInstance
let url: string
let clock: TestClock
let admin: string
let user: string
let bern: string
let bernInstallation: number
let station7: number
const CP = 'DEMO-CP-1'
const CARD = '04A1B2C3D4E501' // user@example.com's card, all stations; the resident has a primary payment card
const open: ChargePoint[] = []

beforeAll(async () => {
  clock = createTestClock(AT.morning)
  ;({ app, url } = await startApp({ roles: ['api', 'ocpp'], clock }))
  const other = await addOtherInstallation(app)
  bernInstallation = other.installationId
  station7 = await stationOfChargePoint(app, CP)
})
/** Sign in again: access tokens last 5 minutes of the clock, which these tests move. */
async function signIn() {
  ;[admin, user, bern] = await Promise.all([login(app, 'admin@example.com'), login(app, 'user@example.com'), login(app, 'bern-admin@example.com')])
}
beforeEach(signIn)
afterEach(async () => {
  for (const cp of open.splice(0)) await cp.close({ force: true })
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const db = () => app.domain!.db
const iso = (msFromNow = 0) => new Date(clock.ms() + msFromNow).toISOString()
/** Wait for an answer that needs the meter batch (a timer on the test clock). */
const answer = <T>(p: Promise<T>) => answerOnClock(clock, p)
async function connect(id = CP, password = PASSWORD): Promise<ChargePoint> {
  // A moment later than the last test: no transaction starts at the same instant as an earlier one.
  await clock.advance(1000)
  const cp = await connectChargePoint(url, id, password)
  open.push(cp)
  await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
  return cp
}
const start = async (cp: ChargePoint, meterStart: number, timestamp = iso()) =>
  ((await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart, timestamp })) as { transactionId: number }).transactionId
const values = (cp: ChargePoint, transactionId: number, timestamp: string, sampled: { wh?: number; w?: number }) =>
  answer(cp.call('MeterValues', {
    connectorId: 1, transactionId, meterValue: [{
      timestamp, sampledValue: [
        ...(sampled.wh === undefined ? [] : [{ value: String(sampled.wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' }]),
        ...(sampled.w === undefined ? [] : [{ value: String(sampled.w), measurand: 'Power.Active.Import', unit: 'W' }]),
      ],
    }],
  }))
const stop = (cp: ChargePoint, transactionId: number, meterStop: number, timestamp = iso()) => answer(cp.call('StopTransaction', { transactionId, meterStop, timestamp, reason: 'Local' }))
const sessionOfTx = async (tx: number) => {
  const t = await db().selectFrom('ocpp_transactions').select('session_id').where('id', '=', tx).executeTakeFirstOrThrow()
  return db().selectFrom('charging_sessions').selectAll().where('id', '=', t.session_id!).executeTakeFirstOrThrow()
}
const charges = (sessionId: number) => db().selectFrom('payment_charges').selectAll().where('session_id', '=', sessionId).execute()
const reviewPath = (sessionId: number, installationId = 1) => `/api/cockpit/installations/${installationId}/charging_sessions/${sessionId}/review`
const endPath = (sessionId: number, installationId = 1) => `/api/cockpit/installations/${installationId}/charging_sessions/${sessionId}/end`
const heldMails = () => db().selectFrom('mail_outbox').selectAll().where('kind', '=', 'session-held').orderBy('id').execute()

describe('charger figures are checked', () => {
  it('holds a 1-minute transaction of 2,000,000 kWh on an 11 kW station: not priced, not debited, admins mailed, then corrected by an admin', async () => {
    const cp = await connect()
    const tx = await start(cp, 1_000_000, iso(-60_000))
    await stop(cp, tx, 1_000_000 + 2_000_000_000)
    const s = await sessionOfTx(tx)
    expect(s).toMatchObject({ status: 'held', hold_reason: 'energyImplausible', energy_kwh: 0, price_rappen: 0 })
    await app.domain!.payments.chargeDue(clock.now())
    expect(await charges(s.id)).toEqual([])
    const mails = (await heldMails()).filter((m) => m.body_text.includes(`CS-${s.id}`))
    expect(mails.map((m) => m.recipient)).toContain('admin@example.com')
    expect(mails[0].subject).toMatch(/held for review/)
    // The resident sees it held, with why.
    expect((await api().get(`/api/rfids-charge/${s.id}/`).set(auth(user)).expect(200)).body).toMatchObject({ status: 'held', hold_reason: 'energyImplausible', price: 0 })
    // The admin's review list (status=held): this session with why, who and where; held ones only.
    const heldList = async (token: string) => (await api().get('/api/rfids-charge/?installation=1&status=held').set(auth(token)).expect(200)).body
    const waiting = await heldList(admin)
    expect(waiting.results.map((r: { id: number }) => r.id)).toContain(s.id)
    expect(waiting.results.every((r: { status: string }) => r.status === 'held')).toBe(true)
    expect(waiting.results.find((r: { id: number }) => r.id === s.id)).toMatchObject({ hold_reason: 'energyImplausible', station_name: 'Garage OCPP', rfid_tag: CARD, user_name: 'Laura Brunner' })
    await api().get('/api/rfids-charge/?installation=1&status=stuck').set(auth(admin)).expect(400)

    // Only an admin of its installation may correct it: not the resident, not another installation's admin.
    const body = { action: 'correct', energy_kwh: 0.15, reason: 'Meter photo: 0.15 kWh' }
    await api().post(reviewPath(s.id)).set(auth(user)).send(body).expect(403)
    await api().post(reviewPath(s.id)).set(auth(bern)).send(body).expect(403)
    await api().post(reviewPath(s.id, bernInstallation)).set(auth(bern)).send(body).expect(404)
    await api().post(reviewPath(s.id)).set(auth(admin)).send({ action: 'correct', reason: 'no energy given' }).expect(400)
    await api().post(reviewPath(s.id)).set(auth(admin)).send({ ...body, reason: '' }).expect(400)
    await api().post(reviewPath(2_147_483_647)).set(auth(admin)).send(body).expect(404)
    const corrected = (await api().post(reviewPath(s.id)).set(auth(admin)).send(body).expect(200)).body
    expect(corrected).toMatchObject({ status: 'unpaid', energy_kwh: 0.15, hold_reason: null })
    expect(corrected.price).toBeGreaterThan(0)
    expect(corrected.price).toBeLessThan(1)
    expect((await heldList(admin)).results.map((r: { id: number }) => r.id)).not.toContain(s.id)
    const reviews = await app.domain!.sessionReview.history(s.id)
    expect(reviews).toMatchObject([{ action: 'correct', reason: 'Meter photo: 0.15 kWh', energy_after_kwh: 0.15 }])
    await app.domain!.payments.chargeDue(clock.now())
    expect(await charges(s.id)).toMatchObject([{ status: 'succeeded', amount_rappen: Math.round(corrected.price * 100) }])
    // Paid: no more changes.
    await api().post(reviewPath(s.id)).set(auth(admin)).send({ action: 'void', reason: 'too late now' }).expect(409)
  })

  it('does not show a MeterValue of 1e308 W as the live power: the session is held instead', async () => {
    const cp = await connect()
    const tx = await start(cp, 5000)
    await clock.advance(60_000)
    await values(cp, tx, iso(), { wh: 5100, w: 1e308 })
    const station = (await api().get(`/api/cockpit/installations/1/charging_stations/${station7}`).set(auth(admin)).expect(200)).body
    expect(station.power_kw).toBe(0)
    expect((await sessionOfTx(tx)).hold_reason).toBe('powerImplausible')
    // A real figure is shown; the energy that came with it counted.
    await values(cp, tx, iso(), { wh: 5200, w: 7400 })
    expect((await api().get(`/api/cockpit/installations/1/charging_stations/${station7}`).set(auth(admin)).expect(200)).body.power_kw).toBe(7.4)
    await stop(cp, tx, 5200)
    const s = await sessionOfTx(tx)
    expect(s.status).toBe('held')
    expect(s.energy_kwh).toBeCloseTo(0.2, 9)
    // Voided by an admin: never billed.
    const voided = (await api().post(reviewPath(s.id)).set(auth(admin)).send({ action: 'void', reason: 'Test drive of the installer' }).expect(200)).body
    expect(voided).toMatchObject({ status: 'void', energy_kwh: 0, price: 0 })
    await app.domain!.payments.chargeDue(clock.now())
    expect(await charges(s.id)).toEqual([])
  })

  it('holds a session whose register goes down', async () => {
    const cp = await connect()
    const tx = await start(cp, 10_000)
    await clock.advance(5 * 60_000)
    await values(cp, tx, iso(), { wh: 10_500 })
    await values(cp, tx, iso(60_000), { wh: 9_000 })
    await stop(cp, tx, 9_000)
    expect(await sessionOfTx(tx)).toMatchObject({ status: 'held', hold_reason: 'registerBackwards', energy_kwh: 0.5 })
  })
})

describe('debit ceilings', () => {
  async function endedSession(priceRappen: number) {
    const userId = (await db().selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
    return (await db().insertInto('charging_sessions').values({
      installation_id: 1, station_id: station7, rfid_id: null, user_id: userId, start: new Date(clock.ms() - 7200_000), end: new Date(clock.ms() - 3600_000),
      energy_kwh: 40, high_kwh: 40, low_kwh: 0, price_rappen: priceRappen, fee_rappen: 0, status: 'unpaid', paid_on: null, set_by_timer: false,
    }).returning('id').executeTakeFirstOrThrow()).id
  }

  it('holds a session above CHF 200 instead of debiting it, until an admin releases it', async () => {
    const id = await endedSession(25_000)
    const before = (await heldMails()).length
    await app.domain!.payments.chargeDue(clock.now())
    expect(await charges(id)).toEqual([])
    expect(await db().selectFrom('charging_sessions').select(['status', 'hold_reason']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'held', hold_reason: 'sessionCeiling' })
    expect((await heldMails()).length).toBeGreaterThan(before)
    await api().post(reviewPath(id)).set(auth(admin)).send({ action: 'approve', reason: 'Confirmed with the resident' }).expect(200)
    await app.domain!.payments.chargeDue(clock.now())
    expect(await charges(id)).toMatchObject([{ status: 'succeeded', amount_rappen: 25_000 }])
  })

  it("holds what would take a user's month above the installation's monthly ceiling, which only a superuser sets", async () => {
    const base = '/api/cockpit/installations/1/'
    const superuser = await login(app, 'super@example.com')
    expect((await api().get(base).set(auth(admin)).expect(200)).body.debit_ceilings).toEqual({ session: 200, month: 1000, custom: false })
    // The operator decides what a charger may take from residents' cards: not the installation's admin.
    await api().patch(base).set(auth(admin)).send({ debit_ceilings: { month: 5000 } }).expect(403)
    for (const bad of [0, -5, 100_001, 12.345, '300', Number.MAX_VALUE]) {
      expect((await api().patch(base).set(auth(superuser)).send({ debit_ceilings: { month: bad } }).expect(400)).body, String(bad)).toHaveProperty(['debit_ceilings.month'])
    }
    const set = await api().patch(base).set(auth(superuser)).send({ debit_ceilings: { month: 300 } }).expect(200)
    expect(set.body.debit_ceilings).toEqual({ session: 200, month: 300, custom: true })
    try {
      const first = await endedSession(4_000)
      const second = await endedSession(4_000)
      await app.domain!.payments.chargeDue(clock.now())
      // CHF 250 were debited this month already (the released session above).
      expect((await charges(first)).length + (await charges(second)).length).toBe(1)
      const statuses = await db().selectFrom('charging_sessions').select(['status', 'hold_reason']).where('id', 'in', [first, second]).orderBy('id').execute()
      expect(statuses).toEqual([{ status: 'paid', hold_reason: null }, { status: 'held', hold_reason: 'monthCeiling' }])
    } finally {
      const back = await api().patch(base).set(auth(superuser)).send({ debit_ceilings: { month: null } }).expect(200)
      expect(back.body.debit_ceilings).toEqual({ session: 200, month: 1000, custom: false })
    }
  })
})

describe('charger clocks', () => {
  it('answers Heartbeat with the server clock', async () => {
    const cp = await connect()
    expect(await cp.call('Heartbeat', {})).toEqual({ currentTime: clock.now().toISOString() })
  })

  it('dates a 1970 transaction and a day-ahead meter value by the server, flagged: no 1970 invoice, no session tomorrow', async () => {
    const cp = await connect()
    // The server's receive time lies between these (the clock moves while answers that need the meter batch are awaited).
    const startedFrom = clock.ms()
    const tx = await start(cp, 50_000, '1970-01-01T00:00:00.000Z')
    const startedTo = clock.ms()
    await values(cp, tx, new Date(clock.ms() + 86_400_000).toISOString(), { wh: 50_100, w: 6000 })
    const meter = (await db().selectFrom('charging_stations').select('meter_id').where('id', '=', station7).executeTakeFirstOrThrow()).meter_id!
    const tomorrow = await db().selectFrom('measurements').select('ts').where('meter_id', '=', meter).where('ts', '>', new Date(clock.ms() + 3600_000)).execute()
    expect(tomorrow).toEqual([])
    const stoppedFrom = clock.ms()
    await stop(cp, tx, 50_100, '1970-01-01T00:05:00.000Z')
    const s = await sessionOfTx(tx)
    expect(s.start.getTime()).toBeGreaterThanOrEqual(startedFrom)
    expect(s.start.getTime()).toBeLessThanOrEqual(startedTo)
    expect(s.end!.getTime()).toBeGreaterThanOrEqual(stoppedFrom)
    expect(s.end!.getTime()).toBeLessThanOrEqual(clock.ms())
    expect(s.flags).toContain('clockCorrected')
    expect(s).toMatchObject({ status: 'unpaid', energy_kwh: expect.closeTo(0.1, 9) })
    const pdf = await api().get(`/api/rfids-charge/${s.id}/invoice?lang=en`).set(auth(user)).buffer(true).parse((res, done) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => done(null, Buffer.concat(chunks)))
    }).expect(200)
    const parser = new PDFParse({ data: new Uint8Array(pdf.body as Buffer) })
    const text = (await parser.getText()).text
    await parser.destroy()
    expect(text).not.toContain('1970')
    expect(text).toContain('2026')
  })

  it('keeps the time of queued transactions only within the time the charger was really offline', async () => {
    const bound = await api().put('/api/cockpit/installations/1/charging_stations/6/ocpp').set(auth(admin)).send({ charge_point_id: 'QUEUE-6' }).expect(200)
    // Last heard 3 hours ago: it was offline since.
    await db().updateTable('ocpp_charge_points').set({ last_message_at: new Date(clock.ms() - 3 * 3600_000) }).where('id', '=', 'QUEUE-6').execute()
    const cp = await connect('QUEUE-6', bound.body.password)
    const twoHoursAgo = iso(-2 * 3600_000)
    const inGap = await start(cp, 0, twoHoursAgo)
    await stop(cp, inGap, 3000, iso(-1.5 * 3600_000))
    const received = iso()
    const beforeGap = await start(cp, 3000, iso(-5 * 3600_000))
    const a = await sessionOfTx(inGap)
    const b = await sessionOfTx(beforeGap)
    expect(a.start.toISOString()).toBe(twoHoursAgo)
    expect(a.flags).not.toContain('clockCorrected')
    expect(b.start.toISOString()).toBe(received)
    expect(b.flags).toContain('clockCorrected')
  })
})

describe('sessions that never end', () => {
  it('closes an open transaction when a new one starts on the connector, with its last meter value', async () => {
    const cp = await connect()
    const first = await start(cp, 100_000)
    await clock.advance(5 * 60_000)
    await signIn()
    await values(cp, first, iso(), { wh: 100_800 })
    const second = await start(cp, 101_000)
    expect(second).not.toBe(first)
    const old = await sessionOfTx(first)
    expect(old).toMatchObject({ status: 'unpaid', end_reason: 'newTransaction', energy_kwh: expect.closeTo(0.8, 9) })
    expect(await db().selectFrom('ocpp_transactions').select(['end_reason', 'meter_stop_wh']).where('id', '=', first).executeTakeFirstOrThrow()).toEqual({ end_reason: 'newTransaction', meter_stop_wh: 100_800 })
    expect((await db().selectFrom('charging_stations').select('current_session_id').where('id', '=', station7).executeTakeFirstOrThrow()).current_session_id).toBe((await sessionOfTx(second)).id)

    // A BootNotification closes the second; it charged nothing, so it is empty, not "Unpaid CHF 0.00".
    await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
    const s = await sessionOfTx(second)
    expect(s).toMatchObject({ status: 'empty', end_reason: 'reboot', price_rappen: 0 })
    await app.domain!.payments.chargeDue(clock.now())
    expect(await charges(s.id)).toEqual([])
    expect((await api().get(`/api/rfids-charge/${s.id}/`).set(auth(user)).expect(200)).body).toMatchObject({ status: 'empty', price: 0, invoice_url: null })
    await api().get(`/api/rfids-charge/${s.id}/invoice`).set(auth(user)).expect(404)
  })

  it('shows an open session at 0 kW for a while as plugged in, not charging, and lets an admin end it by hand', async () => {
    const cp = await connect()
    const tx = await start(cp, 200_000)
    await values(cp, tx, iso(), { wh: 200_050, w: 3000 })
    const s = await sessionOfTx(tx)
    expect((await api().get(`/api/rfids-charge/${s.id}/`).set(auth(user)).expect(200)).body).toMatchObject({ status: 'charging', idle: false })
    await clock.advance(11 * 60_000)
    await signIn()
    expect((await api().get(`/api/rfids-charge/${s.id}/`).set(auth(user)).expect(200)).body).toMatchObject({ status: 'charging', idle: true })

    const body = { reason: 'Car left, charger never stopped' }
    await api().post(endPath(s.id)).set(auth(user)).send(body).expect(403)
    await api().post(endPath(s.id)).set(auth(bern)).send(body).expect(403)
    await api().post(endPath(s.id, bernInstallation)).set(auth(bern)).send(body).expect(404)
    await api().post(endPath(s.id)).set(auth(admin)).send({}).expect(400)
    const ended = (await api().post(endPath(s.id)).set(auth(admin)).send(body).expect(200)).body
    expect(ended).toMatchObject({ status: 'unpaid', end_reason: 'admin', end: clock.now().toISOString(), energy_kwh: 0.05 })
    expect(await app.domain!.sessionReview.history(s.id)).toMatchObject([{ action: 'end', reason: body.reason }])
    expect(await db().selectFrom('ocpp_transactions').select(['end_reason', 'stopped_at']).where('id', '=', tx).executeTakeFirstOrThrow()).toEqual({ end_reason: 'admin', stopped_at: clock.now() })
    await api().post(endPath(s.id)).set(auth(admin)).send(body).expect(409)
    // The charger's late StopTransaction changes nothing.
    await stop(cp, tx, 260_000)
    expect((await sessionOfTx(tx)).energy_kwh).toBeCloseTo(0.05, 9)
  })
})
