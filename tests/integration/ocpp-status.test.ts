import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { AT, auth, connectChargePoint, login, PASSWORD, startApp, until, type ChargePoint, stationOfChargePoint } from './helpers.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'

// A station shows what its charger reports (OCPP 1.6 §4.9 StatusNotification): asked again when the charger
// is back (§5.17 TriggerMessage), not overwritten by a mode change, and a fault of connector 0 (the charge
// point itself) lasting only while connector 0 reports it. The app runs on a test clock.
let app: FastifyInstance
let url: string
let clock: TestClock
let admin: string
let station7: number
const CP = 'DEMO-CP-1'
const open: ChargePoint[] = []
type Received = { method: string; params: any }

beforeAll(async () => {
  clock = createTestClock(AT.morning)
  ;({ app, url } = await startApp({ roles: ['api', 'ocpp'], clock, ocpp: { heartbeatSeconds: 30 } }))
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
const stationPath = () => `/api/cockpit/installations/1/charging_stations/${station7}`
const station = async () => (await api().get(stationPath()).set(auth(admin)).expect(200)).body
/** A charger that answers every command and keeps them; asked for its status, it reports `status()`. */
async function charger(status: () => string): Promise<{ cp: ChargePoint; got: Received[] }> {
  await clock.advance(1000)
  const cp = await connectChargePoint(url, CP, PASSWORD)
  open.push(cp)
  const got: Received[] = []
  for (const method of ['SetChargingProfile', 'ChangeConfiguration', 'RemoteStartTransaction', 'RemoteStopTransaction']) {
    cp.handle(method, async ({ params }: { params?: unknown }) => {
      got.push({ method, params })
      return { status: 'Accepted' }
    })
  }
  // OCPP 1.6 §5.2: a connector with a transaction running answers Scheduled and keeps charging.
  cp.handle('ChangeAvailability', async ({ params }: { params?: unknown }) => {
    got.push({ method: 'ChangeAvailability', params })
    return { status: status() === 'Charging' ? 'Scheduled' : 'Accepted' }
  })
  cp.handle('TriggerMessage', async ({ params }: { params?: unknown }) => {
    got.push({ method: 'TriggerMessage', params })
    // The notification follows the answer (OCPP 1.6 §5.17).
    setImmediate(() => void cp.call('StatusNotification', { connectorId: 1, status: status(), errorCode: 'NoError' }).catch(() => undefined))
    return { status: 'Accepted' }
  })
  return { cp, got }
}
const notify = (cp: ChargePoint, status: string, connectorId = 1, errorCode = 'NoError') => cp.call('StatusNotification', { connectorId, status, errorCode })

describe('a charger back after silence', () => {
  it('is asked for its status (TriggerMessage) and shows it, instead of an error while it charges', async () => {
    let now = 'Charging'
    const first = await charger(() => now)
    await first.cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
    await notify(first.cp, 'Charging')
    expect((await station()).status).toBe('charging')
    // Silent for 2 heartbeat intervals: offline, status unknown (shown as an error).
    await first.cp.close({ force: true })
    await app.ocpp!.sweep(new Date(clock.ms() + 61_000))
    expect(await station()).toMatchObject({ status: 'unknown', status_code: 18 })
    await clock.advance(61_000)

    // Back without a StatusNotification of its own: a heartbeat, as many chargers do after a reconnect.
    now = 'Charging'
    const again = await charger(() => now)
    await again.cp.call('Heartbeat', {})
    await until(() => again.got.some((g) => g.method === 'TriggerMessage'), 5000, 'TriggerMessage')
    expect(again.got.find((g) => g.method === 'TriggerMessage')!.params).toEqual({ requestedMessage: 'StatusNotification' })
    const shown = await until(async () => {
      const s = await station()
      return s.status === 'charging' ? s : null
    }, 5000, 'charging shown')
    expect(shown).toMatchObject({ status: 'charging', status_code: 0 })
    expect(shown.alerts).not.toContain('offline')
  })
})

describe('a mode change', () => {
  it("leaves the charger's reported status: locking a charging station keeps it charging until the charger says otherwise, unlocking does not make it Ready", async () => {
    let now = 'Charging'
    const { cp, got } = await charger(() => now)
    await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
    await notify(cp, 'Charging')
    await api().patch(`${stationPath()}/`).set(auth(admin)).send({ charging_mode: 'locked' }).expect(200)
    await until(() => got.some((g) => g.method === 'ChangeAvailability'), 5000, 'ChangeAvailability')
    expect((await station()).status).toBe('charging')
    // Unlocked again while the car still charges: still charging, not "Ready" (noCar).
    await api().patch(`${stationPath()}/`).set(auth(admin)).send({ charging_mode: 'instant' }).expect(200)
    expect((await station()).status).toBe('charging')
    // The charger's word decides.
    now = 'Finishing'
    await notify(cp, 'Finishing')
    expect((await station()).status).toBe('carPluggedIn')
  })
})

describe('connector 0', () => {
  it('shows a fault of the charge point while connector 0 reports it, and the connector\'s own status when connector 0 is Available again', async () => {
    const { cp } = await charger(() => 'Available')
    await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
    await notify(cp, 'Preparing')
    await notify(cp, 'Faulted', 0, 'PowerSwitchFailure')
    const faulted = await station()
    expect(faulted).toMatchObject({ status: 'failure', status_code: 17 })
    expect(faulted.alerts).toEqual(['PowerSwitchFailure'])
    // The connector's own news does not hide the charge point's fault.
    await notify(cp, 'Available')
    expect((await station()).status).toBe('failure')
    await notify(cp, 'Available', 0)
    const cleared = await station()
    expect(cleared).toMatchObject({ status: 'noCar', status_code: 0 })
    expect(cleared.alerts).toEqual([])
    // The binding shows the bound connector's status.
    expect((await api().get(`${stationPath()}/ocpp`).set(auth(admin)).expect(200)).body.last_status).toBe('Available')
  })
})
