import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, AT, auth, HOURS, login, startApp } from './helpers.ts'
import { createTestClock } from '../../server/lib/clock.ts'
import { localDate, periodRange } from '../../shared/rules/granularity.ts'
import { isHighTariff, type ScheduleEntry } from '../../shared/rules/tariff.ts'

/**
 * Statistics against 15-minute aggregates written by the test, so every expected figure is
 * computed here independently of the SQL: sums of the stored rows over installation-local periods.
 */
let app: FastifyInstance
let other: Awaited<ReturnType<typeof addOtherInstallation>>
let tokens: Record<'super' | 'admin' | 'user' | 'bern', string>
let meters: Record<string, number>
let stations: { id: number; meter_id: number }[]
const INST = 1
const Q = 15 * 60_000
/** Stored rows by meter: bucket (ms) → energy_in (kWh) / volume (m3). */
const stored = new Map<number, Map<number, number>>()
// The app's clock stands still unless a test moves it: "today" is the local day of the instant chosen.
const clock = createTestClock(AT.morning)

// A deterministic but irregular value per bucket, different per meter.
const valueAt = (i: number, salt: number) => Math.round((((i * 7 + salt * 3) % 13) / 10 + salt / 100) * 1000) / 1000

async function writeAggregates(meterId: number, from: string, to: string, salt: number, field: 'energy_in_kwh' | 'volume_m3' = 'energy_in_kwh') {
  const rows = []
  const m = stored.get(meterId) ?? new Map<number, number>()
  stored.set(meterId, m)
  for (let t = Date.parse(from), i = 0; t < Date.parse(to); t += Q, i++) {
    const v = valueAt(i, salt)
    m.set(t, v)
    rows.push({ meter_id: meterId, bucket: new Date(t), energy_in_kwh: field === 'energy_in_kwh' ? v : 0, energy_out_kwh: 0, volume_m3: field === 'volume_m3' ? v : 0, power_sum: v * 4, samples: 1, soc_last: null })
  }
  for (let i = 0; i < rows.length; i += 4000) await app.domain!.db.insertInto('measurements_15m').values(rows.slice(i, i + 4000)).execute()
}

const storedSum = (meterId: number, start: string, end: string) => {
  let s = 0
  for (const [t, v] of stored.get(meterId) ?? []) if (t >= Date.parse(start) && t < Date.parse(end)) s += v
  return s
}

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock }))
  other = await addOtherInstallation(app)
  const db = app.domain!.db
  const rows = await db.selectFrom('meters').select(['id', 'meter_type', 'name']).where('installation_id', '=', INST).orderBy('id').execute()
  meters = Object.fromEntries(rows.map((r) => [r.name, r.id]))
  stations = await db.selectFrom('charging_stations').select(['id', 'meter_id']).where('installation_id', '=', INST).orderBy('id').execute()
  // The whole of 2025 for the main meter; a DST week and a day for PV, stations, heat and water.
  await writeAggregates(meters['Main power connection'], '2024-12-31T23:00:00Z', '2026-01-01T00:00:00Z', 1)
  for (const [name, salt] of [['PV roof 30 kWp', 2], ['Charging station 1', 3], ['Charging station 3', 4], ['Heat apartment 1', 5]] as const) {
    await writeAggregates(meters[name], '2025-10-19T22:00:00Z', '2025-10-27T00:00:00Z', salt)
  }
  await writeAggregates(meters['Cold water apartment 1'], '2025-10-19T22:00:00Z', '2025-10-27T00:00:00Z', 6, 'volume_m3')
  tokens = {
    super: await login(app, 'super@example.com'),
    admin: await login(app, 'admin@example.com'),
    user: await login(app, 'user@example.com'),
    bern: await login(app, other.adminEmail),
  }
})
afterAll(async () => app?.close())

const api = () => request(app.server)
const get = (path: string, token = tokens.admin, lang = 'en') => api().get(`/api/statistics/${INST}${path}`).set(auth(token)).set('Accept-Language', lang)
const sumOf = (b: { value: number }[]) => b.reduce((a, x) => a + x.value, 0)

