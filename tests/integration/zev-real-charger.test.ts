import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { AT, answerOnClock, auth, connectChargePoint, login, PASSWORD, startApp, stationOfChargePoint, TEST_SIM_SEED, type ChargePoint } from './helpers.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { createSimulator, type Simulator } from '../../server/devices/simulator/index.ts'

/**
 * A real charger in a simulated facility (docs/zev-method.md; docs/decisions.md "Simulator: real chargers
 * inside the simulated balance"): the demo's "Garage OCPP" (charge point DEMO-CP-1, outside the simulator)
 * charges at 11 kW from 03:00 to 03:20 on a Wednesday night in March (no sun: the battery and the grid
 * supply it) while the simulator runs the rest of installation 1, stepped once a minute by the test up to 04:00. The charger's energy is inside the main
 * meter's import, the building keeps its own load, the ZEV shares out exactly what the main meter imported
 * in each quarter hour, and the charger's silence after it stops is no missing data.
 */
let app: FastifyInstance
let url: string
let clock: TestClock
let simulator: Simulator
let admin: string
let cp: ChargePoint
const CARD = '04A1B2C3D4E501'
const START = Date.parse(AT.night)
const KW = 11
/** The Power page's figures (GET /api/metrics/) while the charger ran. */
let during: any

beforeAll(async () => {
  clock = createTestClock(AT.night)
  ;({ app, url } = await startApp({ roles: ['api', 'ocpp'], clock }))
  // A simulator of the test's own, stepped by the test (no backfill: the hour starts empty).
  simulator = createSimulator({ domain: app.domain!, seed: TEST_SIM_SEED, log: app.log, backfillDays: 0 })
  cp = await connectChargePoint(url, 'DEMO-CP-1', PASSWORD)
  await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
  await simulator.tick(new Date(START))
  await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' })
  const { transactionId } = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 0, timestamp: clock.now().toISOString() })) as { transactionId: number }
  const register = (minute: number) => Math.round((minute * KW * 1000) / 60)
  for (let minute = 1; minute <= 60; minute++) {
    await clock.set(new Date(START + minute * 60_000))
    if (minute <= 20) {
      // The charger's reading of the minute first (its power becomes the station's), then the facility's step.
      await answerOnClock(clock, cp.call('MeterValues', {
        connectorId: 1, transactionId, meterValue: [{ timestamp: clock.now().toISOString(), sampledValue: [
          { value: String(register(minute)), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
          { value: String(KW * 1000), measurand: 'Power.Active.Import', unit: 'W' },
        ] }],
      }))
    }
    await simulator.tick(clock.now())
    // Access tokens live 5 minutes of the clock (ARCHITECTURE §3): a fresh one for each look.
    if (minute === 10) during = (await request(app.server).get('/api/metrics/?installation=1').set(auth(await login(app, 'admin@example.com'))).expect(200)).body
    if (minute === 20) {
      await answerOnClock(clock, cp.call('StopTransaction', { transactionId, meterStop: register(20), timestamp: clock.now().toISOString(), reason: 'EVDisconnected' }))
      await cp.call('StatusNotification', { connectorId: 1, status: 'Available', errorCode: 'NoError' })
    }
  }
  admin = await login(app, 'admin@example.com')
}, 240_000)
afterAll(async () => {
  await cp?.close({ force: true })
  await app?.close()
})

const zev = async (from: string, to: string) =>
  (await request(app.server).get(`/api/statistics/1/zev?start=${encodeURIComponent(from)}&end=${encodeURIComponent(to)}`).set(auth(admin)).expect(200)).body
const quarter = (i: number) => new Date(START + i * 900_000).toISOString()
/** The main meter's import (kWh) in the quarter hour starting at `bucket`, as stored. */
async function mainImport(bucket: string): Promise<number> {
  const r = await app.domain!.db.selectFrom('measurements_15m as a').innerJoin('meters as m', 'm.id', 'a.meter_id').select('a.energy_in_kwh')
    .where('m.installation_id', '=', 1).where('m.meter_type', '=', 'main_power').where('a.bucket', '=', new Date(bucket)).executeTakeFirstOrThrow()
  return r.energy_in_kwh
}
type Row = { name: string; kind: string; consumption_kwh: number; grid_kwh: number; pv_kwh: number; battery_kwh: number }

