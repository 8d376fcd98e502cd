import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auth, login } from './helpers.ts'
import { startIngest, type IngestEnv } from './ingest-setup.ts'

// Gaps and flagged data shown as such (server/domain/measurements/coverage.ts): a meter's quarter hours
// without readings come back as gaps in the statistics answers and in reports, readings the data-quality
// checks set aside as flagged with their reason, and GET …/meter_data says a meter is stale and how old its
// newest reading is.
let env: IngestEnv
let k: string
const Q = 15 * 60_000
let meter: { id: number }
let t0: number
/** When the meter's newest reading (the counter reset) was taken. */
let lastTs: number
beforeAll(async () => {
  env = await startIngest()
  k = await env.key()
  meter = await env.meter('main_power')
  // Quarter hours from 3 h before the clock's quarter: readings in the first hour (a register standing
  // still in its last quarter), none in the second, then readings up to now; a register going down flagged.
  t0 = Math.floor(env.clock.ms() / Q) * Q - 3 * 3600_000
  const reading = (ms: number, value: number) => ({ meter_id: meter.id, timestamp: new Date(ms).toISOString(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value })
  const first = [0, 1, 2, 3].map((q) => reading(t0 + q * Q + 60_000, 100 + Math.min(q, 2)))
  const last = [8, 9, 10, 11, 12].map((q) => reading(t0 + q * Q + 60_000, 110 + q))
  const r = await env.send(k, [...first, ...last]).expect(202)
  expect(r.body).toMatchObject({ accepted: 9, rejected: [] })
  // A counter reset after them, in the quarter the clock stands in: flagged, not booked.
  lastTs = t0 + 12 * Q + 120_000
  const down = await env.send(k, [reading(lastTs, 5)]).expect(202)
  expect(down.body.rejected).toHaveLength(1)
})
afterAll(async () => env?.app.close())

const iso = (ms: number) => new Date(ms).toISOString()
const period = () => `start=${encodeURIComponent(iso(t0))}&end=${encodeURIComponent(iso(t0 + 4 * 3600_000))}&granularity=fifteen_minutes`

describe('statistics answers name gaps and flagged readings', () => {
  it("a meter's series gives the hour without readings as a gap, a register standing still is none", async () => {
    const r = await env.api().get(`/api/statistics/${env.demo}/meter/${meter.id}?${period()}`).set(auth(env.tokens.admin)).expect(200)
    expect(r.body.data_quality.gaps).toEqual([{ meter_id: meter.id, meter_name: expect.any(String), meter_type: 'main_power', start: iso(t0 + 4 * Q), end: iso(t0 + 8 * Q) }])
    // The buckets of the gap hold 0 only because nothing was measured: the answer says so beside them.
    const gapBucket = r.body.series.grid_import.find((b: { start: string }) => new Date(b.start).getTime() === t0 + 5 * Q)
    expect(gapBucket.value).toBe(0)
    expect(r.body.data_quality.flagged).toEqual([
      { meter_id: meter.id, meter_name: expect.any(String), timestamp: iso(lastTs), measurand: 'Energy.Active.Import.Register', reason: expect.stringContaining('register went down from 122 to 5 kWh') },
    ])
  })

  it('gives a flagged reading\'s reason in the request\'s language', async () => {
    const de = await env.api().get(`/api/statistics/${env.demo}/meter/${meter.id}?${period()}`).set(auth(env.tokens.admin)).set('Accept-Language', 'de').expect(200)
    expect(de.body.data_quality.flagged.map((f: { reason: string }) => f.reason)).toEqual([expect.stringContaining('Zählerstand ist von 122 auf 5 kWh gesunken')])
    const electrical = await env.api().get(`/api/statistics/${env.demo}/electrical?${period()}`).set(auth(env.tokens.admin)).set('Accept-Language', 'it').expect(200)
    expect(electrical.body.data_quality.flagged.filter((f: { meter_id: number }) => f.meter_id === meter.id).map((f: { reason: string }) => f.reason)).toEqual([expect.stringContaining('la lettura è scesa da 122 a 5 kWh')])
  })

  it('the installation answer and the electrical section list it; the water section and a resident without overview do not', async () => {
    const mine = (gaps: { meter_id: number }[]) => gaps.filter((g) => g.meter_id === meter.id)
    const all = await env.api().get(`/api/statistics/${env.demo}?${period()}`).set(auth(env.tokens.admin)).expect(200)
    expect(mine(all.body.data_quality.gaps)).toHaveLength(1)
    const flow = await env.api().get(`/api/statistics/${env.demo}/flow?${period()}`).set(auth(env.tokens.admin)).expect(200)
    expect(mine(flow.body.data_quality.gaps)).toHaveLength(1)
    const electrical = await env.api().get(`/api/statistics/${env.demo}/electrical?${period()}`).set(auth(env.tokens.admin)).expect(200)
    expect(mine(electrical.body.data_quality.gaps)).toHaveLength(1)
    const water = await env.api().get(`/api/statistics/${env.demo}/water?${period()}`).set(auth(env.tokens.admin)).expect(200)
    expect(mine(water.body.data_quality.gaps)).toEqual([])
    expect(water.body.data_quality.flagged).toEqual([])
    // The resident reads only their stations: no main meter's gap or finding reaches them.
    const resident = await env.api().get(`/api/statistics/${env.demo}?${period()}`).set(auth(env.tokens.user)).expect(200)
    expect(resident.body.data_quality).toEqual({ gaps: [], flagged: [] })
  })

  it('a report of the period names the gap instead of counting it as 0 kWh silently', async () => {
    const totals = await env.app.domain!.statistics.reportTotals(env.demo, 'electrical', new Date(t0), new Date(t0 + 4 * 3600_000))
    expect(totals.data_quality.gaps.filter((g) => g.meter_id === meter.id)).toEqual([expect.objectContaining({ start: iso(t0 + 4 * Q), end: iso(t0 + 8 * Q) })])
  })
})

describe('GET /api/cockpit/installations/{id}/meter_data', () => {
  it('refuses a resident without the overview switch, another installation\'s admin, and answers 404 for an unknown installation', async () => {
    const url = `/api/cockpit/installations/${env.demo}/meter_data`
    await env.api().get(url).set(auth(env.tokens.user)).expect(403)
    await env.api().get(url).set(auth(env.tokens.bern)).expect(403)
    await env.api().get('/api/cockpit/installations/2147483000/meter_data').set(auth(env.tokens.super)).expect(404)
    await env.api().get(url).expect(401)
  })

  it('says a meter reporting now is current and flagged with its finding, then stale with its age once it falls silent', async () => {
    const url = `/api/cockpit/installations/${env.demo}/meter_data`
    const now = await env.api().get(url).set(auth(env.tokens.admin)).expect(200)
    const mine = now.body.find((m: { id: number }) => m.id === meter.id)
    expect(mine).toMatchObject({ meter_type: 'main_power', source: 'ingest', stale: false, data_quality: { state: 'flagged', reason: expect.stringContaining('register went down') } })
    expect(mine.age_s).toBe(Math.max(0, Math.round((env.clock.ms() - lastTs) / 1000)))
    expect(now.body.some((m: { meter_type: string }) => m.meter_type === 'charging_station')).toBe(false)

    await env.clock.advance(40 * 60_000)
    // Signed in again: the access token does not outlive 40 minutes of the clock.
    const admin = await login(env.app, 'admin@example.com')
    const later = (await env.api().get(url).set(auth(admin)).expect(200)).body.find((m: { id: number }) => m.id === meter.id)
    expect(later.stale).toBe(true)
    expect(later.age_s).toBe(Math.round((env.clock.ms() - lastTs) / 1000))
    // Silent since: the statistics answer now ends in a gap up to the quarter hour running.
    const r = await env.api().get(`/api/statistics/${env.demo}/meter/${meter.id}?${period()}`).set(auth(admin)).expect(200)
    const gaps = r.body.data_quality.gaps
    expect(gaps).toHaveLength(2)
    expect(gaps[1]).toMatchObject({ start: iso(t0 + 13 * Q), end: iso(Math.floor(env.clock.ms() / Q) * Q) })
  })
})

describe('gaps over longer periods', () => {
  it('a month is judged by the hour and a year by the local day, from the rollups', async () => {
    // A meter with rows on 1–3 and 6–7 February 2026 (Zürich) only: 4 and 5 February are missing.
    // Signed in anew (the helpers read env.tokens): the clock moved past the first token's life in the tests above.
    env.tokens.admin = await login(env.app, 'admin@example.com')
    const m = await env.meter('heat')
    const rows: { meter_id: number; bucket: Date; energy_in_kwh: number; energy_out_kwh: number; volume_m3: number; power_sum: number; samples: number; soc_last: null }[] = []
    for (const day of [1, 2, 3, 6, 7]) {
      for (let q = 0; q < 96; q++) rows.push({ meter_id: m.id, bucket: new Date(Date.UTC(2026, 1, day, -1, q * 15)), energy_in_kwh: 0.1, energy_out_kwh: 0, volume_m3: 0, power_sum: 0, samples: 0, soc_last: null })
    }
    await env.db.insertInto('measurements_15m').values(rows).execute()
    const admin = env.tokens.admin
    const gapsOf = async (start: string, end: string, granularity: string) =>
      (await env.api().get(`/api/statistics/${env.demo}/meter/${m.id}?start=${start}&end=${end}&granularity=${granularity}`).set(auth(admin)).expect(200)).body.data_quality.gaps
    const month = await gapsOf('2026-02-01', '2026-02-08', 'day')
    expect(month).toEqual([expect.objectContaining({ start: '2026-02-03T23:00:00.000Z', end: '2026-02-05T23:00:00.000Z' })])
    const hourly = await gapsOf('2026-02-01', '2026-03-01', 'day')
    expect(hourly[0]).toMatchObject({ start: '2026-02-03T23:00:00.000Z', end: '2026-02-05T23:00:00.000Z' })
    // After 7 February nothing until the test clock's day: a second gap up to it.
    expect(hourly[1]).toMatchObject({ start: '2026-02-07T23:00:00.000Z', end: '2026-02-28T23:00:00.000Z' })
    const year = await gapsOf('2026-01-01', '2027-01-01', 'month')
    expect(year[0]).toMatchObject({ start: '2026-02-03T23:00:00.000Z', end: '2026-02-05T23:00:00.000Z' })
    expect(year[1].start).toBe('2026-02-07T23:00:00.000Z')
  })
})
