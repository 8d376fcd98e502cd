import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, auth, login, startApp } from './helpers.ts'

// GET /api/cockpit/installations/{id}/overview: the Overview screen in one call.
let app: FastifyInstance
let other: Awaited<ReturnType<typeof addOtherInstallation>>
let tokens: Record<'admin' | 'user' | 'bern', string>
const INST = 1
const api = () => request(app.server)
const overview = (token: string, inst = INST) => api().get(`/api/cockpit/installations/${inst}/overview`).set(auth(token))

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'] }))
  other = await addOtherInstallation(app)
  const db = app.domain!.db
  const meter = async (name: string) => (await db.selectFrom('meters').select('id').where('name', '=', name).where('installation_id', '=', INST).executeTakeFirstOrThrow()).id
  const mainPower = (await db.selectFrom('meters').select('id').where('meter_type', '=', 'main_power').where('installation_id', '=', INST).executeTakeFirstOrThrow()).id
  const ts = new Date(app.clock.ms() - 1000)
  // Today's readings: water and heat of apartment 1, and PV fed into the grid at the main connection.
  await app.domain!.measurements.record([
    { meter_id: await meter('Cold water apartment 1'), ts, power_kw: 0, volume_m3: 0.25 },
    { meter_id: await meter('Hot water apartment 1'), ts, power_kw: 0, volume_m3: 0.125 },
    { meter_id: await meter('Heat apartment 1'), ts, power_kw: 1.5, energy_in_kwh: 3.5 },
    { meter_id: mainPower, ts, power_kw: -2, energy_in_kwh: 0.5, energy_out_kwh: 1.25 },
  ])
  tokens = {
    admin: await login(app, 'admin@example.com'),
    user: await login(app, 'user@example.com'),
    bern: await login(app, other.adminEmail),
  }
})
afterAll(async () => app?.close())

describe('GET …/overview', () => {
  it('gives an admin the live power flow plus today\'s water, heat, energy return and totals', async () => {
    const r = await overview(tokens.admin).expect(200)
    const metrics = await api().get(`/api/metrics/?installation=${INST}`).set(auth(tokens.admin)).expect(200)
    // The live power flow keeps GET /api/metrics/'s fields and values.
    const { water: liveWater, ...live } = metrics.body
    expect(r.body).toMatchObject(live)
    expect(r.body.water).toMatchObject(liveWater)
    expect(r.body.water.cold_m3).toBeCloseTo(0.25, 5)
    expect(r.body.water.hot_m3).toBeCloseTo(0.125, 5)
    expect(r.body.water.today_m3).toBeCloseTo(0.375, 1) // rounded to 2 decimals like metrics
    expect(r.body.heat.today_kwh).toBeCloseTo(3.5, 5)
    expect(r.body.energy_return).toMatchObject({ today_kwh: 1.25 })
    expect(r.body.energy_return.month_kwh).toBeGreaterThanOrEqual(1.25)
    expect(r.body.energy_return.year_kwh).toBeGreaterThanOrEqual(r.body.energy_return.month_kwh)
    // The records begin today, so "this year" and "this month" say they count from today.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(app.clock.now())
    expect(r.body.energy_return).toMatchObject({ month_since: today, year_since: today })
    // Today's totals are those of GET /api/statistics/{id}/totals for the local day.
    const { start, end } = r.body.today
    const totals = await api().get(`/api/statistics/${INST}/totals`).query({ start, end }).set(auth(tokens.admin)).expect(200)
    expect(r.body.today.series).toEqual(totals.body.series)
    expect(r.body.today.units).toMatchObject({ heat: 'kWh', cold_water: 'm3', cost: 'CHF' })
    expect(r.body.today.series.grid_export).toBeCloseTo(1.25, 5)
  })

  it('hides water, heat, energy return and main meters from a user without the overview switch', async () => {
    const r = await overview(tokens.user).expect(200)
    expect(r.body).toMatchObject({ grid: null, pv: null, battery: null, building: null, water: null, heat: null, energy_return: null, e_sourced_today: null, consumption_today: null })
    expect(Object.keys(r.body.charging_stations.stations).map(Number)).toEqual([1, 2])
    expect(Object.keys(r.body.today.series)).toEqual(['charging_stations'])
    const { start, end } = r.body.today
    const totals = await api().get(`/api/statistics/${INST}/totals`).query({ start, end }).set(auth(tokens.user)).expect(200)
    expect(r.body.today.series).toEqual(totals.body.series)
  })

  it('shows the same user water, heat and energy return once the overview switch is on, costs only with the cost switch', async () => {
    const db = app.domain!.db
    const userId = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
    const [perm] = await db.insertInto('permissions').values({ user_id: userId, installation_id: INST, object_type: 'charging_station', object_id: 0, level: 'read', cost: false, overview: true }).returning('id').execute()
    try {
      const r = await overview(tokens.user).expect(200)
      expect(r.body.heat.today_kwh).toBeCloseTo(3.5, 5)
      expect(r.body.water.cold_m3).toBeCloseTo(0.25, 5)
      expect(r.body.energy_return.today_kwh).toBeCloseTo(1.25, 5)
      expect(r.body.grid).not.toBeNull()
      expect(r.body.today.series).not.toHaveProperty('cost')
    } finally {
      await db.deleteFrom('permissions').where('id', '=', perm.id).execute()
    }
  })

  it('refuses another installation and answers 404 for an unknown one', async () => {
    await overview(tokens.bern).expect(403)
    await overview(tokens.admin, other.installationId).expect(403)
    await overview(tokens.user, other.installationId).expect(403)
    await overview(tokens.admin, 999).expect(404)
    await api().get(`/api/cockpit/installations/${INST}/overview`).expect(401)
  })
})
