import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { EventSource } from 'eventsource'
import { auth, connectChargePoint, login, PASSWORD, startApp, until, type ChargePoint } from './helpers.ts'
import { applyUpdate, UPDATE_EVENTS } from '../live-updates.ts'
import { priceRappen } from '../../server/domain/sessions/service.ts'

// docs/decisions.md "OCPP: meter values in batches": meter values of many charge points are
// written in batches, and an open live stream shows one within 1 s even though the relay polls stations only
// every minute here.
let app: FastifyInstance
let url: string
let admin: string
const CARD = '04A1B2C3D4E501'
const open: ChargePoint[] = []
/** Charge point id → its station and password (DEMO-CP-1 and more bound here). */
const points = new Map<string, { stationId: number; password: string }>()

beforeAll(async () => {
  ;({ app, url } = await startApp({ roles: ['api', 'relay', 'ocpp'], intervals: { stations: 60_000 } }))
  admin = await login(app, 'admin@example.com')
  const demo = await app.domain!.db.selectFrom('ocpp_charge_points').select('station_id').where('id', '=', 'DEMO-CP-1').executeTakeFirstOrThrow()
  points.set('DEMO-CP-1', { stationId: demo.station_id, password: PASSWORD })
  for (const stationId of [2, 3]) {
    const r = await request(app.server).put(`/api/cockpit/installations/1/charging_stations/${stationId}/ocpp`).set(auth(admin)).send({ charge_point_id: `METER-${stationId}` }).expect(200)
    points.set(`METER-${stationId}`, { stationId, password: r.body.password })
  }
  // Each binding hashes a password (argon2id): slow on a loaded machine.
})
afterEach(async () => {
  for (const cp of open.splice(0)) await cp.close({ force: true })
})
afterAll(async () => app?.close())

const energy = (wh: number, at: string, kw?: number) => ({
  timestamp: at,
  sampledValue: [
    { value: String(wh), measurand: 'Energy.Active.Import.Register', unit: 'Wh' },
    ...(kw === undefined ? [] : [{ value: String(kw * 1000), measurand: 'Power.Active.Import', unit: 'W' }]),
  ],
})
async function charging(id: string, meterStart: number, startedAt = app.clock.now().toISOString()) {
  const cp = await connectChargePoint(url, id, points.get(id)!.password)
  open.push(cp)
  await cp.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Box' })
  await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' })
  const r = (await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart, timestamp: startedAt })) as { transactionId: number }
  return { cp, tx: r.transactionId }
}

describe('meter values of many charge points at once', () => {
  it('gives each session exactly its energy and price, and each station meter its readings, whatever arrives together', async () => {
    const ids = [...points.keys()]
    // Stamped up to 14 minutes ahead (within the clock tolerance), 20 s per step: energies an 11 kW station can deliver.
    const t0 = app.clock.ms()
    const at = (s: number) => new Date(t0 + s * 20_000).toISOString()
    const runs = await Promise.all(ids.map(async (id, i) => ({ id, ...(await charging(id, 10_000 * i, at(0))) })))
    // Every charge point sends its values without waiting for answers: several land in one batch, some
    // repeated and out of order within a message.
    await Promise.all(runs.map(({ cp, tx }, i) => Promise.all([
      cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [energy(10_000 * i + 1000, at(20)), energy(10_000 * i + 500, at(10))] }),
      cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [energy(10_000 * i + 1000, at(20))] }),
      cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [energy(10_000 * i + 1750 + i * 50, at(30), 6 + i)] }),
    ])))
    for (const [i, { id }] of runs.entries()) {
      const s = (await request(app.server).get(`/api/cockpit/installations/1/charging_stations/${points.get(id)!.stationId}`).set(auth(admin)).expect(200)).body
      expect(s, id).toMatchObject({ power_kw: 6 + i, energy_kwh: 1.75 + i * 0.05 })
    }
    await Promise.all(runs.map(({ cp, tx }, i) => cp.call('StopTransaction', { transactionId: tx, meterStop: 10_000 * i + 2500, timestamp: at(40), reason: 'EVDisconnected' })))
    for (const { id, tx } of runs) {
      const row = await app.domain!.db.selectFrom('ocpp_transactions as t').innerJoin('charging_sessions as s', 's.id', 't.session_id').selectAll('s').where('t.id', '=', tx).executeTakeFirstOrThrow()
      expect(row.energy_kwh, id).toBeCloseTo(2.5, 9)
      expect(row.high_kwh + row.low_kwh).toBeCloseTo(2.5, 9)
      expect(row.price_rappen).toBe(priceRappen(row.high_kwh, row.low_kwh, await app.domain!.tariffs.inForce(1, row.start, 'Europe/Zurich')))
      expect(row.price_rappen).toBeGreaterThan(0)
      const meter = (await app.domain!.db.selectFrom('charging_stations').select('meter_id').where('id', '=', points.get(id)!.stationId).executeTakeFirstOrThrow()).meter_id!
      const readings = await app.domain!.db.selectFrom('measurements').select(['energy_in_kwh']).where('meter_id', '=', meter).where('ts', '>=', new Date(t0)).execute()
      expect(readings.reduce((a, r) => a + r.energy_in_kwh, 0), id).toBeCloseTo(2.5, 9)
    }
  })
})

describe('the live stream', () => {
  it('shows a meter value within 1 s although stations are polled every minute', async () => {
    const ticket = (await request(app.server).post('/live/tickets').set(auth(admin)).send({ installation_id: 1 }).expect(201)).body.ticket
    const state: Record<string, any> = {}
    const es = new EventSource(`${url}/live/installations/1?ticket=${ticket}&topics=stations`)
    es.addEventListener('snapshot', (e) => { const d = JSON.parse(e.data); state[d.topic] = d.data })
    for (const type of UPDATE_EVENTS) es.addEventListener(type, (e) => { const d = JSON.parse(e.data); state[d.topic] = applyUpdate(state[d.topic], type, d) })
    try {
      await until(() => state.stations, 5000, 'snapshot')
      const { cp, tx } = await charging('METER-3', 0)
      for (const kw of [9.9, 4.2]) {
        await cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [energy(50, app.clock.now().toISOString(), kw)] })
        const answered = performance.now()
        await until(() => state.stations['3']?.power_kw === kw, 5000, `${kw} kW on the stream`)
        expect(performance.now() - answered).toBeLessThan(1000)
      }
    } finally {
      es.close()
    }
  })
})
