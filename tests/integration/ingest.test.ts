import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { auth, TEST_SIM_SEED } from './helpers.ts'
import { createSimulator } from '../../server/devices/simulator/index.ts'
import { startIngest, type IngestEnv } from './ingest-setup.ts'

// The ingestion API (server/api/ingest.ts): device keys, units, idempotency, registers as deltas, late data.
let env: IngestEnv
beforeAll(async () => {
  env = await startIngest()
  // Starting an app takes long on a machine shared with other suites.
})
afterAll(async () => env?.app.close())

const keys = (inst: number) => `/api/cockpit/installations/${inst}/device_keys/`

describe('device keys', () => {
  it('are created by the admin, shown once, listed without the key, and reach only their installation', async () => {
    const { api, tokens, demo, other, meter, send, at } = env
    const created = await api().post(keys(demo)).set(auth(tokens.admin)).send({ name: 'Basement gateway' }).expect(201)
    expect(created.headers['cache-control']).toBe('no-store')
    expect(created.body.key).toMatch(/^ck_[A-Za-z0-9_-]{43}$/)
    const listed = (await api().get(keys(demo)).set(auth(tokens.admin)).expect(200)).body
    const item = listed.results.find((k: { id: number }) => k.id === created.body.id)
    expect(item).toMatchObject({ name: 'Basement gateway', revoked_at: null })
    expect(JSON.stringify(listed)).not.toContain(created.body.key)
    // Stored hashed: the text is nowhere in the table.
    const rows = await env.db.selectFrom('device_keys').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(created.body.key)

    const own = await meter('main_power')
    const foreign = await meter('main_power', {}, other.installationId)
    const r = await send(created.body.key, [
      { meter_id: own.id, timestamp: at(), measurand: 'Power.Active.Import', unit: 'W', value: 1500 },
      { meter_id: foreign.id, timestamp: at(), measurand: 'Power.Active.Import', unit: 'W', value: 1500 },
      { meter_serial: foreign.serial, timestamp: at(), measurand: 'Power.Active.Import', unit: 'W', value: 1500 },
    ]).expect(202)
    expect(r.body).toEqual({ accepted: 1, duplicates: 0, rejected: [
      { index: 1, reason: `meter_id: no meter ${foreign.id} in this installation` },
      { index: 2, reason: `meter_serial: no meter with serial "${foreign.serial}" in this installation` },
    ] })
    expect((await env.stored(foreign.id)).raw).toEqual([])
  })

  it('answers 401 without a key, with a person\'s token, an unknown or a revoked key', async () => {
    const { api, tokens, demo, key, send, meter, at } = env
    const m = await meter('main_power')
    const reading = [{ meter_id: m.id, timestamp: at(), measurand: 'Power.Active.Import', unit: 'kW', value: 1 }]
    await api().post('/api/ingest/v1/readings').send({ readings: reading }).expect(401)
    await send(tokens.admin, reading).expect(401)
    await send('ck_' + 'x'.repeat(43), reading).expect(401)
    const k = await key()
    await send(k, reading).expect(202)
    const id = (await api().get(keys(demo)).set(auth(tokens.admin)).expect(200)).body.results[0].id
    await api().delete(`${keys(demo)}${id}/`).set(auth(tokens.admin)).expect(204)
    const refused = await send(k, reading).expect(401)
    expect(refused.body.detail).toBe('The device key is missing, unknown or revoked.')
    // A malformed body of a caller without a valid key still gets the 401, not the body's rules.
    await api().post('/api/ingest/v1/readings').set(auth(k)).send({ nope: true }).expect(401)
    const listed = (await api().get(keys(demo)).set(auth(tokens.admin)).expect(200)).body.results
    expect(listed.find((x: { id: number }) => x.id === id).revoked_at).not.toBeNull()
  })

  it('are managed only by admins of their installation and superusers', async () => {
    const { api, tokens, demo, other } = env
    await api().post(keys(demo)).set(auth(tokens.user)).send({ name: 'x' }).expect(403)
    await api().get(keys(demo)).set(auth(tokens.user)).expect(403)
    await api().get(keys(demo)).set(auth(tokens.bern)).expect(403)
    await api().post(keys(demo)).set(auth(tokens.bern)).send({ name: 'x' }).expect(403)
    await api().get(keys(demo)).set(auth(tokens.super)).expect(200)
    const own = (await api().post(keys(other.installationId)).set(auth(tokens.bern)).send({ name: 'Bern' }).expect(201)).body
    await api().delete(`${keys(demo)}${own.id}/`).set(auth(tokens.admin)).expect(404)
    await api().delete(`${keys(demo)}2147483647/`).set(auth(tokens.admin)).expect(404)
    await api().post(keys(demo)).set(auth(tokens.admin)).send({ name: '' }).expect(400)
  })
})