describe('GET /api/statistics/{installation_id}: totals equal the stored measurements', () => {
  const main = () => meters['Main power connection']

  it('a day: 24 hourly buckets from local midnight that add up to /totals', async () => {
    const q = '?start=2025-06-15&end=2025-06-16&granularity=hour'
    const r = await get(q).expect(200)
    expect(r.body.units.grid_import).toBe('kWh')
    expect(r.body.series.grid_import).toHaveLength(24)
    expect(r.body.series.grid_import[0].start).toBe('2025-06-15T00:00:00+02:00')
    expect(r.body.series.grid_import[23].start).toBe('2025-06-15T23:00:00+02:00')
    const t = await get(`/totals${q}`).expect(200)
    const expected = storedSum(main(), '2025-06-14T22:00:00Z', '2025-06-15T22:00:00Z')
    expect(t.body.series.grid_import).toBeCloseTo(expected, 3)
    expect(sumOf(r.body.series.grid_import)).toBeCloseTo(t.body.series.grid_import, 3)
    // Every bucket is exactly the four quarter hours of that local hour.
    const h5 = Date.parse('2025-06-15T05:00:00+02:00')
    expect(r.body.series.grid_import[5].value).toBeCloseTo(storedSum(main(), new Date(h5).toISOString(), new Date(h5 + 3_600_000).toISOString()), 3)
  })

  it('DST days have 23 and 25 hourly buckets, the repeated hour labelled with both offsets', async () => {
    const spring = await get('?start=2025-03-30&end=2025-03-31&granularity=hour').expect(200)
    expect(spring.body.series.grid_import).toHaveLength(23)
    expect(spring.body.series.grid_import.map((b: { start: string }) => b.start).slice(1, 3)).toEqual(['2025-03-30T01:00:00+01:00', '2025-03-30T03:00:00+02:00'])
    const autumn = await get('?start=2025-10-26&end=2025-10-27&granularity=hour').expect(200)
    expect(autumn.body.series.grid_import).toHaveLength(25)
    expect(autumn.body.series.grid_import.map((b: { start: string }) => b.start).slice(2, 4)).toEqual(['2025-10-26T02:00:00+02:00', '2025-10-26T02:00:00+01:00'])
    expect(sumOf(autumn.body.series.grid_import)).toBeCloseTo(storedSum(main(), '2025-10-25T22:00:00Z', '2025-10-26T23:00:00Z'), 3)
  })

  it('a week across the autumn DST change: 7 daily buckets, hourly ones add up to the totals', async () => {
    const range = 'start=2025-10-20T00:00:00%2B02:00&end=2025-10-27T00:00:00%2B01:00'
    const days = await get(`?${range}&granularity=day`).expect(200)
    expect(days.body.series.grid_import.map((b: { start: string }) => b.start)).toEqual([
      '2025-10-20T00:00:00+02:00', '2025-10-21T00:00:00+02:00', '2025-10-22T00:00:00+02:00', '2025-10-23T00:00:00+02:00',
      '2025-10-24T00:00:00+02:00', '2025-10-25T00:00:00+02:00', '2025-10-26T00:00:00+02:00',
    ])
    const hours = await get(`?${range}&granularity=hour`).expect(200)
    expect(hours.body.series.grid_import).toHaveLength(7 * 24 + 1)
    const totals = await get(`/totals?${range}`).expect(200)
    for (const [series, meter] of [['grid_import', 'Main power connection'], ['pv_production', 'PV roof 30 kWp'], ['heat', 'Heat apartment 1'], ['cold_water', 'Cold water apartment 1']] as const) {
      const expected = storedSum(meters[meter], '2025-10-19T22:00:00Z', '2025-10-26T23:00:00Z')
      expect(totals.body.series[series]).toBeCloseTo(expected, 3)
      expect(sumOf(hours.body.series[series])).toBeCloseTo(expected, 3)
      expect(sumOf(days.body.series[series])).toBeCloseTo(expected, 3)
    }
    const st = storedSum(stations[0].meter_id, '2025-10-19T22:00:00Z', '2025-10-26T23:00:00Z') + storedSum(stations[2].meter_id, '2025-10-19T22:00:00Z', '2025-10-26T23:00:00Z')
    expect(totals.body.series.charging_stations).toBeCloseTo(st, 3)
    expect(totals.body.units).toMatchObject({ cold_water: 'm3', heat: 'kWh', cost: 'CHF' })
  })

  it('a month (31 daily buckets) and a year (12 monthly buckets)', async () => {
    const month = await get('?start=2025-10-01&end=2025-11-01&granularity=day').expect(200)
    expect(month.body.series.grid_import).toHaveLength(31)
    expect(sumOf(month.body.series.grid_import)).toBeCloseTo(storedSum(main(), '2025-09-30T22:00:00Z', '2025-10-31T23:00:00Z'), 3)
    const year = await get('?start=2025-01-01&end=2026-01-01&granularity=month').expect(200)
    expect(year.body.series.grid_import.map((b: { start: string }) => b.start.slice(0, 7))).toEqual(
      Array.from({ length: 12 }, (_, i) => `2025-${String(i + 1).padStart(2, '0')}`),
    )
    expect(year.body.series.grid_import[3].start).toBe('2025-04-01T00:00:00+02:00')
    const yearTotals = await get('/totals?start=2025-01-01&end=2026-01-01&granularity=month').expect(200)
    const expected = storedSum(main(), '2024-12-31T23:00:00Z', '2025-12-31T23:00:00Z')
    expect(yearTotals.body.series.grid_import).toBeCloseTo(expected, 2)
    expect(sumOf(year.body.series.grid_import)).toBeCloseTo(expected, 2)
    // Empty buckets are 0, not missing.
    expect(year.body.series.pv_production.filter((b: { value: number }) => b.value === 0)).toHaveLength(11)
  })

  it('prices grid energy at the power rate\'s purchase price, the price the ZEV passes it on at (cost in CHF)', async () => {
    // docs/zev-method.md price table: bought grid energy costs main_power_purchase (seeded 24.0 Rp/kWh),
    // not the charging tariff, which prices charging sessions (and station costs) only.
    let rappen = 0
    const from = Date.parse('2025-10-24T00:00:00+02:00')
    for (let t = from; t < from + 3 * 86_400_000 + 3_600_000; t += Q) rappen += stored.get(main())!.get(t)! * 24.0
    const r = await get('/totals?start=2025-10-24&end=2025-10-27').expect(200)
    expect(r.body.series.cost).toBeCloseTo(rappen / 100, 2)
  })

  it('prices a station\'s energy with the charging tariff schedule in local time, as its sessions are billed', async () => {
    const tariff = await app.domain!.db.selectFrom('tariffs').selectAll().where('installation_id', '=', INST).executeTakeFirstOrThrow()
    const schedule = tariff.schedule as ScheduleEntry[]
    let rappen = 0
    const s1 = stored.get(stations[0].meter_id)!
    const from = Date.parse('2025-10-24T00:00:00+02:00')
    for (let t = from; t < from + 3 * 86_400_000 + 3_600_000; t += Q) {
      const local = new Date(t + (t < Date.parse('2025-10-26T01:00:00Z') ? 2 : 1) * 3_600_000)
      const high = isHighTariff(schedule, (local.getUTCDay() + 6) % 7, local.getUTCHours() * 60 + local.getUTCMinutes())
      rappen += (s1.get(t) ?? 0) * (high ? tariff.high_rappen_per_kwh : tariff.low_rappen_per_kwh)
    }
    const r = await get(`/charging_station/${stations[0].id}?start=2025-10-24&end=2025-10-27&granularity=day`).expect(200)
    expect(sumOf(r.body.series.cost)).toBeCloseTo(rappen / 100, 2)
  })
})

