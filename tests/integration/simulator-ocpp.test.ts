import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { AT, auth, demoCarAt, login, startApp, stationFreeAt, TEST_SIM_SEED, until } from './helpers.ts'
import { createClock } from '../../server/lib/clock.ts'
import { priceRappen } from '../../server/domain/sessions/service.ts'

// With SIM_OCPP=on the simulated stations are OCPP 1.6J charge points of this server.
let app: FastifyInstance
let admin: string
const CARD = '04A1B2C3D4E501'

/**
 * The app starts at a time the suite's seed leaves station 1 (index 0) free from 5 minutes before to 30
 * minutes after: the test's guest car must be the only car there. Otherwise the demo's scheduled car
 * would hold station 1, take over at the guest's unplugging and open a transaction of its own.
 */
const FREE = stationFreeAt(0, { from: AT.morning, minutes: 30 })

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api', 'ocpp', 'simulator'], simOcpp: true, simSeed: TEST_SIM_SEED, clock: createClock({ start: new Date(FREE) }) }))
  admin = await login(app, 'admin@example.com')
  // Binding the simulated charge points hashes their passwords (argon2id): slow on a loaded machine.
})
afterAll(async () => {
  await app?.simulator?.stop()
  await app?.close()
})

describe('SIM_OCPP', () => {
  it('charges a simulated car through the OCPP path into a priced session, within the charging profile', async () => {
    const db = app.domain!.db
    const t0 = app.clock.now()
    expect(demoCarAt(0, t0.toISOString())).toBe(false)
    await app.simulator!.tick(t0)
    // Each simulated station (not the real DEMO-CP-1's) is a connected charge point of its own.
    const points = await db.selectFrom('ocpp_charge_points').select(['id', 'station_id', 'simulated', 'vendor']).where('installation_id', '=', 1).orderBy('station_id').execute()
    expect(points.filter((p) => p.simulated).map((p) => p.id)).toEqual(['SIM-1', 'SIM-2', 'SIM-3', 'SIM-4', 'SIM-5', 'SIM-6'])
    expect(points.filter((p) => p.simulated).every((p) => p.vendor === 'Cockpit')).toBe(true)
    await until(() => app.ocpp!.isConnected('SIM-1'), 10_000, 'SIM-1 connected')

    // Instant mode: the central system sends the full-current profile (15.9 A: 10.97 kW), which the charger obeys.
    await request(app.server).patch('/api/cockpit/installations/1/charging_stations/1/').set(auth(admin)).send({ charging_mode: 'instant' }).expect(200)
    await until(async () => (await db.selectFrom('ocpp_commands').select('status').where('charge_point_id', '=', 'SIM-1').where('action', '=', 'SetChargingProfile').orderBy('id', 'desc').executeTakeFirst())?.status === 'Accepted', 10_000, 'profile accepted')
    const card = await db.selectFrom('rfids').select(['id', 'user_id']).where('tag', '=', CARD).executeTakeFirstOrThrow()
    const start = new Date(t0.getTime() + 1000)
    await app.simulator!.plugIn(1, 1, 60, start, 1, card.id)
    for (let i = 1; i <= 3; i++) await app.simulator!.tick(new Date(start.getTime() + i * 60_000))
    const station = (await request(app.server).get('/api/cockpit/installations/1/charging_stations/1').set(auth(admin)).expect(200)).body
    expect(station).toMatchObject({ status: 'charging', power_kw: 10.97 })
    expect(station.rfid).toMatchObject({ tag: CARD })

    await app.simulator!.unplug(1, 1, new Date(start.getTime() + 4 * 60_000))
    await app.simulator!.tick(new Date(start.getTime() + 4 * 60_000 + 5000))
    const tx = await db.selectFrom('ocpp_transactions').selectAll().where('charge_point_id', '=', 'SIM-1').orderBy('id', 'desc').executeTakeFirstOrThrow()
    expect(tx.stopped_at).not.toBeNull()
    const s = await db.selectFrom('charging_sessions').selectAll().where('id', '=', tx.session_id!).executeTakeFirstOrThrow()
    expect(s).toMatchObject({ station_id: 1, rfid_id: card.id, user_id: card.user_id, status: 'unpaid' })
    // The session's energy is the charger's meterStop − meterStart, priced by the tariff.
    expect(s.energy_kwh).toBeCloseTo((tx.meter_stop_wh! - tx.meter_start_wh) / 1000, 9)
    expect(s.energy_kwh).toBeGreaterThan(0.3)
    expect(s.price_rappen).toBe(priceRappen(s.high_kwh, s.low_kwh, await app.domain!.tariffs.inForce(1, s.start, 'Europe/Zurich')))
    expect(s.price_rappen).toBeGreaterThan(0)
    // The station meter's readings came once, through the central system.
    const meter = (await db.selectFrom('charging_stations').select('meter_id').where('id', '=', 1).executeTakeFirstOrThrow()).meter_id!
    const readings = await db.selectFrom('measurements').select('energy_in_kwh').where('meter_id', '=', meter).where('ts', '>=', start).execute()
    expect(readings.reduce((a, r) => a + r.energy_in_kwh, 0)).toBeCloseTo(s.energy_kwh, 6)
  })
})
