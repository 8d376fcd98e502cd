import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auth } from './helpers.ts'
import { startIngest, type IngestEnv } from './ingest-setup.ts'

// Data quality of the ingestion API (server/domain/ingest/check.ts and service.ts): every bad reading is
// refused or set aside with its reason, never stored as a wrong figure; the limits of a batch.
let env: IngestEnv
let k: string
beforeAll(async () => {
  env = await startIngest()
  k = await env.key()
  // Starting an app takes long on a machine shared with other suites.
})
afterAll(async () => env?.app.close())

const meterJson = async (id: number) => (await env.api().get(`/api/cockpit/installations/${env.demo}/meters/?limit=1000`).set(auth(env.tokens.admin)).expect(200)).body.results.find((m: { id: number }) => m.id === id)

describe('bad readings', () => {
  it('refuses a wrong unit, a measurand the meter does not measure, an unknown measurand, and flags the meter', async () => {
    const { meter, send, at, stored } = env
    const m = await meter('main_power')
    const r = await send(k, [
      { meter_id: m.id, timestamp: at(), measurand: 'Power.Active.Import', unit: 'kWh', value: 3 },
      { meter_id: m.id, timestamp: at(), measurand: 'Volume', unit: 'm3', value: 3 },
      { meter_id: m.id, timestamp: at(), measurand: 'Temperature', unit: 'Celsius', value: 3 },
      { meter_id: m.id, timestamp: at(), measurand: 'SoC', unit: '%', value: 3 },
    ]).expect(202)
    expect(r.body.accepted).toBe(0)
    expect(r.body.rejected).toEqual([
      { index: 0, reason: 'unit: "kWh" is not a unit of Power.Active.Import (W, kW, MW)' },
      { index: 1, reason: 'measurand: a main_power meter does not measure Volume' },
      { index: 2, reason: expect.stringMatching(/^measurand: not one of Energy\.Active\.Import\.Register, /) },
      { index: 3, reason: 'measurand: a main_power meter does not measure SoC' },
    ])
    expect((await stored(m.id)).raw).toEqual([])
    expect((await meterJson(m.id)).data_quality).toMatchObject({ state: 'flagged', reason: 'measurand: a main_power meter does not measure SoC' })
  })

  it('gives the reasons in the request\'s language (de, fr, it), in the answer and in the meter\'s data-quality state', async () => {
    const { meter, send, at, api, demo, tokens } = env
    const m = await meter('main_power')
    const bad = [{ meter_id: m.id, timestamp: at(), measurand: 'Volume', unit: 'm3', value: 3 }]
    const de = await send(k, bad).set('Accept-Language', 'de-CH,de;q=0.9').expect(202)
    expect(de.body.rejected).toEqual([{ index: 0, reason: 'measurand: ein Zähler vom Typ main_power misst kein Volume' }])
    const fr = await send(k, [{ ...bad[0], measurand: 'Power.Active.Import', unit: 'kWh' }]).set('Accept-Language', 'fr').expect(202)
    expect(fr.body.rejected[0].reason).toBe('unit : "kWh" n\'est pas une unité de Power.Active.Import (W, kW, MW)')
    // The meter's state is kept keyed: each reader sees it in their language, English by default.
    const quality = async (lang?: string) => {
      const req = api().get(`/api/cockpit/installations/${demo}/meters/?limit=1000`).set(auth(tokens.admin))
      if (lang) req.set('Accept-Language', lang)
      return (await req.expect(200)).body.results.find((x: { id: number }) => x.id === m.id).data_quality.reason
    }
    expect(await quality('it')).toBe('unit: "kWh" non è un’unità di Power.Active.Import (W, kW, MW)')
    expect(await quality()).toBe('unit: "kWh" is not a unit of Power.Active.Import (W, kW, MW)')
    const states = (await api().get(`/api/cockpit/installations/${demo}/meter_data`).set(auth(tokens.admin)).set('Accept-Language', 'de').expect(200)).body
    expect(states.find((x: { id: number }) => x.id === m.id).data_quality.reason).toBe('unit: "kWh" ist keine Einheit von Power.Active.Import (W, kW, MW)')
  })

  it('refuses timestamps more than 5 minutes ahead of the clock, older than the retention, or without an offset', async () => {
    const { meter, send, at, clock } = env
    const m = await meter('main_power')
    const r = await send(k, [
      { meter_id: m.id, timestamp: at(4 * 60_000), measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
      { meter_id: m.id, timestamp: at(5 * 60_000 + 1000), measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
      { meter_id: m.id, timestamp: at(-49 * 3600_000), measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
      { meter_id: m.id, timestamp: '2026-03-04T08:00:00', measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
      { meter_id: m.id, timestamp: 'yesterday', measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
      { meter_id: m.id, timestamp: '0001-01-01T00:00:00Z', measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
    ]).expect(202)
    expect(r.body.accepted).toBe(1)
    expect(r.body.rejected.map((x: { index: number }) => x.index)).toEqual([1, 2, 3, 4, 5])
    expect(r.body.rejected[0].reason).toContain("more than 5 minutes ahead of the server's clock")
    expect(r.body.rejected[1].reason).toContain('older than the retention window')
    expect(r.body.rejected[2].reason).toBe('timestamp: not an ISO 8601 date and time with an offset')
    expect(r.body.rejected[4].reason).toContain('older than the retention window')
    void clock
  })

  it("refuses a power beyond the meter's maximum set in the meter API", async () => {
    const { meter, send, at, api, demo, tokens, stored } = env
    const m = await meter('main_power', { max_power_kw: 40 })
    expect((await meterJson(m.id)).max_power_kw).toBe(40)
    const r = await send(k, [
      { meter_id: m.id, timestamp: at(-10_000), measurand: 'Power.Active.Import', unit: 'kW', value: 39.9 },
      { meter_id: m.id, timestamp: at(-5_000), measurand: 'Power.Active.Export', unit: 'W', value: 41_000 },
    ]).expect(202)
    expect(r.body).toEqual({ accepted: 1, duplicates: 0, rejected: [{ index: 1, reason: "value: 41 kW is beyond the meter's maximum power of 40 kW" }] })
    await api().patch(`/api/cockpit/installations/${demo}/meters/${m.id}/`).set(auth(tokens.admin)).send({ max_power_kw: 50 }).expect(200)
    expect((await send(k, [{ meter_id: m.id, timestamp: at(-5_000), measurand: 'Power.Active.Export', unit: 'W', value: 41_000 }]).expect(202)).body.accepted).toBe(1)
    expect((await stored(m.id)).raw.map((x) => x.power_kw)).toEqual([39.9, -41])
    await api().patch(`/api/cockpit/installations/${demo}/meters/${m.id}/`).set(auth(tokens.admin)).send({ max_power_kw: -1 }).expect(400)
    // A register rising faster than the maximum power allows books nothing and becomes the new baseline.
    await send(k, [{ meter_id: m.id, timestamp: at(-60_000), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 500 }]).expect(202)
    const steep = await send(k, [{ meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 600 }]).expect(202)
    expect(steep.body.rejected[0].reason).toMatch(/^register rose by 100 kWh in 60 s, faster than the meter's maximum/)
    expect((await stored(m.id)).buckets.reduce((a, b) => a + b.energy_in_kwh, 0)).toBe(0)
  })

  it('sets a register that went down aside: nothing booked, the meter flagged, the next reading counts from it', async () => {
    const { meter, send, at, clock, stored, db } = env
    const m = await meter('main_power')
    await send(k, [{ meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 5000 }]).expect(202)
    await clock.advance(5000)
    await send(k, [{ meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 5000.01 }]).expect(202)
    await clock.advance(5000)
    const reset = [{ meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 2 }]
    const r = await send(k, reset).expect(202)
    expect(r.body).toEqual({ accepted: 0, duplicates: 0, rejected: [{ index: 0, reason: 'register went down from 5000.01 to 2 kWh (counter reset or swapped meter): nothing booked, the next reading counts from 2 kWh' }] })
    expect((await meterJson(m.id)).data_quality).toMatchObject({ state: 'flagged', reason: expect.stringContaining('register went down') })
    const flagged = await db.selectFrom('meter_readings').select(['value', 'flag']).where('meter_id', '=', m.id).where('flag', 'is not', null).execute()
    // Kept keyed (server/domain/ingest/reasons.ts), shown in the reader's language.
    expect(flagged).toEqual([{ value: 2, flag: expect.stringContaining('"key":"ingestRegisterDown"') }])
    // Sent again (a gateway retrying): a duplicate, not a second finding.
    expect((await send(k, reset).expect(202)).body).toEqual({ accepted: 0, duplicates: 1, rejected: [] })
    await clock.advance(5000)
    expect((await send(k, [{ meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 2.02 }]).expect(202)).body.accepted).toBe(1)
    expect((await stored(m.id)).buckets.reduce((a, b) => a + b.energy_in_kwh, 0)).toBeCloseTo(0.03, 9)
    // A late reading that does not fit between its neighbours is refused and not stored.
    const late = await send(k, [{ meter_id: m.id, timestamp: at(-12_000), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 4999 }]).expect(202)
    expect(late.body.rejected[0].reason).toMatch(/^register 4999 kWh is lower than the reading before it \(5000 kWh at /)
  })

  it('refuses absurd values, malformed readings, archived and simulated meters', async () => {
    const { meter, send, at, api, demo, tokens, db } = env
    const m = await meter('battery', { capacity: 10 })
    const gone = await meter('main_power')
    await api().delete(`/api/cockpit/installations/${demo}/meters/${gone.id}/`).set(auth(tokens.admin)).expect(204)
    const simulated = (await db.selectFrom('meters').select('id').where('installation_id', '=', demo).where('source', '=', 'simulator').where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()).id
    const t = at()
    const r = await send(k, [
      { meter_id: m.id, timestamp: t, measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 1e300 },
      { meter_id: m.id, timestamp: t, measurand: 'Energy.Active.Export.Register', unit: 'kWh', value: -1 },
      { meter_id: m.id, timestamp: t, measurand: 'SoC', unit: 'Percent', value: 150 },
      { meter_id: m.id, timestamp: t, measurand: 'Power.Active.Import', unit: 'MW', value: 5000 },
      { meter_id: m.id, timestamp: t, measurand: 'Voltage', unit: 'V', value: 'high' },
      { meter_id: 2 ** 31, timestamp: t, measurand: 'SoC', unit: '%', value: 5 },
      { meter_id: m.id, meter_serial: 'x', timestamp: t, measurand: 'SoC', unit: '%', value: 5 },
      { timestamp: t, measurand: 'SoC', unit: '%', value: 5 },
      null,
      7,
      { meter_id: gone.id, timestamp: t, measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
      { meter_id: simulated, timestamp: t, measurand: 'Power.Active.Import', unit: 'kW', value: 1 },
      { meter_serial: 'x'.repeat(10_000), timestamp: t, measurand: 'SoC', unit: '%', value: 5 },
      { meter_id: m.id, timestamp: t, measurand: 'SoC', unit: '%', value: 55.5 },
    ]).expect(202)
    expect(r.body.accepted).toBe(1)
    expect(r.body.rejected.map((x: { index: number }) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    const reasons = r.body.rejected.map((x: { reason: string }) => x.reason)
    expect(reasons[0]).toMatch(/^value: a register of 1e\+300 kWh is out of range/)
    expect(reasons[2]).toBe('value: a state of charge of 150 % is outside 0 to 100 %')
    expect(reasons[3]).toContain("beyond the meter's maximum power")
    expect(reasons[10]).toBe(`meter_id: no meter ${gone.id} in this installation`)
    expect(reasons[11]).toContain('is simulated: it takes no readings from devices')
    const soc = await db.selectFrom('measurements').select('soc').where('meter_id', '=', m.id).execute()
    expect(soc).toEqual([{ soc: 55.5 }])
  })

  it('answers 400 for a NUL character and for a body without a readings array', async () => {
    const { api, meter, at } = env
    const m = await meter('main_power')
    await api().post('/api/ingest/v1/readings').set(auth(k)).send({ readings: [{ meter_serial: 'a\u0000b', timestamp: at(), measurand: 'SoC', unit: '%', value: 1 }] }).expect(400)
    await api().post('/api/ingest/v1/readings').set(auth(k)).send({ readings: { meter_id: m.id } }).expect(400)
    await api().post('/api/ingest/v1/readings').set(auth(k)).set('Content-Type', 'application/json').send('{"readings": [').expect(400)
  })
})

describe('limits', () => {
  it('takes 10,000 readings in one batch and answers 413 naming the limit beyond 10,000 readings or 1 MB', async () => {
    const { api, meter, clock, stored } = env
    const m = await meter('battery', { capacity: 10 })
    const base = clock.ms() - 20_000_000
    const readings = Array.from({ length: 10_000 }, (_, i) => ({ meter_id: m.id, timestamp: new Date(base + i * 1000).toISOString(), measurand: 'SoC', unit: '%', value: i % 100 }))
    const body = JSON.stringify({ readings })
    expect(body.length).toBeLessThan(1 << 20)
    const ok = await api().post('/api/ingest/v1/readings').set(auth(k)).set('Content-Type', 'application/json').send(body).expect(202)
    expect(ok.body).toEqual({ accepted: 10_000, duplicates: 0, rejected: [] })
    expect((await stored(m.id)).raw).toHaveLength(10_000)
    const tooMany = await api().post('/api/ingest/v1/readings').set(auth(k)).send({ readings: Array.from({ length: 10_001 }, () => ({})) }).expect(413)
    expect(tooMany.body.detail).toBe('Too many readings: at most 10000 readings per batch.')
    const huge = JSON.stringify({ readings: [{ meter_id: m.id, timestamp: new Date(base).toISOString(), measurand: 'SoC', unit: '%', value: 1, pad: 'x'.repeat(1 << 20) }] })
    const tooBig = await api().post('/api/ingest/v1/readings').set(auth(k)).set('Content-Type', 'application/json').send(huge).expect(413)
    expect(tooBig.body.detail).toBe('The batch is too large: at most 1 MB (1048576 bytes) per batch.')
    // Without a key the size does not matter: 401.
    await api().post('/api/ingest/v1/readings').set('Content-Type', 'application/json').send(huge).expect(401)
  })
})

describe('simulator and OCPP writes', () => {
  it('count a reading stored twice once in the 15-minute buckets', async () => {
    const { meter, app, stored } = env
    const m = await meter('main_power')
    const ts = new Date(app.clock.ms() - 60_000)
    const sample = { meter_id: m.id, ts, power_kw: 2, energy_in_kwh: 0.5 }
    await app.domain!.measurements.record([sample])
    await app.domain!.measurements.record([sample, { ...sample }])
    const { buckets } = await stored(m.id)
    expect(buckets).toEqual([expect.objectContaining({ energy_in_kwh: 0.5, samples: 1, power_sum: 2 })])
  })
})
