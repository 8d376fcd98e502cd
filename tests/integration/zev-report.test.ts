import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

/**
 * The ZEV report by EnV Art. 16 against hand-computed figures. One hour, 10:00–11:00 on
 * 10 June 2025 (Europe/Zurich), four 15-minute intervals, each: PV 5 kWh, 1 kWh fed in, 1 kWh into the
 * battery, 1 kWh bought; flat 1 uses 2 kWh, flat 2 1 kWh, station 1 0.5 kWh, the other meters 0, so the
 * building's remainder is 4 − 3.5 = 0.5 kWh. Locally used PV 3 of a supply of 4: everyone's energy is
 * 75 % solar, 25 % grid. Seeded power rate (Rappen/kWh): purchase 24, standard product low 21 (no peak
 * spans), own energy (general) 27, feed-in 12.
 */
let app: FastifyInstance
let tokens: RoleTokens
const INST = 1
const api = () => request(app.server)
const range = 'start=2025-06-10T10:00:00%2B02:00&end=2025-06-10T11:00:00%2B02:00'

beforeAll(async () => {
  ;({ app, tokens } = await startWithTokens(['api']))
  const db = app.domain!.db
  const meters = await db.selectFrom('meters').select(['id', 'name', 'meter_type']).where('installation_id', '=', INST)
    .where('meter_type', 'in', ['main_power', 'pv', 'battery', 'power', 'charging_station']).execute()
  const energy: Record<string, [number, number]> = {
    'Main power connection': [1, 1], 'PV roof 30 kWp': [5, 0], 'Battery 20 kWh': [1, 0],
    'Electricity apartment 1': [2, 0], 'Electricity apartment 2': [1, 0], 'Charging station 1': [0.5, 0],
  }
  const rows = []
  for (let i = 0; i < 4; i++) {
    for (const m of meters) {
      const [e_in, e_out] = energy[m.name] ?? [0, 0]
      rows.push({ meter_id: m.id, bucket: new Date(Date.parse('2025-06-10T08:00:00Z') + i * 900_000), energy_in_kwh: e_in, energy_out_kwh: e_out, volume_m3: 0, power_sum: 0, samples: 1, soc_last: null })
    }
  }
  await db.insertInto('measurements_15m').values(rows).execute()
})
afterAll(async () => app?.close())

const zev = async (q = range, token = tokens.admin) => (await api().get(`/api/statistics/${INST}/zev?${q}`).set(auth(token)).expect(200)).body
const setModel = (body: object, token = tokens.admin) => api().put(`/api/zev/settings/?installation=${INST}`).set(auth(token)).send(body)

describe('ZEV model settings', () => {
  it('every member reads the model; admins set it within 0–80 %; others are refused', async () => {
    expect((await api().get(`/api/zev/settings/?installation=${INST}`).set(auth(tokens.user)).expect(200)).body).toEqual({ model: 'flat_rate', flat_percent: 80 })
    await setModel({ model: 'actual_costs', flat_percent: 80 }, tokens.user).expect(403)
    await setModel({ model: 'actual_costs', flat_percent: 80 }, tokens.bern).expect(403)
    const tooHigh = await setModel({ model: 'flat_rate', flat_percent: 81 }).set('Accept-Language', 'de').expect(400)
    expect(JSON.stringify(tooHigh.body)).toContain('höchstens 80 % des externen Standardstromprodukts')
    const wrong = await setModel({ model: 'free', flat_percent: 50 }).expect(400)
    expect(JSON.stringify(wrong.body)).toContain('Please choose a ZEV billing model')
    expect((await setModel({ model: 'flat_rate', flat_percent: 80 }).expect(200)).body).toEqual({ model: 'flat_rate', flat_percent: 80 })
  })
})