describe('statistics sub-paths', () => {
  const range = '?start=2025-10-20&end=2025-10-27&granularity=day'
  it('per station, one station, heat and water of an object, flow and battery states', async () => {
    const per = await get(`/object/charging_stations${range}`).expect(200)
    expect(Object.keys(per.body.series)).toHaveLength(7)
    expect(sumOf(per.body.series[`station_${stations[0].id}`])).toBeCloseTo(storedSum(stations[0].meter_id, '2025-10-19T22:00:00Z', '2025-10-26T23:00:00Z'), 3)
    const one = await get(`/charging_station/${stations[2].id}${range}`).expect(200)
    expect(sumOf(one.body.series.charging_stations)).toBeCloseTo(storedSum(stations[2].meter_id, '2025-10-19T22:00:00Z', '2025-10-26T23:00:00Z'), 3)
    const apartment1 = (await app.domain!.db.selectFrom('objects').select('id').where('description', '=', 'Apartment 1').executeTakeFirstOrThrow()).id
    const apartment2 = apartment1 + 1
    const heat = await get(`/heat/${apartment1}${range}`).expect(200)
    expect(sumOf(heat.body.series.heat)).toBeCloseTo(storedSum(meters['Heat apartment 1'], '2025-10-19T22:00:00Z', '2025-10-26T23:00:00Z'), 3)
    expect(sumOf((await get(`/heat/${apartment2}${range}`).expect(200)).body.series.heat)).toBe(0)
    const water = await get(`/water/${apartment1}${range}`).expect(200)
    expect(water.body.units).toEqual({ cold_water: 'm3', hot_water: 'm3' })
    expect(sumOf(water.body.series.cold_water)).toBeGreaterThan(0)
    const flow = await get('/flow?start=2025-06-15&end=2025-06-16&granularity=hour').expect(200)
    // An hour's average power (kW) equals its energy (kWh).
    const energy = await get('?start=2025-06-15&end=2025-06-16&granularity=hour').expect(200)
    expect(flow.body.units.grid_flow).toBe('kW')
    expect(flow.body.series.grid_flow[7].value).toBeCloseTo(energy.body.series.grid_import[7].value, 3)
    const soc = await get(`/battery/states${range}`).expect(200)
    expect(soc.body.units.battery_soc).toBe('%')
    expect((await get('/electrical' + range).expect(200)).body.series.consumption).toHaveLength(7)
  })
})

