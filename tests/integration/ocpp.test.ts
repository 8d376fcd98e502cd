import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { AT, auth, connectChargePoint, HOURS, login, PASSWORD, startApp, type ChargePoint, stationOfChargePoint } from './helpers.ts'
import { createClock } from '../../server/lib/clock.ts'
import { priceRappen } from '../../server/domain/sessions/service.ts'

// The relay's /live/metrics needs METRICS_TOKEN (docs/decisions.md "Metrics: a token").
const METRICS_TOKEN = 'test-metrics-token-0123456789abcdef0123'

// An OCPP 1.6J central system, driven by a real OCPP client library (ocpp-rpc, strict mode).
let app: FastifyInstance
let url: string
let admin: string
let user: string
let station7: number
const open: ChargePoint[] = []
const CP = 'DEMO-CP-1'
const CARD = '04A1B2C3D4E501' // user@example.com's card, all stations

beforeAll(async () => {
  ;({ app, url } = await startApp({ roles: ['api', 'relay', 'ocpp', 'simulator'], ocpp: { heartbeatSeconds: 30 }, metricsToken: METRICS_TOKEN }))
  admin = await login(app, 'admin@example.com')
  user = await login(app, 'user@example.com')
  station7 = await stationOfChargePoint(app, CP)
})
afterEach(async () => {
  for (const cp of open.splice(0)) await cp.close({ force: true })
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const connect = async (id = CP, password: string | undefined = PASSWORD) => {
  const cp = await connectChargePoint(url, id, password)
  open.push(cp)
  return cp
}
const refusal = (id: string, password: string | undefined, path?: string) =>
  connectChargePoint(url, id, password, { path }).then(
    (cp) => { open.push(cp); return 0 },
    (err: { code?: number }) => err.code,
  )
const stationRow = () => app.domain!.db.selectFrom('charging_stations').selectAll().where('id', '=', station7).executeTakeFirstOrThrow()
const stationApi = async () => (await api().get(`/api/cockpit/installations/1/charging_stations/${station7}`).set(auth(admin)).expect(200)).body
const session = (id: number) => app.domain!.db.selectFrom('charging_sessions').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
/** The app's now, as a charger stamps its messages. */
const now = () => app.clock.now().toISOString()
const boot = (cp: ChargePoint) => cp.call('BootNotification', { chargePointVendor: 'Elinta', chargePointModel: 'CityCharge', firmwareVersion: '2.4.1' }) as Promise<{ status: string; interval: number }>
const energy = (wh: number, at = now(), kw?: number) => ({
  timestamp: at,
  sampledValue: [
    { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
    ...(kw === undefined ? [] : [{ value: String(kw * 1000), measurand: 'Power.Active.Import', unit: 'W' }]),
  ],
})

describe('the OCPP endpoint', () => {
  it('accepts the demo charge point with its password and refuses unknown ids, wrong or missing passwords and other paths at the upgrade', async () => {
    const cp = await connect()
    expect(cp.protocol).toBe('ocpp1.6')
    expect(await refusal(CP, 'wrong-password-123')).toBe(401)
    expect(await refusal('NOT-A-CP', PASSWORD)).toBe(401)
    expect(await refusal(CP, undefined)).toBe(401)
    expect(await refusal(CP, PASSWORD, '/other')).toBe(404)
    expect(app.ocpp!.stats().refused).toBeGreaterThanOrEqual(3)
    // The REST API beside it keeps its sign-in rule.
    await api().get('/api/cockpit/installations/1/charging_stations/').expect(401)
  })

  it('stores and shows what BootNotification says, answers with the heartbeat interval, and counts messages', async () => {
    const cp = await connect()
    const r = await boot(cp)
    expect(r).toMatchObject({ status: 'Accepted', interval: 30 })
    await cp.call('Heartbeat', {})
    await app.ocpp!.sweep()
    const b = (await api().get(`/api/cockpit/installations/1/charging_stations/${station7}/ocpp`).set(auth(admin)).expect(200)).body
    expect(b).toMatchObject({ charge_point_id: CP, connector_id: 1, vendor: 'Elinta', model: 'CityCharge', firmware: '2.4.1', connected: true })
    expect(b.messages_in).toBeGreaterThanOrEqual(2)
    expect(b.messages_out).toBeGreaterThanOrEqual(2)
    expect(app.clock.ms() - Date.parse(b.last_message_at)).toBeLessThan(10_000)
    // A resident without a right on the station learns nothing of it.
    await api().get(`/api/cockpit/installations/1/charging_stations/${station7}/ocpp`).set(auth(user)).expect(404)
    // Observability for monitoring.
    const metrics = (await api().get('/live/metrics').set(auth(METRICS_TOKEN)).expect(200)).text
    expect(metrics).toMatch(/cockpit_ocpp_charge_point_connected\{charge_point="DEMO-CP-1"\} 1/)
    expect(metrics).toMatch(/cockpit_ocpp_messages_total\{charge_point="DEMO-CP-1",direction="in"\} [1-9]/)
    expect(metrics).toMatch(/cockpit_ocpp_charge_point_last_message_seconds\{charge_point="DEMO-CP-1"\} \d/)
  })
})

describe('heartbeat and status', () => {
  it('marks the station offline (no OCPP heartbeat) after 2 silent intervals, and back when heard again', async () => {
    const cp = await connect()
    await boot(cp)
    expect(await stationRow()).toMatchObject({ status_code: 0 })
    expect((await stationRow()).alerts).not.toContain('offline')
    await app.ocpp!.sweep(new Date(app.clock.ms() + 59_000))
    expect((await stationRow()).status_code).toBe(0)
    await app.ocpp!.sweep(new Date(app.clock.ms() + 61_000))
    const s = await stationApi()
    expect(s).toMatchObject({ status: 'unknown', status_code: 18, power_kw: 0 })
    expect(s.alerts).toContain('offline')
    await cp.call('Heartbeat', {})
    expect((await stationRow()).status_code).toBe(0)
    expect((await stationRow()).alerts).not.toContain('offline')
  })

  it('maps StatusNotification onto the SPEC station statuses, a fault with its error code as an alert', async () => {
    const cp = await connect()
    await boot(cp)
    const send = (status: string, errorCode = 'NoError', connectorId = 1) => cp.call('StatusNotification', { connectorId, status, errorCode, timestamp: now() })
    const cases: [string, string][] = [
      ['Available', 'noCar'], ['Preparing', 'carPluggedIn'], ['Charging', 'charging'], ['SuspendedEV', 'carPluggedIn'],
      ['SuspendedEVSE', 'carPluggedIn'], ['Finishing', 'carPluggedIn'], ['Unavailable', 'off'],
    ]
    for (const [ocpp, status] of cases) {
      await send(ocpp)
      expect((await stationApi()).status, ocpp).toBe(status)
    }
    await send('Faulted', 'GroundFailure')
    const faulted = await stationApi()
    expect(faulted).toMatchObject({ status: 'failure', status_code: 17 })
    expect(faulted.alerts).toEqual(['GroundFailure'])
    // Another connector of the charge point is not this station's.
    await send('Available')
    await send('Charging', 'NoError', 2)
    expect((await stationApi()).status).toBe('noCar')
    const b = (await api().get(`/api/cockpit/installations/1/charging_stations/${station7}/ocpp`).set(auth(admin)).expect(200)).body
    expect(b.last_status).toBe('Available')
  })
})

describe('Authorize', () => {
  it('accepts an active card allowed here, refuses unknown, deleted and cards limited to other stations', async () => {
    const cp = await connect()
    await boot(cp)
    const authorize = async (idTag: string) => ((await cp.call('Authorize', { idTag })) as { idTagInfo: { status: string } }).idTagInfo.status
    expect(await authorize(CARD)).toBe('Accepted')
    expect(await authorize('FFFF0000UNKNOWN')).toBe('Invalid')
    const cards = (await api().get('/api/cockpit/installations/1/rfids/').set(auth(admin)).expect(200)).body.results as { id: number; tag: string }[]
    const third = cards.find((c) => c.tag === '04A1B2C3D4E503')!
    await api().patch(`/api/cockpit/installations/1/rfids/${third.id}`).set(auth(admin)).send({ all_stations: false, station_ids: [1] }).expect(200)
    expect(await authorize('04A1B2C3D4E503')).toBe('Invalid')
    await api().patch(`/api/cockpit/installations/1/rfids/${third.id}`).set(auth(admin)).send({ station_ids: [1, station7] }).expect(200)
    expect(await authorize('04A1B2C3D4E503')).toBe('Accepted')
    const fourth = cards.find((c) => c.tag === '04A1B2C3D4E504')!
    await api().delete(`/api/cockpit/installations/1/rfids/${fourth.id}`).set(auth(admin)).expect(204)
    expect(await authorize('04A1B2C3D4E504')).toBe('Blocked')
  })

  it('in learning mode, an unknown tag becomes the pending RFID; registered, it is accepted once ready', async () => {
    const cp = await connect()
    await boot(cp)
    await cp.call('StatusNotification', { connectorId: 1, status: 'Preparing', errorCode: 'NoError' })
    await api().patch(`/api/cockpit/installations/1/charging_stations/${station7}/`).set(auth(admin)).send({ rfid_lernmodus: 1 }).expect(200)
    const tag = 'C0FFEE0000AA77'
    expect(((await cp.call('Authorize', { idTag: tag })) as { idTagInfo: { status: string } }).idTagInfo.status).toBe('Invalid')
    expect((await stationApi()).pending_rfid).toMatchObject({ tag })
    const reg = await api().post(`/api/cockpit/installations/1/charging_stations/${station7}/learned_rfid`).set(auth(admin)).send({ description: 'Guest' }).expect(201)
    // Ready about 3 minutes after learning (SPEC §4): refused until then.
    expect(((await cp.call('Authorize', { idTag: tag })) as { idTagInfo: { status: string } }).idTagInfo.status).toBe('Invalid')
    await app.domain!.db.updateTable('rfids').set({ ready_at: new Date(app.clock.ms() - 1000) }).where('id', '=', reg.body.id).execute()
    expect(((await cp.call('Authorize', { idTag: tag })) as { idTagInfo: { status: string } }).idTagInfo.status).toBe('Accepted')
  })
})

describe('transactions', () => {
  it('charges with meter values into a priced session equal to meterStop − meterStart, billed once when StopTransaction repeats', async () => {
    const cp = await connect()
    await boot(cp)
    await cp.call('StatusNotification', { connectorId: 1, status: 'Preparing', errorCode: 'NoError' })
    // Meter values stamped up to 14 minutes ahead (within the clock tolerance): 2.5 kWh is what an 11 kW
    // station can deliver in that time.
    const later = (min: number) => new Date(app.clock.ms() + min * 60_000).toISOString()
    const start = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 120_000, timestamp: now() })) as { transactionId: number; idTagInfo: { status: string } }
    expect(start.idTagInfo.status).toBe('Accepted')
    await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' })
    await cp.call('MeterValues', { connectorId: 1, transactionId: start.transactionId, meterValue: [energy(121_250, later(7), 7.4)] })
    const live = await stationApi()
    expect(live).toMatchObject({ status: 'charging', power_kw: 7.4, energy_kwh: 1.25 })
    expect(live.rfid).toMatchObject({ tag: CARD })
    const sessionId = (await stationRow()).current_session_id!
    // A repeated meter value adds nothing.
    await cp.call('MeterValues', { connectorId: 1, transactionId: start.transactionId, meterValue: [energy(121_250, later(7))] })
    expect((await session(sessionId)).energy_kwh).toBeCloseTo(1.25, 9)

    const stop = { transactionId: start.transactionId, meterStop: 122_500, timestamp: later(14), idTag: CARD, reason: 'Local' }
    await cp.call('StopTransaction', stop)
    const s = await session(sessionId)
    expect(s.energy_kwh).toBeCloseTo(2.5, 9)
    expect(s.end).not.toBeNull()
    expect(s.status).toBe('unpaid')
    const tariff = await app.domain!.tariffs.inForce(1, s.start, 'Europe/Zurich')
    expect(s.price_rappen).toBe(priceRappen(s.high_kwh, s.low_kwh, tariff))
    expect(s.price_rappen).toBeGreaterThan(0)
    expect(await stationRow()).toMatchObject({ current_session_id: null, power_kw: 0 })

    // The charger did not get the answer and sends StopTransaction again: nothing changes, one charge.
    await cp.call('StopTransaction', { ...stop, meterStop: 130_000 })
    expect(await session(sessionId)).toEqual(s)
    // The payment job bills it once it ended (stamped 14 minutes ahead).
    await app.domain!.payments.chargeDue(new Date(later(15)))
    await app.domain!.payments.chargeDue(new Date(later(15)))
    const charges = await app.domain!.db.selectFrom('payment_charges').selectAll().where('session_id', '=', sessionId).execute()
    expect(charges).toHaveLength(1)
    expect(charges[0]).toMatchObject({ status: 'succeeded', amount_rappen: s.price_rappen })
    const api_ = (await api().get(`/api/rfids-charge/${sessionId}/`).set(auth(user)).expect(200)).body
    expect(api_).toMatchObject({ station_id: station7, energy_kwh: 2.5, status: 'paid' })
  })

  it('accepts transactions the charger ran while offline, late and in order, and bills each', async () => {
    // A charge point last heard 6 hours ago: what it ran since keeps its own time (OCPP 1.6 §3.5 offline behaviour).
    const base = app.clock.ms()
    const h = (hoursAgo: number) => new Date(base - hoursAgo * 3600_000).toISOString()
    const bound = await api().put('/api/cockpit/installations/1/charging_stations/4/ocpp').set(auth(admin)).send({ charge_point_id: 'OFFLINE-4' }).expect(200)
    await app.domain!.db.updateTable('ocpp_charge_points').set({ last_message_at: h(6) }).where('id', '=', 'OFFLINE-4').execute()
    const cp = await connect('OFFLINE-4', bound.body.password)
    await boot(cp)
    // Two transactions that happened 5–4 and 3–2 hours ago, sent on reconnect in order.
    const ids: number[] = []
    for (const [from, to, meterStart, meterStop] of [[5, 4, 200_000, 210_000], [3, 2, 210_000, 214_000]] as const) {
      const r = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart, timestamp: h(from) })) as { transactionId: number }
      await cp.call('MeterValues', { connectorId: 1, transactionId: r.transactionId, meterValue: [energy(meterStart + 1000, h(from - 0.5))] })
      await cp.call('StopTransaction', { transactionId: r.transactionId, meterStop, timestamp: h(to), reason: 'EVDisconnected' })
      ids.push(r.transactionId)
    }
    const rows = await app.domain!.db.selectFrom('ocpp_transactions as t').innerJoin('charging_sessions as s', 's.id', 't.session_id')
      .select(['t.id', 's.start', 's.end', 's.energy_kwh', 's.status', 's.rfid_id']).where('t.id', 'in', ids).orderBy('t.id').execute()
    expect(rows.map((r) => r.energy_kwh)).toEqual([10, 4])
    expect(rows.every((r) => r.status === 'unpaid' && r.rfid_id !== null)).toBe(true)
    expect(Math.abs(rows[0].start.getTime() - Date.parse(h(5)))).toBeLessThan(1000)
    expect(Math.abs(rows[1].end!.getTime() - Date.parse(h(2)))).toBeLessThan(1000)
    expect(rows[0].end!.getTime()).toBeLessThan(rows[1].start.getTime())
    // A late transaction is history, not the station's current session.
    expect((await app.domain!.db.selectFrom('charging_stations').select('current_session_id').where('id', '=', 4).executeTakeFirstOrThrow()).current_session_id).toBeNull()
  })
})