describe('readings', () => {
  it('converts units and books register rises as deltas; the first register only sets the baseline', async () => {
    const { meter, key, send, at, stored, clock } = env
    const m = await meter('main_power')
    const k = await key()
    const r1 = await send(k, [
      { meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'Wh', value: 1_000_000 },
      { meter_id: m.id, timestamp: at(), measurand: 'Power.Active.Import', unit: 'W', value: 2000 },
    ]).expect(202)
    expect(r1.body).toEqual({ accepted: 2, duplicates: 0, rejected: [] })
    await clock.advance(5_000)
    const r2 = await send(k, [
      { meter_serial: m.serial, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 1000.5 },
      { meter_serial: m.serial, timestamp: at(), measurand: 'Power.Active.Import', unit: 'kW', value: 3 },
      { meter_serial: m.serial, timestamp: at(), measurand: 'Voltage', unit: 'V', value: 231 },
    ]).expect(202)
    expect(r2.body).toEqual({ accepted: 3, duplicates: 0, rejected: [] })
    const { raw, buckets } = await stored(m.id)
    expect(raw.map((x) => [x.power_kw, x.energy_in_kwh])).toEqual([[2, 0], [3, 0.5]])
    expect(buckets).toHaveLength(1)
    expect(buckets[0]).toMatchObject({ energy_in_kwh: 0.5, power_sum: 5, samples: 2 })
    const meters = (await env.api().get(`/api/cockpit/installations/${env.demo}/meters/`).set(auth(env.tokens.admin)).expect(200)).body.results
    expect(meters.find((x: { id: number }) => x.id === m.id)).toMatchObject({ last_reading_at: new Date(clock.ms()).toISOString(), data_quality: { state: 'ok', reason: null } })
  })

  it('is idempotent: the same batch twice changes nothing and answers the duplicates', async () => {
    const { meter, key, send, at, stored, clock } = env
    const m = await meter('pv')
    const k = await key()
    await send(k, [{ meter_id: m.id, timestamp: at(-10_000), measurand: 'Energy.Active.Export.Register', unit: 'kWh', value: 10 }]).expect(202)
    const batch = [
      { meter_id: m.id, timestamp: at(-5_000), measurand: 'Energy.Active.Export.Register', unit: 'kWh', value: 10.01 },
      { meter_id: m.id, timestamp: at(-5_000), measurand: 'Power.Active.Export', unit: 'kW', value: 7.2 },
      { meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Export.Register', unit: 'kWh', value: 10.02 },
      { meter_id: m.id, timestamp: at(), measurand: 'Power.Active.Export', unit: 'kW', value: 7.2 },
    ]
    expect((await send(k, batch).expect(202)).body).toEqual({ accepted: 4, duplicates: 0, rejected: [] })
    const before = await stored(m.id)
    expect((await send(k, batch).expect(202)).body).toEqual({ accepted: 0, duplicates: 4, rejected: [] })
    // Twice in one batch: the second is a duplicate.
    expect((await send(k, [batch[0], batch[0]]).expect(202)).body).toEqual({ accepted: 0, duplicates: 2, rejected: [] })
    expect(await stored(m.id)).toEqual(before)
    // A PV meter's production is its export: energy_in and positive power.
    expect(before.buckets.reduce((s, b) => s + b.energy_in_kwh, 0)).toBeCloseTo(0.02, 9)
    expect(before.raw.every((x) => x.power_kw >= 0)).toBe(true)
    void clock
  })

  it('places late and out-of-order readings in their buckets and rollups, splitting the rise around them', async () => {
    const { meter, key, send, at, stored } = env
    const m = await meter('main_power')
    const k = await key()
    const hour = 3600_000
    // Newest first: 2 h ago 100 kWh, now 110 kWh (10 kWh booked now). The baseline's quarter hour has a
    // row of 0 kWh: it had a reading, it is no gap (server/domain/measurements/coverage.ts).
    await send(k, [{ meter_id: m.id, timestamp: at(-2 * hour), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 100 }]).expect(202)
    await send(k, [{ meter_id: m.id, timestamp: at(), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 110 }]).expect(202)
    let s = await stored(m.id)
    expect(s.buckets.map((b) => b.energy_in_kwh)).toEqual([0, 10])
    // A late reading 1 h ago of 104 kWh: 4 kWh go to its bucket, 6 stay now.
    const late = await send(k, [{ meter_id: m.id, timestamp: at(-hour), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 104 }]).expect(202)
    expect(late.body).toEqual({ accepted: 1, duplicates: 0, rejected: [] })
    s = await stored(m.id)
    expect(s.buckets.map((b) => b.energy_in_kwh)).toEqual([0, 4, 6])
    expect(s.hours.map((b) => b.energy_in_kwh)).toEqual([0, 4, 6])
    // Out of order within a batch, and before the first baseline: 95 kWh 3 h ago books 5 kWh at the old baseline.
    const r = await send(k, [
      { meter_id: m.id, timestamp: at(-1.5 * hour), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 101 },
      { meter_id: m.id, timestamp: at(-3 * hour), measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: 95 },
    ]).expect(202)
    expect(r.body).toEqual({ accepted: 2, duplicates: 0, rejected: [] })
    s = await stored(m.id)
    expect(s.buckets.map((b) => b.energy_in_kwh)).toEqual([0, 5, 1, 3, 6])
    expect(s.buckets.reduce((a, b) => a + b.energy_in_kwh, 0)).toBe(15)
    // The statistics of the day see the same 15 kWh.
    const day = await env.db.selectFrom('measurements_1d').select('energy_in_kwh').where('meter_id', '=', m.id).execute()
    expect(day.reduce((a, b) => a + b.energy_in_kwh, 0)).toBe(15)
  })

  it('takes water volumes in litres and heat energy registers', async () => {
    const { meter, key, send, at, stored, clock } = env
    const water = await meter('cold_water')
    const heat = await meter('heat')
    const k = await key()
    await send(k, [
      { meter_id: water.id, timestamp: at(), measurand: 'Volume', unit: 'm3', value: 12.5 },
      { meter_id: heat.id, timestamp: at(), measurand: 'Energy.Heat.Register', unit: 'MWh', value: 3 },
    ]).expect(202)
    await clock.advance(60_000)
    expect((await send(k, [
      { meter_id: water.id, timestamp: at(), measurand: 'Volume', unit: 'l', value: 12_530 },
      { meter_id: heat.id, timestamp: at(), measurand: 'Energy.Heat.Register', unit: 'kWh', value: 3000.25 },
    ]).expect(202)).body).toEqual({ accepted: 2, duplicates: 0, rejected: [] })
    expect((await stored(water.id)).buckets.reduce((a, b) => a + b.volume_m3, 0)).toBeCloseTo(0.03, 9)
    expect((await stored(heat.id)).buckets.reduce((a, b) => a + b.energy_in_kwh, 0)).toBeCloseTo(0.25, 9)
  })
})

describe('the simulator', () => {
  it('sends its meters through the ingestion service: registers continue and the first step counts', async () => {
    const { app, clock, db, demo } = env
    const simulator = createSimulator({ domain: app.domain!, seed: TEST_SIM_SEED, log: app.log, backfillDays: 0 })
    const main = (await db.selectFrom('meters').select('id').where('installation_id', '=', demo).where('meter_type', '=', 'main_power').where('source', '=', 'simulator').executeTakeFirstOrThrow()).id
    const t1 = clock.now()
    await simulator.tick(t1)
    await clock.advance(5000)
    await simulator.tick(clock.now())
    const readings = await db.selectFrom('meter_readings').select(['ts', 'measurand', 'value', 'delta_value', 'via']).where('meter_id', '=', main).where('measurand', '=', 'Energy.Active.Import.Register').orderBy('ts').execute()
    // A baseline at the first step's start (0 kWh), then the register counting up.
    expect(readings.map((r) => r.via)).toEqual(['simulator', 'simulator', 'simulator'])
    expect(readings[0].value).toBe(0)
    expect(readings[2].value).toBeGreaterThanOrEqual(readings[1].value)
    const raw = await db.selectFrom('measurements').select(['ts', 'power_kw', 'energy_in_kwh', 'energy_out_kwh']).where('meter_id', '=', main).where('ts', '>=', t1).orderBy('ts').execute()
    expect(raw).toHaveLength(2)
    // Power of the moment and energy of the step agree: import and export follow the power's sign.
    for (const r of raw) expect(r.power_kw > 0 ? r.energy_out_kwh : r.energy_in_kwh).toBe(0)
    // 09:00 in March: the PV roof produces from the first step on (its export, stored as its energy_in).
    const pv = (await db.selectFrom('meters').select('id').where('installation_id', '=', demo).where('meter_type', '=', 'pv').where('source', '=', 'simulator').executeTakeFirstOrThrow()).id
    const first = await db.selectFrom('measurements').select(['power_kw', 'energy_in_kwh']).where('meter_id', '=', pv).where('ts', '=', t1).executeTakeFirstOrThrow()
    expect(first.power_kw).toBeGreaterThan(0)
    expect(first.energy_in_kwh).toBeCloseTo(first.power_kw * 5 / 3600, 6)
  })
})
