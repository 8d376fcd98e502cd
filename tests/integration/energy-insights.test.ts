import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { createTestClock } from '../../server/lib/clock.ts'
import { AT, addOtherInstallation, auth, login, startApp } from './helpers.ts'

// What evcc and Home Assistant users expect (docs/decisions.md "Screens: solar share, ratios,
// comparisons"): per session the solar share, the average price per kWh and, while it runs, the
// effective charging time; the ratios of a period against the previous one; the sessions list and
// export filtered by station and person. The test clock stands at AT.morning (Wed 4 March 2026,
// 09:00 in Zürich, 08:00 UTC); every measurement is written by the test.
let app: FastifyInstance
let other: Awaited<ReturnType<typeof addOtherInstallation>>
const tokens: Record<'admin' | 'user' | 'bern', string> = { admin: '', user: '', bern: '' }
const ids: Record<string, number> = {}
const meters: Record<string, number> = {}
const users: Record<string, number> = {}
const TZ = 'Europe/Zurich'
const MARCH = { installation: '1', start__gte: '2026-03-01T00:00:00+01:00', end__lte: '2026-04-01T00:00:00+02:00', running: 'true' }
const api = () => request(app.server)

/** One 15-minute bucket (UTC start) of a meter: energy in and out (kWh). */
async function bucket(meterId: number, at: string, energyIn: number, energyOut = 0) {
  await app.domain!.measurements.recordAggregates([{ meter_id: meterId, bucket: new Date(at), energy_in_kwh: energyIn, energy_out_kwh: energyOut, volume_m3: 0, power_avg_kw: energyIn * 4, soc_last: null }])
}

async function charge(stationId: number, userId: number | null, start: string, kwh: number, end: string | null) {
  const s = app.domain!.sessions
  const id = await s.start({ installationId: 1, stationId, rfidId: null, userId, at: new Date(start) })
  await s.addEnergy(id, kwh, new Date(new Date(start).getTime() + 600_000), 1, TZ)
  if (end) await s.finish(id, new Date(end))
  return id
}

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock: createTestClock(AT.morning) }))
  other = await addOtherInstallation(app)
  tokens.admin = await login(app, 'admin@example.com')
  tokens.user = await login(app, 'user@example.com')
  tokens.bern = await login(app, other.adminEmail)
  const db = app.domain!.db
  for (const u of await db.selectFrom('users').select(['id', 'email']).execute()) users[u.email] = u.id
  const byType = await db.selectFrom('meters').select(['id', 'meter_type']).where('installation_id', '=', 1).orderBy('id').execute()
  for (const t of ['pv', 'main_power']) meters[t] = byType.find((m) => m.meter_type === t)!.id
  const stations = await db.selectFrom('charging_stations').select(['id', 'meter_id']).where('installation_id', '=', 1).orderBy('id').execute()
  meters.station1 = stations[0].meter_id
  meters.station2 = stations[1].meter_id
  ids.station1 = stations[0].id
  ids.station2 = stations[1].id

  // Tuesday 3 March: a session at station 1 from 12:00 to 12:30 local (11:00–11:30 UTC), 3 kWh.
  // 11:00 UTC: PV 2.5, export 0.5, the station 1.5 → building 0.5, surplus 2 → 1.5 kWh solar.
  // 11:15 UTC: PV 0.5, import 1.5, the station 1.5 → no surplus → 0 kWh solar. Share 1.5 / 3 = 50 %.
  // 11:30 UTC (after it ended): the next car's 2 kWh from the grid, not the session's.
  ids.sunny = await charge(ids.station1, users['user@example.com'], '2026-03-03T11:00:00Z', 3, '2026-03-03T11:30:00Z')
  await bucket(meters.station1, '2026-03-03T11:00:00Z', 1.5)
  await bucket(meters.pv, '2026-03-03T11:00:00Z', 2.5)
  await bucket(meters.main_power, '2026-03-03T11:00:00Z', 0, 0.5)
  await bucket(meters.station1, '2026-03-03T11:15:00Z', 1.5)
  await bucket(meters.pv, '2026-03-03T11:15:00Z', 0.5)
  await bucket(meters.main_power, '2026-03-03T11:15:00Z', 1.5)
  await bucket(meters.station1, '2026-03-03T11:30:00Z', 2)
  await bucket(meters.main_power, '2026-03-03T11:30:00Z', 2)
  // The morning of 3 March (08:00 local): import 0.5, PV 0.5.
  await bucket(meters.main_power, '2026-03-03T07:00:00Z', 0.5)
  await bucket(meters.pv, '2026-03-03T07:00:00Z', 0.5)
  // Monday 2 March: PV 4, export 2, import 1.
  await bucket(meters.pv, '2026-03-02T11:00:00Z', 4)
  await bucket(meters.main_power, '2026-03-02T11:00:00Z', 1, 2)
  // Today before 09:00 local: import 1 kWh, no sun.
  await bucket(meters.main_power, '2026-03-04T07:00:00Z', 1)

  // The admin's session at station 2 without measurements (no share to give), and one running since 08:00 local.
  ids.unmeasured = await charge(ids.station2, users['admin@example.com'], '2026-03-02T17:00:00Z', 5, '2026-03-02T18:00:00Z')
  ids.running = await charge(ids.station2, users['admin@example.com'], '2026-03-04T07:00:00Z', 6, null)
  // Its station's readings: 11 kW at 07:10 (10 min since the start), 0 kW at 07:20 (the car paused),
  // 11 kW at 07:30 (10 min) and at 07:50 (20 min since the last reading, counted as 15 at most) → 35 min.
  const reading = (at: string, kw: number) => ({ meter_id: meters.station2, ts: new Date(at), power_kw: kw })
  await app.domain!.measurements.record([reading('2026-03-04T07:10:00Z', 11), reading('2026-03-04T07:20:00Z', 0), reading('2026-03-04T07:30:00Z', 11), reading('2026-03-04T07:50:00Z', 11)])
})
afterAll(async () => app?.close())

