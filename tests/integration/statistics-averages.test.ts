import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, login, startApp } from './helpers.ts'
import { createTestClock } from '../../server/lib/clock.ts'

/**
 * Averages over the time that has data (SPEC §2 Charts): kW series and their period averages divide
 * the energy by the quarter hours with readings, so neither the hours still to come nor a gap in the
 * readings count as 0 kW; a bucket without readings has no point. The battery's state of charge per
 * bucket is its time-weighted average with the bucket's minimum and maximum.
 */
let app: FastifyInstance
let token: string
const INST = 1
const Q = 15 * 60_000
// Tuesday 10 March 2026, 08:20 in Zurich (+01:00).
const NOW = '2026-03-10T08:20:00+01:00'
const clock = createTestClock(NOW)
const MONDAY = Date.parse('2026-03-09T00:00:00+01:00')
const TUESDAY = Date.parse('2026-03-10T00:00:00+01:00')

type B = { start: string; value: number | null }
const get = (path: string) => request(app.server).get(`/api/statistics/${INST}${path}`).set(auth(token)).expect(200)

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock }))
  const db = app.domain!.db
  const meter = async (name: string) => (await db.selectFrom('meters').select('id').where('installation_id', '=', INST).where('name', '=', name).executeTakeFirstOrThrow()).id
  const main = await meter('Main power connection')
  const battery = await meter('Battery 20 kWh')
  const row = (meterId: number, t: number, kwh: number, soc: number | null = null) => ({ meter_id: meterId, bucket: new Date(t), energy_in_kwh: kwh, energy_out_kwh: 0, volume_m3: 0, power_sum: kwh * 4, samples: 1, soc_last: soc })
  const rows = []
  // Monday: 1 kWh every quarter hour (4 kW all day).
  for (let i = 0; i < 96; i++) rows.push(row(main, MONDAY + i * Q, 1))
  // Tuesday until now: 0.5 kWh every quarter hour (2 kW) from 00:00 to 08:15, with no readings from 03:00 to 04:00.
  for (let i = 0; i < 33; i++) if (i < 12 || i >= 16) rows.push(row(main, TUESDAY + i * Q, 0.5))
  // The battery on Monday: 10 % for the first 18 hours, 50 % for 5 hours 45 minutes, 10 % in the last quarter hour.
  for (let i = 0; i < 96; i++) rows.push(row(battery, MONDAY + i * Q, 0, i < 72 ? 10 : i < 95 ? 50 : 10))
  await db.insertInto('measurements_15m').values(rows).execute()
  token = await login(app, 'admin@example.com')
})
afterAll(async () => app?.close())

describe('kW averages over the time with data', () => {
  it("today at 08:20: the day's average power is its kWh over the hours with readings, not over 24 hours", async () => {
    const totals = await get('/totals?start=2026-03-10&end=2026-03-11&granularity=hour&flow=true')
    // 29 quarter hours with readings: 14.5 kWh over 7.25 h = 2 kW (not 14.5 / 24 = 0.60 kW).
    expect(totals.body.series.grid_import).toBeCloseTo(14.5, 6)
    expect(totals.body.series.grid_flow).toBeCloseTo(2, 6)
  })

  it("today's hours: a point for each hour with readings (the current one at its readings' rate), none for the gap or the hours to come", async () => {
    for (const path of ['?start=2026-03-10&end=2026-03-11&granularity=hour&flow=true', '/flow?start=2026-03-10&end=2026-03-11&granularity=hour']) {
      const r = await get(path)
      const flow: B[] = r.body.series.grid_flow
      expect(flow.map((b) => b.start.slice(11, 13))).toEqual(['00', '01', '02', '04', '05', '06', '07', '08'])
      expect(flow.every((b) => Math.abs(b.value! - 2) < 1e-6)).toBe(true)
    }
  })

  it('the week: Monday and Tuesday have points at their average power, the days still to come none', async () => {
    const r = await get('?start=2026-03-09&end=2026-03-16&granularity=day&flow=true')
    const flow: B[] = r.body.series.grid_flow
    expect(flow.map((b) => [b.start.slice(0, 10), Math.round(b.value! * 1000) / 1000])).toEqual([['2026-03-09', 4], ['2026-03-10', 2]])
    // Energies keep every day of the week (0 kWh where nothing was read).
    expect(r.body.series.grid_import).toHaveLength(7)
    const week = await get('/totals?start=2026-03-09&end=2026-03-16&granularity=day&flow=true')
    // (96 + 14.5) kWh over (24 + 7.25) h.
    expect(week.body.series.grid_flow).toBeCloseTo(110.5 / 31.25, 6)
  })

  it('the year: one month of data is averaged over its own time, not spread over twelve', async () => {
    const r = await get('?start=2026-01-01&end=2027-01-01&granularity=month&flow=true')
    expect(r.body.series.grid_flow.map((b: B) => b.start.slice(0, 7))).toEqual(['2026-03'])
    expect(r.body.series.grid_flow[0].value).toBeCloseTo(110.5 / 31.25, 6)
    const year = await get('/totals?start=2026-01-01&end=2027-01-01&granularity=month&flow=true')
    expect(year.body.series.grid_flow).toBeCloseTo(110.5 / 31.25, 6)
  })
})

describe('battery state of charge per bucket', () => {
  it("a day's state is its time-weighted average with its minimum and maximum, not the last reading", async () => {
    const r = await get('/battery/states?start=2026-03-09&end=2026-03-11&granularity=day')
    const soc: B[] = r.body.series.battery_soc
    // Monday: (72 × 10 + 23 × 50 + 10) / 96 = 19.58 %, not the last reading's 10 %.
    expect(soc[0].value).toBeCloseTo((72 * 10 + 23 * 50 + 10) / 96, 3)
    expect(soc[1].value).toBeNull()
    expect(r.body.series.battery_soc_min.map((b: B) => b.value)).toEqual([10, null])
    expect(r.body.series.battery_soc_max.map((b: B) => b.value)).toEqual([50, null])
    expect(r.body.units.battery_soc_min).toBe('%')
    const week = await get('/battery/states?start=2026-03-09&end=2026-03-16&granularity=day')
    expect(week.body.average_soc).toBeCloseTo((72 * 10 + 23 * 50 + 10) / 96, 3)
  })
})
