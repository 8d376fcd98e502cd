import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { AT, auth, connectChargePoint, login, PASSWORD, startApp, until, type ChargePoint } from './helpers.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { DEFAULT_OPTIONS } from '../../server/control/allocate.ts'

/**
 * A real OCPP 1.6J charge point (ocpp-rpc, strict schema validation) under load management: the demo's
 * charge point DEMO-CP-1 charges a car while the building draws 34.8 kW behind a 63 A connection. It gets
 * a fail-safe TxDefaultProfile capped at its safe share (63 A over the installation's 7 stations: 9 A)
 * and a TxProfile for its transaction with what the connection leaves: 63 A − 34.8 kW / (3 × 230 V) =
 * 12.5 A; the profile is sent again only when the limit changes; switched off, the TxProfile is cleared.
 */
const CP = 'DEMO-CP-1'
const CARD = '04A1B2C3D4E501' // user@example.com's card, all stations
type Received = { method: string; params: any }

let app: FastifyInstance
let url: string
let clock: TestClock
let admin: string
let station7: number
let mainMeter: number
let cp: ChargePoint
let transactionId: number
const got: Received[] = []

beforeAll(async () => {
  clock = createTestClock(AT.morning)
  ;({ app, url } = await startApp({ roles: ['api', 'ocpp'], clock }))
  admin = await login(app, 'admin@example.com')
  const db = app.domain!.db
  station7 = (await db.selectFrom('ocpp_charge_points').select('station_id').where('id', '=', CP).executeTakeFirstOrThrow()).station_id
  mainMeter = (await db.selectFrom('meters').select('id').where('installation_id', '=', 1).where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()).id
  // A garage where only the charge point's car is plugged in (no simulator runs here).
  await db.updateTable('charging_stations').set({ status: 'noCar', power_kw: 0 }).where('installation_id', '=', 1).where('id', '!=', station7).where('charging_mode', '!=', 'locked').execute()
  cp = await connectChargePoint(url, CP, PASSWORD)
  for (const method of ['SetChargingProfile', 'ClearChargingProfile']) {
    cp.handle(method, async ({ params }: { params?: unknown }) => {
      got.push({ method, params })
      return { status: 'Accepted' }
    })
  }
  const now = () => app.clock.now().toISOString()
  await cp.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Box' })
  await cp.call('StatusNotification', { connectorId: 1, status: 'Preparing', errorCode: 'NoError' })
  transactionId = ((await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart: 100_000, timestamp: now() })) as { transactionId: number }).transactionId
  await cp.call('StatusNotification', { connectorId: 1, status: 'Charging', errorCode: 'NoError' })
  // The boot's own TxDefaultProfile of the station's mode (RFID: full current).
  await until(() => got.length >= 1, 10_000, 'the mode profile after boot')
  // Connection state flushed to the database, as the OCPP sweep does every few seconds.
  await app.ocpp!.sweep()
})
afterAll(async () => {
  await cp?.close({ force: true })
  await app?.close()
})

const api = () => request(app.server)
const grid = (kw: number) => app.domain!.measurements.record([{ meter_id: mainMeter, power_kw: kw, ts: app.clock.now() }])
const profiles = (purpose: string) => got.filter((g) => g.method === 'SetChargingProfile' && g.params.csChargingProfiles.chargingProfilePurpose === purpose)
const limitOf = (r: Received) => r.params.csChargingProfiles.chargingSchedule.chargingSchedulePeriod[0].limit as number
/** The TxProfile the controller last sent the charger (load_limits.sent), null before any. */
const sentLimit = async () => (await app.domain!.db.selectFrom('load_limits').select('sent').where('station_id', '=', station7).executeTakeFirst())?.sent ?? null
const station = async (lang: string) => (await api().get(`/api/cockpit/installations/1/charging_stations/${station7}/`).set(auth(admin)).set('Accept-Language', lang).expect(200)).body

