import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

/**
 * One meter's own series: GET /api/statistics/{installation_id}/meter/{meter_id}, the
 * charts the installation view opens for a meter, instead of the facility-wide chart. Rights as the
 * installation view lists meters (SPEC §6): admins all; a resident a station meter of a readable
 * station, a flat's meters in a readable object, main meters only with the overview switch.
 */
let app: FastifyInstance
let tokens: RoleTokens
let other: Awaited<ReturnType<typeof startWithTokens>>['other']
let meters: Record<string, number>
const INST = 1
const url = (meterId: number, inst = INST) => `/api/statistics/${inst}/meter/${meterId}?start=2026-03-02&end=2026-03-03&granularity=hour`
const api = () => request(app.server)

beforeAll(async () => {
  ;({ app, tokens, other } = await startWithTokens(['api']))
  const db = app.domain!.db
  meters = Object.fromEntries((await db.selectFrom('meters').select(['id', 'name']).where('installation_id', '=', INST).execute()).map((m) => [m.name, m.id]))
  // 1 kWh of heat per quarter hour in each of flats 1 and 2 on 2 March 2026 10:00–11:00 local (09:00 UTC), and 0.5 kWh of electricity in flat 1.
  const rows = []
  for (let q = 0; q < 4; q++) {
    const bucket = new Date(Date.UTC(2026, 2, 2, 9, q * 15))
    const row = { bucket, energy_out_kwh: 0, volume_m3: 0, power_sum: 4, samples: 1, soc_last: null }
    rows.push({ ...row, meter_id: meters['Heat apartment 1'], energy_in_kwh: 1 }, { ...row, meter_id: meters['Heat apartment 2'], energy_in_kwh: 3 }, { ...row, meter_id: meters['Electricity apartment 1'], energy_in_kwh: 0.5 })
  }
  await db.insertInto('measurements_15m').values(rows).execute()
  // The resident may read flat 1 (an object entry), not flat 2.
  const flat1 = (await db.selectFrom('objects').select('id').where('installation_id', '=', INST).where('description', '=', 'Apartment 1').executeTakeFirstOrThrow()).id
  const user = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
  await db.insertInto('permissions').values({ user_id: user, installation_id: INST, object_type: 'object', object_id: flat1, level: 'read', cost: false, overview: false }).execute()
})
afterAll(async () => app?.close())

describe('GET /api/statistics/{installation_id}/meter/{meter_id}', () => {
  it("gives one meter's series only, named by its meter", async () => {
    const r = await api().get(url(meters['Heat apartment 1'])).set(auth(tokens.admin)).expect(200)
    expect(r.body.meter).toEqual({ id: meters['Heat apartment 1'], name: 'Heat apartment 1', meter_type: 'heat' })
    expect(Object.keys(r.body.series)).toEqual(['heat'])
    expect(r.body.units.heat).toBe('kWh')
    expect(r.body.series.heat).toHaveLength(24)
    // Flat 2's 12 kWh are not in flat 1's chart (the facility-wide figure would be 16).
    expect(r.body.series.heat.reduce((s: number, b: { value: number }) => s + b.value, 0)).toBe(4)
    expect(r.body.series.heat.find((b: { start: string }) => b.start === '2026-03-02T10:00:00+01:00').value).toBe(4)
    const power = await api().get(`${url(meters['Electricity apartment 1'])}&flow=true`).set(auth(tokens.admin)).expect(200)
    expect(power.body.units).toEqual({ electricity: 'kWh', electricity_flow: 'kW' })
    expect(power.body.series.electricity.find((b: { start: string }) => b.start === '2026-03-02T10:00:00+01:00').value).toBe(2)
    expect(power.body.series.electricity_flow.find((b: { start: string }) => b.start === '2026-03-02T10:00:00+01:00').value).toBe(2)
  })

  it("gives a flat's own electricity, heat and water under …/object/{id}", async () => {
    const flat1 = (await app.domain!.db.selectFrom('objects').select('id').where('installation_id', '=', INST).where('description', '=', 'Apartment 1').executeTakeFirstOrThrow()).id
    const r = await api().get(`/api/statistics/${INST}/object/${flat1}?start=2026-03-02&end=2026-03-03&granularity=day`).set(auth(tokens.user)).expect(200)
    expect(r.body.series.electricity[0].value).toBe(2)
    expect(r.body.series.heat[0].value).toBe(4)
    expect(Object.keys(r.body.series)).toEqual(expect.arrayContaining(['cold_water', 'hot_water']))
  })

  it('lets a resident read the meters of a readable flat and station, nothing else', async () => {
    await api().get(url(meters['Heat apartment 1'])).set(auth(tokens.user)).expect(200)
    await api().get(url(meters['Electricity apartment 1'])).set(auth(tokens.user)).expect(200)
    await api().get(url(meters['Heat apartment 2'])).set(auth(tokens.user)).expect(403)
    await api().get(url(meters['Main power connection'])).set(auth(tokens.user)).expect(403)
    await api().get(url(meters['Charging station 1'])).set(auth(tokens.user)).expect(200)
    await api().get(url(meters['Charging station 3'])).set(auth(tokens.user)).expect(403)
  })

  it("keeps installations apart: another installation's admin gets 403, and a meter id of another installation is 404", async () => {
    await api().get(url(meters['Heat apartment 1'])).set(auth(tokens.bern)).expect(403)
    await api().get(url(meters['Heat apartment 1'], other.installationId)).set(auth(tokens.bern)).expect(404)
    await api().get(url(meters['Heat apartment 1'], other.installationId)).set(auth(tokens.super)).expect(404)
    await api().get(url(999_999)).set(auth(tokens.admin)).expect(404)
  })

  it('is in the OpenAPI document', async () => {
    const doc = (await api().get('/api/swagger.json').expect(200)).body
    const op = doc.paths['/api/statistics/{installationId}/{objectType}/{objectId}'].get
    expect(JSON.stringify(op.parameters)).toContain('meter')
  })
})