type Session = { id: number; station_id: number; user_id: number | null; energy_kwh: number; price: number | null; solar_share: number | null; solar_kwh: number | null; price_per_kwh: number | null; effective_s: number | null; remaining_s: number | null }
const list = async (token: string, query: Record<string, string | number> = {}) => (await api().get('/api/rfids-charge/').query({ ...MARCH, limit: 50, offset: 0, ...query }).set(auth(token)).expect(200)).body as { count: number; results: Session[]; totals: { energy_kwh: number; price: number | null } }

describe('per session: solar share, price per kWh, effective charging time', () => {
  it('gives the session the share of PV surplus it drew in its own quarter hours', async () => {
    const s = (await api().get(`/api/rfids-charge/${ids.sunny}/`).set(auth(tokens.user)).expect(200)).body as Session
    expect(s.solar_share).toBe(50)
    expect(s.solar_kwh).toBe(1.5)
    // Its own session: the resident sees its price, so the average price per kWh too.
    expect(s.price).not.toBeNull()
    expect(s.price_per_kwh).toBeCloseTo(s.price! / s.energy_kwh, 4)
    expect(s.effective_s).toBeNull()
    expect(s.remaining_s).toBeNull()
  })

  it('has no solar share for a session without measured energy, and the list carries the same figures', async () => {
    const all = (await list(tokens.admin)).results
    expect(all.find((s) => s.id === ids.unmeasured)).toMatchObject({ solar_share: null, solar_kwh: null })
    expect(all.find((s) => s.id === ids.sunny)).toMatchObject({ solar_share: 50, solar_kwh: 1.5 })
  })

  it('counts the time the running car drew power, and hides the remaining time without a target', async () => {
    const running = (await list(tokens.admin)).results.find((s) => s.id === ids.running)!
    expect(running.effective_s).toBe(35 * 60)
    expect(running.remaining_s).toBeNull()
  })

  it('gives a resident only their own sessions’ figures', async () => {
    // The resident reads station 2, but the admin's sessions there are not theirs.
    const mine = (await list(tokens.user)).results
    expect(mine.map((s) => s.id)).toEqual([ids.sunny])
    await api().get(`/api/rfids-charge/${ids.unmeasured}/`).set(auth(tokens.user)).expect(404)
  })
})

describe('sessions filtered by station and person, with totals', () => {
  it('keeps one station’s sessions and totals them', async () => {
    const r = await list(tokens.admin, { station_id: ids.station2 })
    expect(r.results.map((s) => s.id).sort()).toEqual([ids.unmeasured, ids.running].sort())
    expect(r.totals.energy_kwh).toBe(11)
  })

  it('keeps one person’s sessions and totals them', async () => {
    const r = await list(tokens.admin, { user_id: users['user@example.com'] })
    expect(r.results.map((s) => s.id)).toEqual([ids.sunny])
    expect(r.totals.energy_kwh).toBe(3)
    expect(r.totals.price).toBe(r.results[0].price)
  })

  it('exports the filtered sessions with their total row, in local time', async () => {
    const res = await api().get('/api/rfids-charge/export').query({ ...MARCH, station_id: ids.station1, format: 'csv' }).set({ ...auth(tokens.admin), 'Accept-Language': 'de' }).expect(200)
    const lines = res.text.replace(/^\uFEFF/, '').trim().split('\r\n')
    expect(lines[0]).toBe('Beginn (Europe/Zurich),Ende (Europe/Zurich),Ladestation,Benutzer,RFID,Energie kWh,Preis CHF,Transaktionsgebühr CHF,Total CHF,Durchschnitt CHF/kWh,Solaranteil %,Status')
    expect(lines).toHaveLength(3)
    // 11:00 UTC is 12:00 in Zürich, as the screen shows it; solar share 50 %.
    expect(lines[1]).toMatch(/^2026-03-03 12:00:00,2026-03-03 12:30:00,[^,]+,Laura Brunner,,3,[\d.]+,0,[\d.]+,[\d.]+,50,unbezahlt$/)
    expect(lines[2]).toMatch(/^Total,,,,,3,[\d.]+,0,[\d.]+,,,$/)
  })

  it('refuses another installation’s station or person and unknown ids (404), another person for a resident (403)', async () => {
    const get = (token: string, q: Record<string, string | number>) => api().get('/api/rfids-charge/').query({ ...MARCH, limit: 10, offset: 0, ...q }).set(auth(token))
    expect((await get(tokens.admin, { station_id: other.stationId }).expect(404)).body).toEqual({ detail: 'Not found.' })
    await get(tokens.admin, { user_id: users[other.adminEmail] }).expect(404)
    await get(tokens.admin, { station_id: 2_000_000_000 }).expect(404)
    await get(tokens.admin, { station_id: 'x' }).expect(400)
    await get(tokens.user, { user_id: users['admin@example.com'] }).expect(403)
    // Their own sessions by their own id: fine.
    expect((await get(tokens.user, { user_id: users['user@example.com'] }).expect(200)).body.count).toBe(1)
    // The export refuses the same.
    await api().get('/api/rfids-charge/export').query({ ...MARCH, station_id: other.stationId, format: 'csv' }).set(auth(tokens.admin)).expect(404)
    // The other installation's admin with a station of installation 1 on their own installation: not theirs.
    await api().get('/api/rfids-charge/').query({ ...MARCH, installation: String(other.installationId), station_id: ids.station1, limit: 10, offset: 0 }).set(auth(tokens.bern)).expect(404)
  })
})

