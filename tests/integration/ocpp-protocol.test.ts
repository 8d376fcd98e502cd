import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { answerOnClock, AT, auth, connectChargePoint, login, PASSWORD, sleep, startApp, until, type ChargePoint, stationOfChargePoint } from './helpers.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'

// OCPP 1.6J details a charger notices: CallError codes of OCPP-J 1.6 §4.2.3, idTags without case (IdToken is
// a CiString), per-phase measurands and SoC, command answers shown to the admin, password guesses slowed
// (docs/decisions.md "OCPP: password guesses slowed"), and a clean close at shutdown. A charge point of
// ocpp-rpc (strict mode) sends the good and bad cases; the app runs on a test clock.
let app: FastifyInstance
let url: string
let clock: TestClock
let admin: string
let station7: number
const CP = 'DEMO-CP-1'
const CARD = '04A1B2C3D4E501' // user@example.com's card, all stations
const open: ChargePoint[] = []

beforeAll(async () => {
  clock = createTestClock(AT.morning)
  ;({ app, url } = await startApp({ roles: ['api', 'ocpp'], clock }))
  station7 = await stationOfChargePoint(app, CP)
})
beforeEach(async () => {
  admin = await login(app, 'admin@example.com')
})
afterEach(async () => {
  for (const cp of open.splice(0)) await cp.close({ force: true })
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const db = () => app.domain!.db
const iso = () => clock.now().toISOString()
const stationPath = () => `/api/cockpit/installations/1/charging_stations/${station7}`
async function connect(id = CP, password = PASSWORD): Promise<ChargePoint> {
  await clock.advance(1000)
  const cp = await connectChargePoint(url, id, password)
  open.push(cp)
  await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
  return cp
}
/** Wait for an answer that needs the meter batch (a timer on the test clock). */
const answer = <T>(p: Promise<T>) => answerOnClock(clock, p)
/** Frames the central system sends to `cp`, parsed. */
function inbox(cp: ChargePoint): unknown[][] {
  const got: unknown[][] = []
  cp.on('message', ({ message, outbound }: { message: Buffer | string; outbound: boolean }) => {
    if (!outbound) got.push(JSON.parse(message.toString()))
  })
  return got
}
/** Send a raw frame and wait for the CALLERROR that answers message id `id`. */
async function callError(cp: ChargePoint, got: unknown[][], raw: string, id: string): Promise<unknown[]> {
  cp.sendRaw(raw)
  return until(() => got.find((f) => f[0] === 4 && f[1] === id), 5000, `CALLERROR ${id}`)
}

describe('CallError codes of OCPP-J 1.6', () => {
  it('answers an unknown action NotImplemented, a CS action NotSupported, and malformed frames FormationViolation or TypeConstraintViolation', async () => {
    const cp = await connect()
    const got = inbox(cp)
    expect((await callError(cp, got, '[2,"u1","FancyVendorThing",{}]', 'u1'))[2]).toBe('NotImplemented')
    expect((await callError(cp, got, '[2,"u2","ClearCache",{}]', 'u2'))[2]).toBe('NotSupported')
    expect((await callError(cp, got, '[2,"u3","StatusNotification",{"connectorId":"one","status":"Available","errorCode":"NoError"}]', 'u3'))[2]).toBe('TypeConstraintViolation')
    // Frames that are no OCPP-J message: the 2.0.1 code RpcFrameworkError is not a 1.6 one.
    for (const raw of ['this is no json', '{"an":"object"}', '[7,"u4",{}]']) {
      got.length = 0
      cp.sendRaw(raw)
      const e = await until(() => got.find((f) => f[0] === 4), 5000, raw)
      expect(e[2], raw).toBe('FormationViolation')
    }
    // The connection stays usable.
    expect(await cp.call('Heartbeat', {})).toMatchObject({ currentTime: iso() })
  })
})

describe('idTags', () => {
  it('accepts a card sent in another case (IdToken is case-insensitive) and books the session on that card', async () => {
    const cp = await connect()
    expect(await cp.call('Authorize', { idTag: CARD.toLowerCase() })).toEqual({ idTagInfo: { status: 'Accepted' } })
    const r = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD.toLowerCase(), meterStart: 1000, timestamp: iso() })) as { transactionId: number; idTagInfo: { status: string } }
    expect(r.idTagInfo.status).toBe('Accepted')
    const t = await db().selectFrom('ocpp_transactions as t').innerJoin('charging_sessions as s', 's.id', 't.session_id').innerJoin('rfids as r', 'r.id', 's.rfid_id')
      .select(['r.tag']).where('t.id', '=', r.transactionId).executeTakeFirstOrThrow()
    expect(t.tag).toBe(CARD)
    await answer(cp.call('StopTransaction', { transactionId: r.transactionId, meterStop: 1000, timestamp: iso() }))
    // A remote start from the station page with the tag in lower case is the same card.
    await api().post(`${stationPath()}/ocpp/commands`).set(auth(admin)).send({ action: 'RemoteStartTransaction', id_tag: CARD.toLowerCase() }).expect((res) => expect([200, 202]).toContain(res.status))
  })
})

