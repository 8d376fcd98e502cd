import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import request from 'supertest'
import { AT, auth, demoCarAt, HOURS, login, startApp, startSimulatedAt } from './helpers.ts'
import { transactionFeeRappen } from '../../shared/rules/card-fees.ts'
import { computeZevReport } from '../../server/domain/zev/service.ts'

let app: FastifyInstance
beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api', 'simulator'] }))
})
afterAll(async () => app?.close())

const mainMeter = async () => (await app.domain!.db.selectFrom('meters').select('id').where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()).id

describe('simulator start', () => {
  it('backfills the last 30 days at 15-minute resolution once, with charging sessions', async () => {
    await app.simulator!.start()
    await app.simulator!.stop()
    const db = app.domain!.db
    const id = await mainMeter()
    const buckets = await db.selectFrom('measurements_15m').select((eb) => eb.fn.countAll<number>().as('n')).where('meter_id', '=', id).executeTakeFirstOrThrow()
    // 30 days of 96 buckets, plus the live bucket the first step opened.
    expect(Number(buckets.n)).toBeGreaterThanOrEqual(30 * 96 - 1)
    expect(Number(buckets.n)).toBeLessThanOrEqual(30 * 96 + 2)
    const sessions = await db.selectFrom('charging_sessions').select(['status', 'energy_kwh', 'price_rappen', 'high_kwh', 'low_kwh']).where('end', 'is not', null).execute()
    expect(sessions.length).toBeGreaterThan(30)
    for (const s of sessions) {
      expect(s.energy_kwh).toBeCloseTo(s.high_kwh + s.low_kwh, 6)
      expect(s.price_rappen).toBeGreaterThan(0)
    }
    expect(new Set(sessions.map((s) => s.status))).toEqual(new Set(['paid', 'unpaid']))
    // The demo's second installation (Demo Office Bern) is simulated too, with its own sessions.
    const bern = await db.selectFrom('charging_sessions').innerJoin('installations', 'installations.id', 'charging_sessions.installation_id')
      .select('charging_sessions.station_id').where('installations.name', '=', 'Demo Office Bern').execute()
    expect(bern.length).toBeGreaterThan(5)
    // Each flat's electricity meter has its own measurements, so yesterday's ZEV report bills
    // every flat on its own consumption, with no interval missing.
    const flats = await db.selectFrom('meters').select('id').where('meter_type', '=', 'power').execute()
    expect(flats).toHaveLength(6)
    const yesterday = new Date(Math.floor(app.clock.ms() / 86_400_000) * 86_400_000 - 86_400_000)
    const zev = await computeZevReport(db, 1, 'UTC', yesterday, new Date(yesterday.getTime() + 86_400_000), app.clock.now())
    expect(zev.summary).toMatchObject({ expected_intervals: 96, missing_intervals: 0 })
    const apartments = zev.rows.filter((r) => r.kind === 'apartment')
    expect(apartments.map((r) => r.name)).toEqual(['Apartment 1', 'Apartment 2', 'Apartment 3', 'Apartment 4', 'Apartment 5', 'Apartment 6'])
    for (const r of apartments) expect(r.consumption_kwh).toBeGreaterThan(2)
    expect(new Set(apartments.map((r) => r.consumption_kwh)).size).toBe(6)
    // A second start fills only the gap: nothing is duplicated.
    await app.simulator!.start()
    await app.simulator!.stop()
    const again = await db.selectFrom('measurements_15m').select((eb) => eb.fn.countAll<number>().as('n')).where('meter_id', '=', id).executeTakeFirstOrThrow()
    expect(Number(again.n) - Number(buckets.n)).toBeLessThanOrEqual(1)
    // 30 days of two installations: 35 s measured on a shared machine (load 20 on 2 cores).
  }, 120_000)
})