describe('ZEV report', () => {
  it('flat rate: 80 % of the standard product, participants in a stable order, a total row, stations left to their sessions', async () => {
    const r = await zev()
    expect(r.allocation.map((a: { name: string }) => a.name)).toEqual([
      'Apartment 1', 'Apartment 2', 'Apartment 3', 'Apartment 4', 'Apartment 5', 'Apartment 6', 'building',
      'Station 1', 'Station 2', 'Station 3', 'Station 4', 'Station 5', 'Station 6', 'Garage OCPP',
    ])
    const row = (name: string) => r.allocation.find((a: { name: string }) => a.name === name)
    // Flat 1: 8 kWh = 6 solar + 2 grid. Grid 2 × 24 = 48 Rp; standard 6 × 21 = 126 Rp; 80 % = 100.8 → 101.
    expect(row('Apartment 1')).toMatchObject({ consumption_kwh: 8, pv_kwh: 6, grid_kwh: 2, grid_chf: 0.48, standard_chf: 1.26, internal_chf: 1.01, cost_chf: 1.49, capped: false })
    // Flat 2: 4 kWh = 3 + 1. Grid 24 Rp; standard 63; 80 % = 50.4 → 50.
    expect(row('Apartment 2')).toMatchObject({ consumption_kwh: 4, grid_chf: 0.24, internal_chf: 0.5, cost_chf: 0.74 })
    // The building's remainder: 2 kWh = 1.5 + 0.5. Grid 12 Rp; standard 31.5; 80 % = 25.2 → 25.
    expect(row('building')).toMatchObject({ consumption_kwh: 2, grid_chf: 0.12, internal_chf: 0.25, cost_chf: 0.37 })
    // Station 1's 2 kWh are billed per charging session at the charging tariff: no ZEV money.
    expect(row('Station 1')).toMatchObject({ consumption_kwh: 2, billed_by_sessions: true, cost_chf: 0, grid_chf: 0, internal_chf: 0 })
    expect(r.zev).toMatchObject({ model: 'flat_rate', flat_percent: 80, cap_percent: 80, standard_chf_per_kwh: 0.21, cap_chf_per_kwh: 0.168, missing_intervals: 0, expected_intervals: 4 })
    // The total row is the sum of the rows.
    expect(r.zev.total).toMatchObject({ consumption_kwh: 16, pv_kwh: 12, grid_kwh: 4, grid_chf: 0.84, internal_chf: 1.76, cost_chf: 2.6 })
  })

  it('prices the same grid kWh the same in the chart costs and the ZEV report (the purchase price)', async () => {
    const totals = (await api().get(`/api/statistics/${INST}/totals?${range}&granularity=fifteen_minutes`).set(auth(tokens.admin)).expect(200)).body
    const r = await zev()
    const gridKwh = r.allocation.reduce((a: number, x: { grid_kwh: number }) => a + x.grid_kwh, 0)
    // 4 kWh bought, at 24 Rp: the chart's cost is exactly the ZEV's grid kWh at the ZEV's grid price.
    expect(totals.series.grid_import).toBeCloseTo(gridKwh, 6)
    expect(totals.series.cost).toBeCloseTo(gridKwh * 0.24, 6)
    for (const a of r.allocation.filter((x: { billed_by_sessions: boolean }) => !x.billed_by_sessions)) expect(a.grid_chf).toBeCloseTo(a.grid_kwh * 0.24, 6)
  })

  it('actual costs: own energy at its cost less the feed-in revenue, never above the standard product', async () => {
    await setModel({ model: 'actual_costs', flat_percent: 80 }).expect(200)
    // At 27 Rp/kWh own energy costs more than the standard product (21): flat 1: 6 × 27 = 162 less its
    // share of the 48 Rp feed-in revenue (6 of 12 internal kWh: 24) = 138 > 126 → capped at 126.
    let r = await zev()
    let row = (name: string) => r.allocation.find((a: { name: string }) => a.name === name)
    expect(r.zev).toMatchObject({ model: 'actual_costs', cap_percent: 100, feed_in_revenue_chf: 0.48, feed_in_deducted: true })
    expect(row('Apartment 1')).toMatchObject({ internal_chf: 1.26, capped: true })
    expect(row('Apartment 2')).toMatchObject({ internal_chf: 0.63, capped: true })
    // At 20 Rp/kWh the deduction shows: flat 1 6 × 20 − 24 = 96, flat 2 3 × 20 − 12 = 48, building 1.5 × 20 − 6 = 24.
    const db = app.domain!.db
    const rate = await db.selectFrom('rates').select(['id', 'prices']).where('installation_id', '=', INST).where('kind', '=', 'power').executeTakeFirstOrThrow()
    await db.updateTable('rates').set({ prices: JSON.stringify({ ...rate.prices, general: 20 }) }).where('id', '=', rate.id).execute()
    r = await zev()
    row = (name: string) => r.allocation.find((a: { name: string }) => a.name === name)
    expect(row('Apartment 1')).toMatchObject({ internal_chf: 0.96, capped: false, cost_chf: 1.44 })
    expect(row('Apartment 2')).toMatchObject({ internal_chf: 0.48, capped: false })
    expect(row('building')).toMatchObject({ internal_chf: 0.24, capped: false })
    expect(r.zev.total).toMatchObject({ internal_chf: 1.68, grid_chf: 0.84, cost_chf: 2.52 })
    await db.updateTable('rates').set({ prices: JSON.stringify(rate.prices) }).where('id', '=', rate.id).execute()
    await setModel({ model: 'flat_rate', flat_percent: 80 }).expect(200)
  })

  it('warns when the period has intervals without data', async () => {
    const r = await zev('start=2025-06-10T10:00:00%2B02:00&end=2025-06-10T11:30:00%2B02:00')
    expect(r.zev).toMatchObject({ expected_intervals: 6, missing_intervals: 2 })
  })

  it('the mailed report (CSV, PDF) states the model and the cap, warns of missing data and ends with the total row', async () => {
    const created = await api().post(`/api/cockpit/installations/${INST}/reports/`).set(auth(tokens.admin))
      .send({ name: 'ZEV 2025', report_type: 'zev', recipients: ['zev@example.org'], language: 'en' }).expect(201)
    await api().post(`/api/cockpit/installations/${INST}/reports/dispatch`).set(auth(tokens.admin)).send({ reportId: created.body.id, year: 2025 }).expect(202)
    const mail = await app.domain!.db.selectFrom('mail_outbox').selectAll().where('recipient', '=', 'zev@example.org').executeTakeFirstOrThrow()
    const files = mail.attachments as { filename: string; content_base64: string }[]
    const csv = Buffer.from(files[0].content_base64, 'base64').toString('utf8').split('\r\n')
    expect(csv[0]).toBe('\ufeffUnit;Consumption kWh;Solar kWh;Battery kWh;Grid kWh;Grid CHF;Solar & battery CHF;Cost CHF')
    expect(csv[1]).toBe('Apartment 1;8.000;6.000;0.000;2.000;0.48;1.01;1.49')
    expect(csv).toContain('Station 1 (billed per charging session);2.000;1.500;0.000;0.500;0.00;0.00;0.00')
    expect(csv).toContain('Total;16.000;12.000;0.000;4.000;0.84;1.76;2.60')
    expect(csv).toContain('Model: flat rate, 80 % of the external standard electricity product (EnV Art. 16 para. 1 let. b)')
    expect(csv).toContain('Cap: 80 % of the external standard product, on average CHF 0.1680/kWh (standard product CHF 0.2100/kWh)')
    // A whole year of which one hour has data.
    expect(csv.some((l) => /^Warning: 35036 of 35040 15-minute intervals of the period have missing meter data$/.test(l))).toBe(true)
    expect(mail.body_text).toContain('Cap: 80 %')
    expect(Buffer.from(files[1].content_base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-')
  })
})