describe('self-sufficiency, self-consumption and the previous period', () => {
  const ratios = (token: string, period: string, date: string) => api().get('/api/statistics/1/ratios').query({ period, date }).set(auth(token))

  it('a whole past day against the day before', async () => {
    const r = (await ratios(tokens.admin, 'day', '2026-03-03').expect(200)).body
    // 3 March: import 4, export 0.5, PV 3.5 → consumption 7; 1 − 4/7 = 42.9 %, 1 − 0.5/3.5 = 85.7 %.
    expect(r.current).toMatchObject({ start: '2026-03-03T00:00:00+01:00', end: '2026-03-04T00:00:00+01:00', consumption: 7, grid_import: 4, grid_export: 0.5, pv_production: 3.5, self_sufficiency: 42.9, self_consumption: 85.7 })
    // 2 March: import 1, export 2, PV 4 → consumption 3; 66.7 % and 50 %.
    expect(r.previous).toMatchObject({ start: '2026-03-02T00:00:00+01:00', consumption: 3, self_sufficiency: 66.7, self_consumption: 50 })
    expect(r.partial).toBe(false)
    expect(r.change).toEqual({ consumption: 133.3, grid_import: 300, grid_export: -75, pv_production: -12.5, self_sufficiency: -23.8, self_consumption: 35.7 })
  })

  it('today until now against yesterday until the same hour', async () => {
    const r = (await ratios(tokens.admin, 'day', '2026-03-04').expect(200)).body
    expect(r.partial).toBe(true)
    expect(r.current).toMatchObject({ end: '2026-03-04T09:00:00+01:00', consumption: 1, self_sufficiency: 0, self_consumption: null })
    // Yesterday until 09:00: only its morning (import 0.5, PV 0.5), not its sunny noon.
    expect(r.previous).toMatchObject({ start: '2026-03-03T00:00:00+01:00', end: '2026-03-03T09:00:00+01:00', consumption: 1, self_sufficiency: 50, self_consumption: 100 })
    expect(r.change).toMatchObject({ consumption: 0, self_sufficiency: -50, self_consumption: null })
  })

  it('a week without a previous week’s data has no change to give', async () => {
    const r = (await ratios(tokens.admin, 'week', '2026-03-03').expect(200)).body
    expect(r.current.start).toBe('2026-03-02T00:00:00+01:00')
    expect(r.previous).toMatchObject({ start: '2026-02-23T00:00:00+01:00', consumption: 0, self_sufficiency: null, self_consumption: null })
    expect(r.change).toMatchObject({ consumption: null, self_sufficiency: null })
  })

  it('needs the overview right and a role in the installation; bad input is a 400 naming the field', async () => {
    await ratios(tokens.user, 'day', '2026-03-03').expect(403)
    await ratios(tokens.bern, 'day', '2026-03-03').expect(403)
    const bad = await ratios(tokens.admin, 'fortnight', '2026-03-03').expect(400)
    expect(Object.keys(bad.body)).toContain('period')
    await ratios(tokens.admin, 'day', '3.3.2026').expect(400)
    // Dates of the right shape that do not exist (found by the API fuzz: month 89 was a 500).
    for (const date of ['0227-89-03', '2026-02-30', '0000-01-01']) expect(Object.keys((await ratios(tokens.admin, 'day', date).expect(400)).body)).toContain('date')
    await api().get(`/api/statistics/${other.installationId}/ratios`).query({ period: 'day', date: '2026-03-03' }).set(auth(tokens.admin)).expect(403)
  })
})