describe('a real charger in the simulated balance', () => {
  it('the Power page: the charger is part of the consumption, the building keeps its own load', async () => {
    expect(during.charging_stations.stations[String(await stationOfChargePoint(app))], JSON.stringify(during)).toBe(KW)
    const consumption = during.grid.power_kw + during.pv.power_kw - during.battery.power_kw
    // Charging is part of what the facility draws, never above it, and the building is not 0 kW.
    expect(during.charging_stations.power_kw).toBeLessThan(consumption)
    expect(during.building.power_kw).toBeGreaterThan(0.3)
    expect(during.building.power_kw).toBeCloseTo(consumption - during.charging_stations.power_kw, 1)
  })

  it('ZEV: per quarter hour the allocated grid energy is the main meter\'s import, and the charger\'s energy is its own participant\'s', async () => {
    // Minutes 1–14 of charging fall in the first quarter hour, 15–20 in the second.
    const charged = [14 * (KW / 60), 6 * (KW / 60)]
    for (const i of [0, 1]) {
      const r = await zev(quarter(i), quarter(i + 1))
      const rows: Row[] = r.allocation
      const grid = rows.reduce((a, x) => a + x.grid_kwh, 0)
      // At night the grid imports (the battery gives at most 10 kW): the equality means something.
      expect(await mainImport(quarter(i))).toBeGreaterThan(1)
      expect(grid, `quarter ${i}`).toBeCloseTo(await mainImport(quarter(i)), 2)
      expect(r.zev.total.grid_kwh).toBeCloseTo(await mainImport(quarter(i)), 2)
      // Every participant receives its consumption from the sources; nothing is left unbalanced.
      for (const x of rows) expect(x.pv_kwh + x.battery_kwh + x.grid_kwh, x.name).toBeCloseTo(x.consumption_kwh, 3)
      expect(r.zev).toMatchObject({ unbalanced_intervals: 0, missing_intervals: 0, expected_intervals: 1 })
      const garage = rows.find((x) => x.name === 'Garage OCPP')!
      expect(garage.consumption_kwh).toBeCloseTo(charged[i], 2)
      // The common areas' load stays the building's, not crowded out by the charger.
      expect(rows.find((x) => x.kind === 'building')!.consumption_kwh).toBeGreaterThan(0.05)
    }
  })

  it('missing data: the charger\'s silence after it stopped is no gap; a flat meter\'s missing quarter hour is', async () => {
    const hour = await zev(quarter(0), quarter(4))
    expect(hour.zev).toMatchObject({ expected_intervals: 4, missing_intervals: 0, unbalanced_intervals: 0 })
    const db = app.domain!.db
    const flat = await db.selectFrom('meters').select('id').where('installation_id', '=', 1).where('name', '=', 'Electricity apartment 1').executeTakeFirstOrThrow()
    await db.deleteFrom('measurements_15m').where('meter_id', '=', flat.id).where('bucket', '=', new Date(quarter(3))).execute()
    expect((await zev(quarter(0), quarter(4))).zev).toMatchObject({ expected_intervals: 4, missing_intervals: 1 })
  })

  it('meters that measured more than the main meters supplied: no grid energy is made up, the report says where and how much', async () => {
    // 02:00–02:15, before the simulator ran: the main meter imported 1 kWh, the charger's meter says 3 kWh.
    const db = app.domain!.db
    const at = new Date(START - 4 * 900_000)
    const meter = async (where: { name?: string; type?: string }) => (await db.selectFrom('meters').select('id').where('installation_id', '=', 1)
      .$if(Boolean(where.name), (q) => q.where('name', '=', where.name!)).$if(Boolean(where.type), (q) => q.where('meter_type', '=', where.type as 'main_power')).executeTakeFirstOrThrow()).id
    const station = await db.selectFrom('charging_stations').select('meter_id').where('id', '=', await stationOfChargePoint(app)).executeTakeFirstOrThrow()
    const row = (meter_id: number, e_in: number) => ({ meter_id, bucket: at, energy_in_kwh: e_in, energy_out_kwh: 0, volume_m3: 0, power_sum: 0, samples: 1, soc_last: null })
    await db.insertInto('measurements_15m').values([row(await meter({ type: 'main_power' }), 1), row(station.meter_id!, 3)]).execute()
    const r = await zev(at.toISOString(), new Date(at.getTime() + 900_000).toISOString())
    const rows: Row[] = r.allocation
    expect(rows.reduce((a, x) => a + x.grid_kwh, 0)).toBeCloseTo(1, 4)
    expect(rows.find((x) => x.name === 'Garage OCPP')).toMatchObject({ consumption_kwh: 3, grid_kwh: 1 })
    expect(r.zev).toMatchObject({ unbalanced_intervals: 1, unbalanced_kwh: 2 })
    // The mailed ZEV report warns too (German for a German report).
    const created = await request(app.server).post('/api/cockpit/installations/1/reports/').set(auth(admin))
      .send({ name: 'ZEV 2026', report_type: 'zev', recipients: ['zev-check@example.org'], language: 'de' }).expect(201)
    await request(app.server).post('/api/cockpit/installations/1/reports/dispatch').set(auth(admin)).send({ reportId: created.body.id, year: 2026 }).expect(202)
    const mail = await db.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'zev-check@example.org').executeTakeFirstOrThrow()
    const csv = Buffer.from((mail.attachments as { content_base64: string }[])[0].content_base64, 'base64').toString('utf8')
    expect(csv).toContain('Warnung: Viertelstunden, in denen die Zähler der Teilnehmenden mehr gemessen haben, als die Hauptzähler geliefert haben: 1, zusammen 2.000 kWh (nicht verrechnet)')
  })
})
