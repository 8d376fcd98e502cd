import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, connectChargePoint, login, PASSWORD, startApp, until, type ChargePoint, stationOfChargePoint } from './helpers.ts'

// What admins do reaches the charge point as OCPP commands, queued while it is offline.
let app: FastifyInstance
let url: string
let admin: string
let user: string
let station7: number
const open: ChargePoint[] = []
const CP = 'DEMO-CP-1'
type Received = { method: string; params: any }

beforeAll(async () => {
  ;({ app, url } = await startApp({ roles: ['api', 'ocpp'] }))
  admin = await login(app, 'admin@example.com')
  user = await login(app, 'user@example.com')
  station7 = await stationOfChargePoint(app, CP)
})
afterEach(async () => {
  for (const cp of open.splice(0)) await cp.close({ force: true })
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const stationPath = () => `/api/cockpit/installations/1/charging_stations/${station7}`
/** A charge point that accepts every command and keeps what it received, in order. */
async function charger(): Promise<{ cp: ChargePoint; got: Received[] }> {
  const cp = await connectChargePoint(url, CP, PASSWORD)
  open.push(cp)
  const got: Received[] = []
  for (const method of ['SetChargingProfile', 'ChangeAvailability', 'RemoteStartTransaction', 'RemoteStopTransaction', 'UnlockConnector']) {
    cp.handle(method, async ({ params }: { params?: unknown }) => {
      got.push({ method, params })
      return method === 'UnlockConnector' ? { status: 'Unlocked' } : { status: 'Accepted' }
    })
  }
  return { cp, got }
}
const boot = (cp: ChargePoint) => cp.call('BootNotification', { chargePointVendor: 'Test', chargePointModel: 'Box' })
const setMode = (mode: string) => api().patch(`${stationPath()}/`).set(auth(admin)).send({ charging_mode: mode }).expect(200)
const limits = (r: Received) => r.params.csChargingProfiles.chargingSchedule.chargingSchedulePeriod as { startPeriod: number; limit: number }[]
/** The limit of a weekly schedule at weekday d (0 = Monday), local hh:mm. */
const at = (r: Received, d: number, hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number)
  const s = (d * 1440 + h * 60 + m) * 60
  return limits(r).filter((p) => p.startPeriod <= s).at(-1)!.limit
}

describe('charging modes as TxDefaultProfile', () => {
  it('sends the profile of each mode, availability on turn-off and back, and journals every answer', async () => {
    const { cp, got } = await charger()
    await boot(cp)
    // After boot, the current mode's profile (the demo station is in RFID mode: full current).
    await until(() => got.length >= 1)
    expect(got[0]).toMatchObject({ method: 'SetChargingProfile', params: { connectorId: 1, csChargingProfiles: { chargingProfilePurpose: 'TxDefaultProfile', chargingProfileKind: 'Absolute' } } })
    expect(limits(got[0])).toEqual([{ startPeriod: 0, limit: 15.9 }])

    got.length = 0
    await setMode('locked')
    await until(() => got.length >= 2)
    expect(got.map((g) => g.method)).toEqual(['ChangeAvailability', 'SetChargingProfile'])
    expect(got[0].params).toEqual({ connectorId: 1, type: 'Inoperative' })
    expect(limits(got[1])).toEqual([{ startPeriod: 0, limit: 0 }])

    got.length = 0
    await setMode('optimized')
    await until(() => got.length >= 2)
    expect(got[0].params).toEqual({ connectorId: 1, type: 'Operative' })
    const optimized = got[1]
    expect(optimized.params.csChargingProfiles).toMatchObject({ chargingProfileKind: 'Recurring', recurrencyKind: 'Weekly' })
    // The demo tariff: high 07–20 Monday to Friday, 07–13 Saturday.
    expect([at(optimized, 0, '06:45'), at(optimized, 0, '07:00'), at(optimized, 0, '19:45'), at(optimized, 0, '20:00')]).toEqual([15.9, 0, 0, 15.9])
    expect([at(optimized, 5, '12:45'), at(optimized, 5, '13:00'), at(optimized, 6, '12:00')]).toEqual([0, 15.9, 15.9])

    got.length = 0
    await setMode('instant')
    await until(() => got.length >= 1)
    expect(limits(got[0])).toEqual([{ startPeriod: 0, limit: 15.9 }])

    got.length = 0
    for (const [start_time, charging_mode] of [['22:00', 'instant'], ['06:30', 'solar']]) {
      await api().post('/api/cockpit/installations/1/timers/').set(auth(admin)).send({
        object_type: 'charging_station', object_id: station7, repeat_monday: true, repeat_tuesday: true, repeat_wednesday: true, repeat_thursday: true,
        repeat_friday: true, repeat_saturday: true, repeat_sunday: true, start_time, description: 'OCPP test', charging_mode,
      }).expect(201)
    }
    await setMode('timer')
    await until(() => got.length >= 1)
    expect([at(got[0], 2, '06:15'), at(got[0], 2, '06:30'), at(got[0], 2, '21:45'), at(got[0], 2, '22:00')]).toEqual([15.9, 0, 0, 15.9])

    // Solar: the PV surplus now, 5 kW exported to the grid → 7.2 A per phase.
    const main = await app.domain!.db.selectFrom('meters').select('id').where('installation_id', '=', 1).where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()
    await app.domain!.measurements.record([{ meter_id: main.id, ts: app.clock.now(), power_kw: -5 }])
    got.length = 0
    await setMode('solar')
    await until(() => got.length >= 1)
    expect(limits(got[0])).toEqual([{ startPeriod: 0, limit: 7.2 }])

    await until(async () => {
      const j = await api().get(`${stationPath()}/journal`).set(auth(admin)).expect(200)
      return j.body.results.filter((e: { detail?: string }) => e.detail === 'ocpp:SetChargingProfile:Accepted').length === 6 && j.body.results.some((e: { detail?: string }) => e.detail === 'ocpp:ChangeAvailability:Accepted')
    }, 5000, 'journaled answers')
  })
})

describe('commands from the station page', () => {
  it('queues commands while the charger is offline and sends them in order on reconnect', async () => {
    await api().post(`${stationPath()}/ocpp/commands`).set(auth(user)).send({ action: 'UnlockConnector' }).expect(403)
    await api().post(`${stationPath()}/ocpp/commands`).set(auth(admin)).send({ action: 'RemoteStopTransaction' }).expect(400)
    await api().post(`${stationPath()}/ocpp/commands`).set(auth(admin)).send({ action: 'RemoteStartTransaction', id_tag: 'NOT-A-CARD' }).expect(400)
    // Offline: both wait.
    await setMode('instant')
    const q = await api().post(`${stationPath()}/ocpp/commands`).set(auth(admin)).send({ action: 'RemoteStartTransaction', id_tag: '04A1B2C3D4E501' }).expect(202)
    expect(q.body).toMatchObject({ action: 'RemoteStartTransaction', status: 'queued' })
    await api().post(`${stationPath()}/ocpp/commands`).set(auth(admin)).send({ action: 'UnlockConnector' }).expect(202)

    const { cp, got } = await charger()
    await cp.call('Heartbeat', {})
    await until(() => got.length >= 3)
    expect(got.slice(0, 3).map((g) => g.method)).toEqual(['SetChargingProfile', 'RemoteStartTransaction', 'UnlockConnector'])
    expect(got[1].params).toEqual({ connectorId: 1, idTag: '04A1B2C3D4E501' })
    // The charger has the command before the central system has stored its answer.
    // (The TriggerMessage StatusNotification queued when the charger is heard again is not the admin's.)
    const answers = () => app.domain!.db.selectFrom('ocpp_commands').select(['action', 'status']).where('charge_point_id', '=', CP).where('action', 'in', ['RemoteStartTransaction', 'UnlockConnector']).orderBy('id', 'desc').limit(2).execute()
    const rows = await until(async () => ((await answers()).every((r) => r.status !== 'sent') ? answers() : null), 5000, 'answers stored')
    expect(rows).toEqual([{ action: 'UnlockConnector', status: 'Unlocked' }, { action: 'RemoteStartTransaction', status: 'Accepted' }])

    // A running transaction is stopped by its id.
    const tx = (await cp.call('StartTransaction', { connectorId: 1, idTag: '04A1B2C3D4E501', meterStart: 0, timestamp: app.clock.now().toISOString() })) as { transactionId: number }
    // Connected: the charger's answer is the route's.
    const stopped = await api().post(`${stationPath()}/ocpp/commands`).set(auth(admin)).send({ action: 'RemoteStopTransaction' }).expect(200)
    expect(stopped.body).toMatchObject({ action: 'RemoteStopTransaction', status: 'Accepted', error: null })
    await until(() => got.some((g) => g.method === 'RemoteStopTransaction'))
    expect(got.find((g) => g.method === 'RemoteStopTransaction')!.params).toEqual({ transactionId: tx.transactionId })
  })
})

describe('RFID mode: authorize first', () => {
  it('makes the charge point ask Authorize before charging in RFID mode (on entering it and after each boot) and stops authorizing remote starts when it leaves', async () => {
    await setMode('instant')
    const { cp, got } = await charger()
    cp.handle('ChangeConfiguration', async ({ params }: { params?: unknown }) => {
      got.push({ method: 'ChangeConfiguration', params })
      return { status: 'Accepted' }
    })
    // The meter intervals sent at each boot are another matter (ocpp-tariff-split.test.ts).
    const meterKeys = ['MeterValueSampleInterval', 'ClockAlignedDataInterval']
    const config = () => got.filter((g) => g.method === 'ChangeConfiguration' && !meterKeys.includes(g.params.key)).map((g) => g.params)
    await boot(cp)
    await until(() => got.length >= 1)
    expect(config()).toEqual([])

    got.length = 0
    await setMode('rfid')
    await until(() => got.length >= 3)
    expect(config()).toEqual([{ key: 'LocalPreAuthorize', value: 'false' }, { key: 'AuthorizeRemoteTxRequests', value: 'true' }])
    // What the charge point then asks is decided by the card rules.
    expect(await cp.call('Authorize', { idTag: 'NOT-A-CARD' })).toEqual({ idTagInfo: { status: 'Invalid' } })
    expect(await cp.call('Authorize', { idTag: '04A1B2C3D4E501' })).toEqual({ idTagInfo: { status: 'Accepted' } })

    // A charger swapped or reset to factory settings boots again: told again.
    got.length = 0
    await boot(cp)
    await until(() => config().length >= 2)
    expect(config()).toEqual([{ key: 'LocalPreAuthorize', value: 'false' }, { key: 'AuthorizeRemoteTxRequests', value: 'true' }])

    got.length = 0
    await setMode('instant')
    await until(() => got.some((g) => g.method === 'SetChargingProfile'))
    expect(config()).toEqual([{ key: 'AuthorizeRemoteTxRequests', value: 'false' }])
    await until(async () => {
      const j = await api().get(`${stationPath()}/journal`).set(auth(admin)).expect(200)
      return j.body.results.filter((e: { detail?: string }) => e.detail === 'ocpp:ChangeConfiguration:Accepted').length >= 5
    }, 5000, 'journaled configuration answers')
  })
})

describe('timer mode follows the stored timers', () => {
  const timers = async () => (await api().get(`/api/cockpit/installations/1/timers/?object_type=charging_station&object_id=${station7}`).set(auth(admin)).expect(200)).body.results as { id: number; start_time: string }[]
  const timerPath = (id: number) => `/api/cockpit/installations/1/timers/${id}/`
  const profiles = (got: Received[]) => got.filter((g) => g.method === 'SetChargingProfile')

  it('re-sends the TxDefaultProfile when a timer is added, changed or deleted, and queues it while the charger is offline', async () => {
    const { cp, got } = await charger()
    await boot(cp)
    await setMode('timer')
    await until(() => profiles(got).length >= 2)
    const list = await timers()
    const late = list.find((t) => t.start_time.startsWith('22:00'))!
    const early = list.find((t) => t.start_time.startsWith('06:30'))!

    got.length = 0
    await api().patch(timerPath(late.id)).set(auth(admin)).send({ start_time: '21:00' }).expect(200)
    await until(() => profiles(got).length >= 1)
    expect([at(got[0], 2, '20:45'), at(got[0], 2, '21:00')]).toEqual([0, 15.9])

    got.length = 0
    await api().delete(timerPath(early.id)).set(auth(admin)).expect(204)
    await until(() => profiles(got).length >= 1)
    // Only the instant timer is left: full current all week.
    expect(limits(got[0])).toEqual([{ startPeriod: 0, limit: 15.9 }])

    // Offline: the new schedule waits for the charger and is sent when it is back.
    await cp.close({ force: true })
    await until(() => !app.ocpp!.isConnected(CP))
    const created = await api().post('/api/cockpit/installations/1/timers/').set(auth(admin)).send({
      object_type: 'charging_station', object_id: station7, repeat_monday: true, repeat_tuesday: false, repeat_wednesday: false, repeat_thursday: false,
      repeat_friday: false, repeat_saturday: false, repeat_sunday: false, start_time: '08:00', description: 'OCPP test', charging_mode: 'locked',
    }).expect(201)
    const again = await charger()
    await again.cp.call('Heartbeat', {})
    await until(() => profiles(again.got).length >= 1)
    expect([at(again.got[0], 0, '07:45'), at(again.got[0], 0, '08:00'), at(again.got[0], 0, '20:45'), at(again.got[0], 0, '21:00'), at(again.got[0], 1, '08:00')]).toEqual([15.9, 0, 0, 15.9, 15.9])

    // Outside timer mode a timer change sends nothing.
    await setMode('instant')
    await until(() => profiles(again.got).length >= 2)
    again.got.length = 0
    await api().delete(timerPath(created.body.id)).set(auth(admin)).expect(204)
    await new Promise((r) => setTimeout(r, 300))
    expect(profiles(again.got)).toEqual([])
  })
})