describe('binding stations to charge points', () => {
  it('lets admins bind a station with a password shown once, refuses others and a taken id; the simulator leaves the station alone', async () => {
    const path = '/api/cockpit/installations/1/charging_stations/5/ocpp'
    await api().put(path).set(auth(user)).send({ charge_point_id: 'GARAGE-5' }).expect(403)
    await api().put(path).set(auth(admin)).send({ charge_point_id: CP }).expect(400)
    await api().get(path).set(auth(admin)).expect(404)
    const bound = await api().put(path).set(auth(admin)).send({ charge_point_id: 'GARAGE-5', connector_id: 1 }).expect(200)
    expect(bound.body.password).toMatch(/^[A-Za-z0-9_-]{32}$/)
    expect(bound.headers['cache-control']).toBe('no-store')
    const shown = (await api().get(path).set(auth(admin)).expect(200)).body
    expect(shown).not.toHaveProperty('password')
    expect(JSON.stringify(shown)).not.toContain(bound.body.password)
    const stored = await app.domain!.db.selectFrom('ocpp_charge_points').select('password_hash').where('id', '=', 'GARAGE-5').executeTakeFirstOrThrow()
    expect(stored.password_hash).toMatch(/^\$argon2id\$/)
    // Waiting for its charger: offline, and the simulator no longer drives it.
    expect((await api().get('/api/cockpit/installations/1/charging_stations/5').set(auth(admin)).expect(200)).body).toMatchObject({ status: 'unknown', status_code: 18 })
    const before = await app.domain!.db.selectFrom('charging_sessions').select('id').where('station_id', '=', 5).execute()
    for (let t = Date.UTC(2026, 5, 10, 6); t < Date.UTC(2026, 5, 10, 20); t += 30 * 60_000) await app.simulator!.tick(new Date(t))
    expect(await app.domain!.db.selectFrom('charging_sessions').select('id').where('station_id', '=', 5).execute()).toEqual(before)
    expect((await api().get('/api/cockpit/installations/1/charging_stations/5').set(auth(admin)).expect(200)).body).toMatchObject({ status: 'unknown', status_code: 18 })

    const cp = await connect('GARAGE-5', bound.body.password)
    await boot(cp)
    expect(await refusal('GARAGE-5', PASSWORD)).toBe(401)
    await api().delete(path).set(auth(admin)).expect(204)
    await api().delete(path).set(auth(admin)).expect(404)
    expect(await refusal('GARAGE-5', bound.body.password)).toBe(401)
  })
})