describe('load management on an OCPP charge point', () => {
  it('sends the fail-safe TxDefaultProfile and a TxProfile with the connection\'s remaining current for the running transaction', async () => {
    got.length = 0
    await api().put('/api/cockpit/installations/1/load_management').set(auth(admin)).send({ enabled: true, grid_limit_a: 63 }).expect(200)
    await grid(34.8)
    await app.control!.run()
    await until(() => profiles('TxProfile').length >= 1, 10_000, 'the TxProfile')
    const failsafe = profiles('TxDefaultProfile')
    expect(failsafe).toHaveLength(1)
    expect(failsafe[0].params).toMatchObject({ connectorId: 1, csChargingProfiles: { chargingProfileId: 1, chargingSchedule: { chargingRateUnit: 'A', chargingSchedulePeriod: [{ startPeriod: 0, limit: 9 }] } } })
    const tx = profiles('TxProfile')[0]
    expect(tx.params).toMatchObject({ connectorId: 1, csChargingProfiles: { chargingProfileId: 2, transactionId, stackLevel: 0, chargingProfileKind: 'Absolute', chargingSchedule: { chargingRateUnit: 'A' } } })
    expect(limitOf(tx)).toBe(12.5)
    // Valid for 10 minutes unless renewed: a charger that loses the controller falls back to its fail-safe.
    expect(Date.parse(tx.params.csChargingProfiles.validTo) - Date.parse(tx.params.csChargingProfiles.chargingSchedule.startSchedule)).toBe(10 * 60_000)

    const en = await station('en')
    expect(en.reason).toEqual({ code: 'grid_limit_shared', text: 'The building connection is at its limit: 12.5 A for this car (1 charging).', until: null, params: { amps: 12.5, cars: 1 } })
    expect(en.status_code).toBe(15)
    expect(en.alerts).toContain('gridThrottle')
    expect((await station('de')).reason.text).toBe('Der Hausanschluss ist ausgelastet: 12.5 A für dieses Auto (1 laden).')
    expect((await station('fr')).reason.text).toBe('Le raccordement du bâtiment est à sa limite : 12.5 A pour cette voiture (1 en recharge).')
    expect((await station('it')).reason.text).toBe("L'allacciamento dell'edificio è al limite: 12.5 A per questa auto (1 in ricarica).")
  }, 60_000)

  it('sends nothing while the limit stands, and a new TxProfile when it changes', async () => {
    const before = got.length
    const standing = await sentLimit()
    await grid(34.8)
    await app.control!.run()
    await app.ocpp!.sweep()
    // Nothing decided (load_limits.sent as it was), so nothing on its way to the charger either.
    expect(await sentLimit()).toEqual(standing)
    expect(got.length).toBe(before)

    // Then the building draws 3.45 kW (5 A) less. The allocator holds the building's load for hold_s, then
    // lets it fall by building_decay_a a round (docs/decisions.md), so the car gets the 5 A in steps of at
    // least threshold_a, one per hold_s at most, up to the station's 15.9 A; a last step under threshold_a
    // comes once the limit has stood small_rise_s.
    const raised: number[] = []
    const raisedAt: number[] = []
    for (let round = 0; round < 60 && raised.at(-1) !== 15.9; round++) {
      await clock.advance(10_000)
      // The charger keeps in touch as a real one does, so it is not taken for offline.
      await cp.call('Heartbeat', {})
      await grid(34.8 - 3.45)
      await app.control!.run()
      // What the round decided to send (load_limits.sent); the charge point gets it from the OCPP
      // command queue a moment later.
      const decided = (await sentLimit())?.limit_a
      if (decided !== undefined && decided !== (raised.at(-1) ?? 12.5)) {
        await until(() => profiles('TxProfile').length >= 2 + raised.length, 10_000, 'the new TxProfile')
        const tx = profiles('TxProfile').at(-1)!
        expect(limitOf(tx)).toBe(decided)
        expect(tx.params.csChargingProfiles.transactionId).toBe(transactionId)
        raised.push(limitOf(tx))
        raisedAt.push(clock.ms())
        // Raised this round: SPEC §4 status code 13 (increasing). (A new sign-in: the test clock outruns an access token.)
        admin = await login(app, 'admin@example.com')
        expect((await station('en')).status_code).toBe(13)
      }
    }
    // Up to the station's maximum, 15.9 A (the connection would leave 17.5 A).
    expect(raised.at(-1)).toBe(15.9)
    admin = await login(app, 'admin@example.com')
    for (let i = 0; i < raised.length; i++) {
      const step = raised[i] - (raised[i - 1] ?? 12.5)
      expect(step).toBeGreaterThan(0)
      if (i > 0) expect(raisedAt[i] - raisedAt[i - 1]).toBeGreaterThanOrEqual(DEFAULT_OPTIONS.hold_s * 1000)
      if (step < DEFAULT_OPTIONS.threshold_a - 1e-9) expect(raisedAt[i] - raisedAt[i - 1]).toBeGreaterThanOrEqual(DEFAULT_OPTIONS.small_rise_s * 1000)
    }
    // Nothing but the new TxProfiles was sent.
    expect(got.length).toBe(before + raised.length)
    console.info(`TxProfile limits as the building's load fell by 5 A: ${raised.join(' → ')} A`)
    // The journal has the limits with their reasons.
    const journal = await api().get(`/api/cockpit/installations/1/charging_stations/${station7}/journal?entry_type=journal_entry`).set(auth(admin)).expect(200)
    const details = journal.body.results.map((e: { detail?: string }) => e.detail)
    expect(details).toContain('load_limit:12.5:grid_limit_shared')
    for (const a of raised) expect(details.some((d: string) => d.startsWith(`load_limit:${a}:`))).toBe(true)
  }, 60_000)

  it('clears the TxProfile and sends the mode\'s own profile again when switched off', async () => {
    got.length = 0
    await api().put('/api/cockpit/installations/1/load_management').set(auth(admin)).send({ enabled: false, grid_limit_a: 63 }).expect(200)
    await app.control!.run()
    await until(() => got.length >= 2, 10_000, 'the release')
    expect(got[0]).toEqual({ method: 'ClearChargingProfile', params: { id: 2 } })
    expect(got[1].params.csChargingProfiles).toMatchObject({ chargingProfilePurpose: 'TxDefaultProfile', chargingSchedule: { chargingSchedulePeriod: [{ startPeriod: 0, limit: 15.9 }] } })
    expect((await station('en')).status_code).toBe(24)
  }, 60_000)
})