describe('GET …/zev: the ZEV allocation matches one computed here', () => {
  it('allocates each interval by consumption; station energy is left to its sessions', async () => {
    const r = await get('/zev?start=2025-10-20&end=2025-10-27&granularity=day').expect(200)
    const main = stored.get(meters['Main power connection'])!
    const pv = stored.get(meters['PV roof 30 kWp'])!
    const s1 = stored.get(stations[0].meter_id)!
    const s3 = stored.get(meters['Charging station 3'])!
    const from = Date.parse('2025-10-20T00:00:00+02:00')
    const to = Date.parse('2025-10-27T00:00:00+01:00')
    let cons = 0, pvPart = 0
    for (let t = from; t < to; t += Q) {
      const c = s1.get(t) ?? 0
      const supply = (main.get(t) ?? 0) + (pv.get(t) ?? 0)
      // docs/zev-method.md: a source is shared by consumption, over the supply or, where the
      // participants' meters measured more than was supplied (as these made-up figures do), over that.
      const demand = Math.max(supply, c + (s3.get(t) ?? 0))
      if (!(c > 0)) continue
      cons += c
      pvPart += (c * (pv.get(t) ?? 0)) / demand
    }
    const unit = r.body.allocation.find((a: { unit: string }) => a.unit === `station_${stations[0].id}`)
    expect(unit).toMatchObject({ name: 'Station 1' })
    expect(unit.consumption_kwh).toBeCloseTo(cons, 3)
    expect(unit.pv_kwh).toBeCloseTo(pvPart, 3)
    // Billed per charging session at the charging tariff, so the ZEV bills none of it.
    expect(unit).toMatchObject({ billed_by_sessions: true, cost_chf: 0 })
    const all = r.body.allocation.reduce((a: number, x: { consumption_kwh: number }) => a + x.consumption_kwh, 0)
    expect(all).toBeGreaterThanOrEqual(sumOf(r.body.series.consumption) - 0.01)
    expect(r.body.series.consumption).toHaveLength(7)

    await get('/zev?start=2025-10-20&end=2025-10-27', tokens.user).expect(403)
    const db = app.domain!.db
    const userId = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
    const [perm] = await db.insertInto('permissions').values({ user_id: userId, installation_id: INST, object_type: 'charging_station', object_id: 0, level: 'read', cost: false, overview: true }).returning('id').execute()
    const noCost = await get('/zev?start=2025-10-20&end=2025-10-27', tokens.user).expect(200)
    expect(noCost.body.allocation.length).toBeGreaterThan(0)
    for (const a of noCost.body.allocation) expect(a).not.toHaveProperty('cost_chf')
    expect(noCost.body.zev.total).not.toHaveProperty('cost_chf')
    expect(noCost.body.zev).not.toHaveProperty('feed_in_revenue_chf')
    await db.deleteFrom('permissions').where('id', '=', perm.id).execute()
    await get('/zev?start=2025-10-20&end=2025-10-27', tokens.bern).expect(403)
  })
})