// The hour of a transaction decides its tariff split: the demo's high tariff runs 07:00–20:00 local on
// weekdays (server/db/demo-seed.ts), and AT's day is a Wednesday in winter time (Europe/Zurich, +01:00).
describe.each(HOURS)('a transaction at %s', (hour) => {
  let hourApp: FastifyInstance
  let hourUrl: string
  beforeAll(async () => {
    ;({ app: hourApp, url: hourUrl } = await startApp({ roles: ['api', 'ocpp'], clock: createClock({ start: new Date(AT[hour]) }) }))
  })
  afterAll(async () => hourApp?.close())

  it('starts its session at the local hour and splits its energy into high or low tariff by it', async () => {
    const cp = await connectChargePoint(hourUrl, CP, PASSWORD)
    open.push(cp)
    await boot(cp)
    const at = () => hourApp.clock.now().toISOString()
    await cp.call('StatusNotification', { connectorId: 1, status: 'Preparing', errorCode: 'NoError' })
    const start = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 100_000, timestamp: at() })) as { transactionId: number }
    // Stamped up to 14 minutes ahead (within the clock tolerance): 2.5 kWh an 11 kW station can deliver.
    const later = (min: number) => new Date(hourApp.clock.ms() + min * 60_000).toISOString()
    await cp.call('MeterValues', { connectorId: 1, transactionId: start.transactionId, meterValue: [energy(101_250, later(7), 7.4)] })
    await cp.call('StopTransaction', { transactionId: start.transactionId, meterStop: 102_500, timestamp: later(14), reason: 'Local' })
    const s = await hourApp.domain!.db.selectFrom('ocpp_transactions as t').innerJoin('charging_sessions as s', 's.id', 't.session_id')
      .select(['s.start', 's.energy_kwh', 's.high_kwh', 's.low_kwh', 's.price_rappen']).where('t.id', '=', start.transactionId).executeTakeFirstOrThrow()
    expect(Math.abs(s.start.getTime() - Date.parse(AT[hour]))).toBeLessThan(60_000)
    const localHour = Number(new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Zurich', hour: '2-digit', hourCycle: 'h23' }).format(s.start))
    expect(localHour).toBe({ night: 3, morning: 9, evening: 21 }[hour])
    expect(s.energy_kwh).toBeCloseTo(2.5, 9)
    const high = hour === 'morning'
    expect([s.high_kwh, s.low_kwh]).toEqual(high ? [2.5, 0] : [0, 2.5])
    const tariff = await hourApp.domain!.tariffs.inForce(1, s.start, 'Europe/Zurich')
    expect(s.price_rappen).toBe(priceRappen(s.high_kwh, s.low_kwh, tariff))
  })
})
