import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { answerOnClock, connectChargePoint, PASSWORD, sleep, startApp, until, type ChargePoint } from './helpers.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'
import { priceRappen } from '../../server/domain/sessions/service.ts'

// docs/decisions.md "Charging: energy split at tariff changes": a session's energy is split into high and
// low tariff by interpolating between its register readings (start, meter values, stop) over time. The
// demo's high tariff runs 07:00–20:00 local on weekdays; the test clock starts on a Wednesday at 19:30 in
// winter time (Europe/Zurich, +01:00), half an hour before the change to low tariff.
let app: FastifyInstance
let url: string
let clock: TestClock
const CP = 'DEMO-CP-1'
const CARD = '04A1B2C3D4E501'
const open: ChargePoint[] = []
type Received = { method: string; params: any }

beforeAll(async () => {
  clock = createTestClock('2026-03-04T19:30:00+01:00')
  ;({ app, url } = await startApp({ roles: ['api', 'ocpp'], clock }))
})
afterEach(async () => {
  for (const cp of open.splice(0)) await cp.close({ force: true })
})
afterAll(async () => app?.close())

const iso = () => clock.now().toISOString()
/** Wait for an answer that needs the meter batch (a timer on the test clock). */
const answer = <T>(p: Promise<T>) => answerOnClock(clock, p)
async function charger(): Promise<{ cp: ChargePoint; got: Received[] }> {
  const cp = await connectChargePoint(url, CP, PASSWORD)
  open.push(cp)
  const got: Received[] = []
  for (const method of ['SetChargingProfile', 'ChangeConfiguration', 'TriggerMessage']) {
    cp.handle(method, async ({ params }: { params?: unknown }) => {
      got.push({ method, params })
      return { status: 'Accepted' }
    })
  }
  await cp.call('BootNotification', { chargePointVendor: 'Other', chargePointModel: 'Box' })
  return { cp, got }
}
const sessionOf = async (transactionId: number) =>
  app.domain!.db.selectFrom('ocpp_transactions as t').innerJoin('charging_sessions as s', 's.id', 't.session_id')
    .select(['s.start', 's.energy_kwh', 's.high_kwh', 's.low_kwh', 's.price_rappen']).where('t.id', '=', transactionId).executeTakeFirstOrThrow()
const start = async (cp: ChargePoint, meterStart: number, timestamp = iso()) =>
  ((await cp.call('StartTransaction', { connectorId: 1, idTag: CARD, meterStart, timestamp })) as { transactionId: number }).transactionId

describe('energy split at tariff changes', () => {
  it('asks the charger at boot for meter values every 5 minutes and on every quarter hour', async () => {
    const { got } = await charger()
    const config = () => got.filter((g) => g.method === 'ChangeConfiguration').map((g) => g.params)
    await until(() => config().some((c) => c.key === 'ClockAlignedDataInterval'), 5000, 'ChangeConfiguration')
    expect(config()).toEqual(expect.arrayContaining([{ key: 'MeterValueSampleInterval', value: '300' }, { key: 'ClockAlignedDataInterval', value: '900' }]))
  })

  it('splits a session over 20:00 without meter values by time: half high, half low, not all at the stop time\'s tariff', async () => {
    const { cp } = await charger()
    clock.set(new Date('2026-03-04T19:30:00+01:00'))
    const tx = await start(cp, 100_000)
    await clock.advance(3600_000)
    await answer(cp.call('StopTransaction', { transactionId: tx, meterStop: 110_000, timestamp: iso(), reason: 'Local' }))
    const s = await sessionOf(tx)
    expect(s.energy_kwh).toBeCloseTo(10, 9)
    expect(s.high_kwh).toBeCloseTo(5, 9)
    expect(s.low_kwh).toBeCloseTo(5, 9)
    const tariff = await app.domain!.tariffs.inForce(1, s.start, 'Europe/Zurich')
    expect(s.price_rappen).toBe(priceRappen(s.high_kwh, s.low_kwh, tariff))
  })

  it('takes a clock-aligned reading at 20:00 as the exact split, and splits between readings by time', async () => {
    const { cp } = await charger()
    // The charger stamps its readings on the minute (the clock moves a little more while answers are awaited).
    const base = Date.parse('2026-03-05T19:00:00+01:00')
    const at = (min: number) => new Date(base + min * 60_000).toISOString()
    clock.set(new Date(base))
    const tx = await start(cp, 200_000, at(0))
    // 19:00–19:45: 3 kWh, all high.
    await clock.advance(45 * 60_000)
    await answer(cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [{ timestamp: at(45), sampledValue: [{ value: '203000', measurand: 'Energy.Active.Import.Register', unit: 'Wh', context: 'Sample.Periodic' }] }] }))
    // 19:45–20:00 (clock-aligned): 1 kWh, all high.
    await clock.advance(15 * 60_000)
    await answer(cp.call('MeterValues', { connectorId: 1, transactionId: tx, meterValue: [{ timestamp: at(60), sampledValue: [{ value: '204000', measurand: 'Energy.Active.Import.Register', unit: 'Wh', context: 'Sample.Clock' }] }] }))
    // 20:00–21:00: 3 kWh, all low.
    await clock.advance(60 * 60_000)
    await answer(cp.call('StopTransaction', { transactionId: tx, meterStop: 207_000, timestamp: at(120), reason: 'EVDisconnected' }))
    const s = await sessionOf(tx)
    expect(s.high_kwh).toBeCloseTo(4, 9)
    expect(s.low_kwh).toBeCloseTo(3, 9)
  })
})