describe('payment history', () => {
  it('is paid through the payment job: every paid session has its card fee and a charge row, none without a user', async () => {
    const db = app.domain!.db
    const sessions = await db.selectFrom('charging_sessions').selectAll().where('end', 'is not', null).execute()
    const paid = sessions.filter((s) => s.status === 'paid')
    expect(paid.length).toBeGreaterThan(3)
    const charges = await db.selectFrom('payment_charges').selectAll().where('purpose', '=', 'session').execute()
    const methods = await db.selectFrom('payment_methods').selectAll().execute()
    for (const s of paid) {
      expect(s.user_id, `session ${s.id} paid without a user`).not.toBeNull()
      const ok = charges.filter((c) => c.session_id === s.id && c.status === 'succeeded')
      expect(ok, `session ${s.id}: one successful charge`).toHaveLength(1)
      const method = methods.find((m) => m.id === ok[0].payment_method_id)!
      // SPEC §9 card fee on the price (the resident's demo card is a credit card: 2.5 % + CHF 0.10).
      expect(s.fee_rappen).toBe(transactionFeeRappen(method.kind, s.price_rappen))
      expect(s.fee_rappen).toBeGreaterThan(0)
      expect([ok[0].amount_rappen, ok[0].fee_rappen]).toEqual([s.price_rappen, s.fee_rappen])
      expect(s.paid_on!.getTime()).toBeGreaterThanOrEqual(s.end!.getTime())
      expect(s.paid_on!.getTime() - s.end!.getTime()).toBeLessThanOrEqual(15 * 60_000)
    }
    // A session nobody can be charged for (a guest, a card without a user) keeps its QR-bill: unpaid.
    expect(sessions.filter((s) => s.user_id === null).every((s) => s.status === 'unpaid' && s.fee_rappen === 0)).toBe(true)
    // The monthly app fee: once per month of the window for the resident, paid with its charge.
    const resident = await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()
    const fees = await db.selectFrom('app_fees').selectAll().where('user_id', '=', resident.id).orderBy('month').execute()
    expect(fees.length).toBeGreaterThanOrEqual(2)
    expect(new Set(fees.map((f) => f.month)).size).toBe(fees.length)
    for (const f of fees) expect(f).toMatchObject({ amount_rappen: 500, fee_rappen: 23, status: 'paid' })
  })
})

describe('measurements', () => {
  it('keep 15-minute aggregates up to date as readings arrive, and thinning keeps them', async () => {
    const db = app.domain!.db
    const id = await mainMeter()
    const bucket = new Date('2026-01-10T10:00:00Z')
    const readings = [0, 5, 10].map((s) => ({ meter_id: id, ts: new Date(bucket.getTime() + s * 1000), power_kw: 3.6, energy_in_kwh: 0.005 }))
    await app.domain!.measurements.record(readings.slice(0, 2))
    await app.domain!.measurements.record(readings.slice(2))
    const agg = await db.selectFrom('measurements_15m').selectAll().where('meter_id', '=', id).where('bucket', '=', bucket).executeTakeFirstOrThrow()
    expect(agg.samples).toBe(3)
    expect(agg.energy_in_kwh).toBeCloseTo(0.015, 9)
    const deleted = await app.domain!.measurements.thin(new Date('2026-01-11T00:00:00Z'))
    expect(deleted).toBeGreaterThanOrEqual(3)
    const raw = await db.selectFrom('measurements').select(sql<number>`count(*)`.as('n')).where('ts', '<', new Date('2026-01-11T00:00:00Z')).executeTakeFirstOrThrow()
    expect(Number(raw.n)).toBe(0)
    const kept = await db.selectFrom('measurements_15m').selectAll().where('meter_id', '=', id).where('bucket', '=', bucket).executeTakeFirstOrThrow()
    expect(kept.energy_in_kwh).toBeCloseTo(0.015, 9)
  })

  it('a charging-mode change reaches the simulated station at the next step', async () => {
    const admin = await app.domain!.auth.login('admin@example.com', 'Cockpit-2026!')
    const actor = await app.domain!.auth.verify(admin.access)
    await app.domain!.stations.update(actor, 1, 1, { charging_mode: 'locked' })
    await app.simulator!.tick(app.clock.now())
    const s = await app.domain!.stations.get(actor, 1, 1)
    expect(s).toMatchObject({ status: 'off', power_kw: 0, charging_mode: 'locked' })
  })
})

/** Apps on a test clock at a chosen instant, each with a simulator of its own (helpers.ts startSimulatedAt). */
const hourApps: { close(): Promise<void> }[] = []
async function simulatedAt(at: string, backfillDays = 0) {
  const started = await startSimulatedAt(at, { backfillDays })
  hourApps.push(started)
  return started.app
}
afterAll(async () => {
  for (const h of hourApps) await h.close()
})

const zurich = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Zurich', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })

// SPEC §9: the demo's PV follows the sun at the installation, residents' cars come home in the evening.
describe.each(HOURS)('the demo at %s (Wednesday 4 March 2026, Zürich)', (hour) => {
  it('shows PV and the residents\' cars as the simulator\'s physics has them at that hour', async () => {
    const a = await simulatedAt(AT[hour])
    const db = a.domain!.db
    const pv = await db.selectFrom('meters').select('id').where('installation_id', '=', 1).where('meter_type', '=', 'pv').executeTakeFirstOrThrow()
    const last = await db.selectFrom('measurements').select(['ts', 'power_kw']).where('meter_id', '=', pv.id).orderBy('ts', 'desc').executeTakeFirstOrThrow()
    expect(Math.abs(last.ts.getTime() - Date.parse(AT[hour]))).toBeLessThan(60_000)
    // The sun rises at about 07:00 and sets at about 18:15 on 4 March in Zürich.
    if (hour === 'morning') expect(last.power_kw).toBeGreaterThan(0.5)
    else expect(last.power_kw).toBe(0)
    const token = await login(a, 'admin@example.com')
    const list = (await request(a.server).get('/api/cockpit/installations/1/charging_stations/').set(auth(token)).expect(200)).body.results as { name: string; status: string; charging_mode: string }[]
    const demo = list.filter((st) => /^Station \d$/.test(st.name))
    expect(demo).toHaveLength(6)
    const withCar = demo.map((st) => ['carPluggedIn', 'charging', 'notBadgedIn'].includes(st.status))
    const expected = demo.map((_, i) => demoCarAt(i, AT[hour]))
    // Station 6 is seeded locked: whoever is plugged in, it shows off.
    expect(withCar.slice(0, 5)).toEqual(expected.slice(0, 5))
    // With the suite's seed the residents' cars stay overnight, have left by 09:00 and are back by 21:00
    // (all but station 5's).
    expect(withCar.slice(0, 5)).toEqual({ night: [true, true, true, true, true], morning: [false, false, false, false, false], evening: [true, true, true, true, false] }[hour])
  }, 120_000)
})

// ARCHITECTURE §1 "Time": measurements_15m buckets are UTC quarter hours, so a local day has 92 of them
// on the spring change (02:00 → 03:00) and 100 on the autumn change (03:00 → 02:00, the hour repeats).
describe('the backfill across a daylight-saving change', () => {
  const dayBuckets = async (a: FastifyInstance, from: string, to: string) => {
    const db = a.domain!.db
    const id = (await db.selectFrom('meters').select('id').where('installation_id', '=', 1).where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()).id
    return (await db.selectFrom('measurements_15m').select('bucket').where('meter_id', '=', id).where('bucket', '>=', new Date(from)).where('bucket', '<', new Date(to)).orderBy('bucket').execute()).map((r) => r.bucket.getTime())
  }

  it('spring: the 23-hour day has every quarter hour once, none missing and none doubled', async () => {
    const a = await simulatedAt('2026-03-30T06:00:00+02:00', 2)
    const buckets = await dayBuckets(a, '2026-03-29T00:00:00+01:00', '2026-03-30T00:00:00+02:00')
    expect(buckets).toHaveLength(92)
    expect(new Set(buckets).size).toBe(92)
    for (let i = 1; i < buckets.length; i++) expect(buckets[i] - buckets[i - 1]).toBe(15 * 60_000)
    // Local time goes from 01:45 straight to 03:00.
    const local = buckets.map((b) => zurich.format(new Date(b)).slice(-5))
    expect(local.slice(6, 10)).toEqual(['01:30', '01:45', '03:00', '03:15'])
    expect(local.filter((l) => l.startsWith('02:'))).toEqual([])
  }, 120_000)

  it('autumn: the 25-hour day stores the repeated hour twice, 100 quarter hours', async () => {
    const a = await simulatedAt('2026-10-26T06:00:00+01:00', 2)
    const buckets = await dayBuckets(a, '2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00')
    expect(buckets).toHaveLength(100)
    expect(new Set(buckets).size).toBe(100)
    for (let i = 1; i < buckets.length; i++) expect(buckets[i] - buckets[i - 1]).toBe(15 * 60_000)
    const local = buckets.map((b) => zurich.format(new Date(b)).slice(-5))
    expect(local.filter((l) => l.startsWith('02:'))).toEqual(['02:00', '02:15', '02:30', '02:45', '02:00', '02:15', '02:30', '02:45'])
  }, 120_000)
})