describe('statistics: input and rights', () => {
  it('answers bad input with 400 in the caller language', async () => {
    const back = await get('?start=2025-10-27&end=2025-10-20').expect(400)
    expect(back.body).toEqual({ end: ['The end must be after the start.'] })
    const de = await get('?start=2025-10-27&end=2025-10-20', tokens.admin, 'de').expect(400)
    expect(de.body).toEqual({ end: ['Das Ende muss nach dem Beginn liegen.'] })
    expect((await get('?end=2025-10-20').expect(400)).body).toEqual({ start: ['The field is required.'] })
    expect((await get('?start=2025-10-20&end=2025-10-21&granularity=week').expect(400)).body.granularity).toHaveLength(1)
    expect((await get('?start=yesterday&end=2025-10-21').expect(400)).body.start).toEqual(['The value is not valid.'])
    expect((await get('?start=2020-01-01&end=2026-01-01&granularity=fifteen_minutes', tokens.admin, 'fr').expect(400)).body.granularity[0]).toMatch(/Trop d/)
    await api().get(`/api/statistics/${INST}?start=2025-10-20&end=2025-10-21`).expect(401)
  })

  it('superuser and admin see everything; other installations are refused; unknown is 404', async () => {
    const q = '/totals?start=2025-10-20&end=2025-10-27'
    const sup = await get(q, tokens.super).expect(200)
    const adm = await get(q, tokens.admin).expect(200)
    expect(sup.body.series).toEqual(adm.body.series)
    expect(adm.body.series).toHaveProperty('cost')
    await get(q, tokens.bern).expect(403)
    await api().get(`/api/statistics/${other.installationId}${q.slice(7)}`).set(auth(tokens.admin)).expect(403)
    await api().get(`/api/statistics/${other.installationId}/totals?start=2025-10-20&end=2025-10-27`).set(auth(tokens.bern)).expect(200)
    await api().get('/api/statistics/999/totals?start=2025-10-20&end=2025-10-27').set(auth(tokens.super)).expect(404)
  })

  it('a user without the overview switch sees only their stations; overview and cost switches widen it', async () => {
    const q = '/totals?start=2025-10-20&end=2025-10-27'
    const plain = await get(q, tokens.user).expect(200)
    expect(Object.keys(plain.body.series)).toEqual(['charging_stations'])
    // user@example.com reads stations 1 and 2 only: station 3's energy is not in their figure.
    expect(plain.body.series.charging_stations).toBeCloseTo(storedSum(stations[0].meter_id, '2025-10-19T22:00:00Z', '2025-10-26T23:00:00Z'), 3)
    await get(`/battery/states?start=2025-10-20&end=2025-10-27`, tokens.user).expect(403)
    await get(`/electrical?start=2025-10-20&end=2025-10-27`, tokens.user).expect(403)
    await get(`/charging_station/${stations[2].id}?start=2025-10-20&end=2025-10-27`, tokens.user).expect(403)
    const own = await get(`/charging_station/${stations[0].id}?start=2025-10-20&end=2025-10-27`, tokens.user).expect(200)
    expect(own.body.series).not.toHaveProperty('cost')
    const per = await get('/object/charging_stations?start=2025-10-20&end=2025-10-27', tokens.user).expect(200)
    expect(Object.keys(per.body.series).sort()).toEqual([`station_${stations[0].id}`, `station_${stations[1].id}`].sort())
    const apartment1 = (await app.domain!.db.selectFrom('objects').select('id').where('description', '=', 'Apartment 1').executeTakeFirstOrThrow()).id
    await get(`/heat/${apartment1}?start=2025-10-20&end=2025-10-27`, tokens.user).expect(403)

    const db = app.domain!.db
    const userId = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
    const [perm] = await db.insertInto('permissions').values({ user_id: userId, installation_id: INST, object_type: 'object', object_id: apartment1, level: 'read', cost: false, overview: true }).returning('id').execute()
    const withOverview = await get(q, tokens.user).expect(200)
    expect(withOverview.body.series.grid_import).toBeCloseTo((await get(q, tokens.admin)).body.series.grid_import, 3)
    expect(withOverview.body.series).not.toHaveProperty('cost')
    await get(`/heat/${apartment1}?start=2025-10-20&end=2025-10-27`, tokens.user).expect(200)
    await get(`/heat/${apartment1 + 1}?start=2025-10-20&end=2025-10-27`, tokens.user).expect(403)
    await db.updateTable('permissions').set({ cost: true }).where('id', '=', perm.id).execute()
    expect((await get(q, tokens.user).expect(200)).body.series).toHaveProperty('cost')
    await db.deleteFrom('permissions').where('id', '=', perm.id).execute()
  })
})