describe('measurands', () => {
  it('sums per-phase power, takes power from per-phase currents when no power is sent, and stores the SoC with the reading', async () => {
    const cp = await connect()
    await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' })
    const tx = ((await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 50_000, timestamp: iso() })) as { transactionId: number }).transactionId
    await clock.advance(60_000)
    const phases = (measurand: string, unit: string, values: number[]) => values.map((v, i) => ({ value: String(v), measurand, unit, phase: `L${i + 1}` }))
    await answer(cp.call('MeterValues', {
      connectorId: 1, transactionId: tx, meterValue: [{
        timestamp: iso(), sampledValue: [
          { value: '50100', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
          ...phases('Power.Active.Import', 'W', [2300, 2300, 2400]),
          // The neutral conductor's current is no phase's share.
          { value: '3', measurand: 'Current.Import', unit: 'A', phase: 'N' },
          { value: '54', measurand: 'SoC', unit: 'Percent', location: 'EV' },
        ],
      }],
    }))
    const station = async () => (await api().get(stationPath()).set(auth(admin)).expect(200)).body
    expect((await station()).power_kw).toBeCloseTo(7.0, 9)
    await clock.advance(60_000)
    await answer(cp.call('MeterValues', {
      connectorId: 1, transactionId: tx, meterValue: [{
        timestamp: iso(), sampledValue: [
          { value: '50250', measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
          ...phases('Current.Import', 'A', [16, 16, 10]),
          ...phases('Voltage', 'V', [230, 230, 240]).map((v) => ({ ...v, phase: `${v.phase}-N` })),
          { value: '55', measurand: 'SoC', unit: 'Percent', location: 'EV' },
        ],
      }],
    }))
    expect((await station()).power_kw).toBeCloseTo((16 * 230 + 16 * 230 + 10 * 240) / 1000, 9)
    const meter = await db().selectFrom('charging_stations').select('meter_id').where('id', '=', station7).executeTakeFirstOrThrow()
    const readings = await db().selectFrom('measurements').select(['soc', 'energy_in_kwh']).where('meter_id', '=', meter.meter_id!).where('soc', 'is not', null).orderBy('ts', 'desc').limit(2).execute()
    expect(readings.map((r) => r.soc)).toEqual([55, 54])
    await answer(cp.call('StopTransaction', { transactionId: tx, meterStop: 50_250, timestamp: iso() }))
  })
})

describe('command answers', () => {
  it("shows the charger's refusal or CALLERROR to the admin who sent the command, and 202 while the charger is offline", async () => {
    const cp = await connect()
    cp.handle('UnlockConnector', async () => ({ status: 'UnlockFailed' }))
    cp.handle('RemoteStartTransaction', async () => ({ status: 'Rejected' }))
    // ChangeAvailability is not handled by this charger: ocpp-rpc answers NotImplemented.
    await cp.call('Heartbeat', {})
    const send = (body: object) => api().post(`${stationPath()}/ocpp/commands`).set(auth(admin)).send(body)
    expect((await send({ action: 'UnlockConnector' }).expect(200)).body).toMatchObject({ action: 'UnlockConnector', status: 'UnlockFailed', error: null })
    expect((await send({ action: 'RemoteStartTransaction', id_tag: CARD }).expect(200)).body).toMatchObject({ status: 'Rejected' })
    // A RemoteStop of a transaction the charger cannot handle: its CALLERROR, with the OCPP code.
    const tx = ((await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 60_000, timestamp: iso() })) as { transactionId: number }).transactionId
    const failed = (await send({ action: 'RemoteStopTransaction' }).expect(200)).body
    expect(failed).toMatchObject({ action: 'RemoteStopTransaction', status: 'failed' })
    expect(failed.error).toMatch(/^NotImplemented/)
    await answer(cp.call('StopTransaction', { transactionId: tx, meterStop: 60_000, timestamp: iso() }))
    await cp.close({ force: true })
    await until(() => !app.ocpp!.isConnected(CP))
    expect((await send({ action: 'UnlockConnector' }).expect(202)).body).toMatchObject({ status: 'queued', error: null })
  })
})

describe('password guesses', () => {
  const tryConnect = (id: string, password: string) => connectChargePoint(url, id, password).then(
    (cp) => { open.push(cp); return 101 },
    (err: { code?: number }) => err.code,
  )

  it('slows guesses per charge point id and per IP on the clock, and lets a charger in from where it connected before', async () => {
    // The real charger has connected from here before.
    await connect()
    await open.pop()!.close({ force: true })
    // 20 checked guesses at one id: the free ones at once, then a delay doubling up to a minute.
    const t0 = clock.ms()
    let checked = 0
    let refused = 0
    while (checked < 20) {
      const code = await tryConnect('GUESS-ME', `wrong-password-${checked}`)
      if (code === 401) checked++
      else {
        expect(code).toBe(429)
        refused++
        await clock.advance(5_000)
      }
    }
    expect(refused).toBeGreaterThan(0)
    expect(clock.ms() - t0).toBeGreaterThan(10 * 60_000)
    // The IP is slowed too: a charge point that never connected from here waits, even with its password…
    admin = await login(app, 'admin@example.com')
    const bound = await api().put('/api/cockpit/installations/1/charging_stations/4/ocpp').set(auth(admin)).send({ charge_point_id: 'NEW-4' }).expect(200)
    expect(await tryConnect('NEW-4', bound.body.password)).toBe(429)
    // …but the charger known to connect from here does not.
    expect(await tryConnect(CP, PASSWORD)).toBe(101)
    await clock.advance(60_000)
    expect(await tryConnect('NEW-4', bound.body.password)).toBe(101)
  })
})

describe('shutdown', () => {
  it('closes charge point connections with 1001 (going away)', async () => {
    const own = await startApp({ roles: ['api', 'ocpp'], clock: createTestClock(AT.morning) })
    try {
      const cp = await connectChargePoint(own.url, CP, PASSWORD)
      await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
      const closed = new Promise<number>((resolve) => cp.once('close', ({ code }: { code: number }) => resolve(code)))
      await own.app.close()
      expect(await closed).toBe(1001)
    } finally {
      await own.app.close().catch(() => undefined)
    }
  }, 120_000)
})