describe('GET …/battery/states', () => {
  it('leaves days without a reading empty and averages the state of charge over time, not over end-of-day values', async () => {
    const battery = meters['Battery 20 kWh']
    // 2025-03-10 (local): 20 % for 23 h 45 min, 90 % in the last quarter hour; 2025-03-11: no reading; 2025-03-12: 50 %.
    const rows = []
    for (const [day, soc] of [['2025-03-09T23:00:00Z', (i: number) => (i === 95 ? 90 : 20)], ['2025-03-11T23:00:00Z', () => 50]] as const) {
      for (let i = 0; i < 96; i++) rows.push({ meter_id: battery, bucket: new Date(Date.parse(day) + i * Q), energy_in_kwh: 0, energy_out_kwh: 0, volume_m3: 0, power_sum: 0, samples: 1, soc_last: soc(i) })
    }
    await app.domain!.db.insertInto('measurements_15m').values(rows).execute()
    const r = await get('/battery/states?start=2025-03-10&end=2025-03-13&granularity=day').expect(200)
    // Each day's state is its own time-weighted average, not its last reading (90 % on the first day).
    const days = r.body.series.battery_soc.map((b: { value: number | null }) => b.value)
    expect(days[0]).toBeCloseTo((95 * 20 + 90) / 96, 3)
    expect(days.slice(1)).toEqual([null, 50])
    // Time-weighted: (95 × 20 + 90 + 96 × 50) / 192 quarter hours, not (90 + 50) / 2 nor (90 + 0 + 50) / 3.
    expect(r.body.average_soc).toBeCloseTo((95 * 20 + 90 + 96 * 50) / 192, 2)
    const empty = await get('/battery/states?start=2025-04-01&end=2025-04-02&granularity=hour').expect(200)
    expect(empty.body.series.battery_soc.every((b: { value: number | null }) => b.value === null)).toBe(true)
    expect(empty.body.average_soc).toBeNull()
  })
})

describe("today's statistics: the installation-local day of the app's clock", () => {
  const TZ = 'Europe/Zurich'
  /** One stored 15-minute row of the main meter (once per bucket), as the rollups would see it. */
  async function put(bucket: number, kwh: number) {
    const meter = meters['Main power connection']
    const m = stored.get(meter)!
    if (m.has(bucket)) return
    m.set(bucket, kwh)
    await app.domain!.db.insertInto('measurements_15m').values({ meter_id: meter, bucket: new Date(bucket), energy_in_kwh: kwh, energy_out_kwh: 0, volume_m3: 0, power_sum: kwh * 4, samples: 1, soc_last: null }).execute()
  }
  // Wednesday 4 March 2026 at three hours, then the two days the clocks change (23 and 25 hours).
  const cases = [...HOURS.map((h) => [h, 24] as const), ['springForward', 23] as const, ['fallBack', 25] as const]
  it.each(cases)('at %s: today has %i hourly buckets from local midnight; the quarter hour before it is yesterday\'s', async (at, hours) => {
    await clock.set(AT[at])
    const today = periodRange('day', localDate(clock.now(), TZ), TZ)
    expect(today.date).toBe(AT[at].slice(0, 10))
    const midnight = Date.parse(today.start)
    // 23:45–24:00 yesterday (where a reading at 23:59 lands), the first quarter hour of today, and the
    // quarter hour just before now.
    await put(midnight - Q, 7)
    await put(midnight, 0.5)
    const current = clock.ms() - (clock.ms() % Q)
    await put(current - Q, 0.25)
    const q = `?start=${encodeURIComponent(today.start)}&end=${encodeURIComponent(today.end)}&granularity=hour`
    const token = await login(app, 'admin@example.com')
    const r = await get(q, token).expect(200)
    const series = r.body.series.grid_import as { start: string; value: number }[]
    expect(series).toHaveLength(hours)
    expect(Date.parse(series[0].start)).toBe(midnight)
    // The first hour holds today's first quarter hour only (now is never in it), not yesterday's last.
    expect(series[0].value).toBeCloseTo(0.5, 3)
    const totals = await get(`/totals${q}`, token).expect(200)
    expect(totals.body.series.grid_import).toBeCloseTo(storedSum(meters['Main power connection'], today.start, today.end), 3)
    expect(totals.body.series.grid_import).not.toBeCloseTo(storedSum(meters['Main power connection'], new Date(midnight - Q).toISOString(), today.end), 3)
  })
})
