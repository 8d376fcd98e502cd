import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, AT, auth, HOURS, login, startApp } from './helpers.ts'
import { localDate, localMidnight } from '../../shared/rules/granularity.ts'
import { createTestClock } from '../../server/lib/clock.ts'

let app: FastifyInstance
let other: Awaited<ReturnType<typeof addOtherInstallation>>
let tokens: Record<'super' | 'admin' | 'user' | 'bern', string>
let ids: Record<string, number>
// The app's clock stands still unless a test moves it (ARCHITECTURE §1 "Time"): "today" and "latest"
// are judged at the instant the test chose.
const clock = createTestClock(AT.morning)
const INST = 1
const base = (inst = INST) => `/api/cockpit/installations/${inst}`
const api = () => request(app.server)
const get = (path: string, token: string) => api().get(`${base()}${path}`).set(auth(token))

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock }))
  other = await addOtherInstallation(app)
  const objects = await app.domain!.db.selectFrom('objects').select(['id', 'description']).where('installation_id', '=', INST).execute()
  ids = Object.fromEntries(objects.map((o) => [o.description, o.id]))
  // Today's readings for apartment 1's cold water meter at 09:00 (AT.morning): two 15-minute buckets.
  const meter = await app.domain!.db.selectFrom('meters').select('id').where('name', '=', 'Cold water apartment 1').executeTakeFirstOrThrow()
  await app.domain!.measurements.record([
    { meter_id: meter.id, ts: new Date(clock.ms() - 20 * 60_000), power_kw: 0, volume_m3: 0.125 },
    { meter_id: meter.id, ts: new Date(clock.ms() - 1000), power_kw: 0, volume_m3: 0.05 },
  ])
  tokens = {
    super: await login(app, 'super@example.com'),
    admin: await login(app, 'admin@example.com'),
    user: await login(app, 'user@example.com'),
    bern: await login(app, other.adminEmail),
  }
})
afterAll(async () => app?.close())

describe('objects and meters', () => {
  it('gives an admin the whole tree with meters by section and stations', async () => {
    const r = await get('/objects/', tokens.admin).expect(200)
    expect(r.body.count).toBe(1)
    const building = r.body.results[0]
    expect(building).toMatchObject({ description: 'Residence Zürich', object_type: 'building', parent_object_id: null })
    expect(building.electrical_meters.map((m: { meter_type: string }) => m.meter_type)).toEqual(['main_power', 'pv', 'battery'])
    expect(building.children.map((c: { description: string }) => c.description)).toEqual(['Apartment 1', 'Apartment 2', 'Apartment 3', 'Apartment 4', 'Apartment 5', 'Apartment 6', 'Common areas'])
    const garage = building.children[6].children[0]
    expect(garage.charging_stations).toHaveLength(7)
    const apt = (await get(`/objects/${ids['Apartment 1']}/`, tokens.super).expect(200)).body
    expect(apt.water_meters.map((m: { name: string }) => m.name)).toEqual(['Cold water apartment 1', 'Hot water apartment 1'])
    expect(apt.heating_meters).toHaveLength(1)
    // Each flat has its own electricity meter (ZEV participants billed on their own consumption).
    expect(apt.electrical_meters.map((m: { name: string; meter_type: string }) => [m.name, m.meter_type])).toEqual([['Electricity apartment 1', 'power']])
  })

  it('lists meters of an object subtree with today\'s figures, filtered by type', async () => {
    const all = await get(`/objects/${ids['Residence Zürich']}/meters/`, tokens.admin).expect(200)
    expect(all.body).toHaveLength(3 + 18 + 6 + 7)
    const cold = await get(`/objects/${ids['Apartment 1']}/meters/cold_water/`, tokens.admin).expect(200)
    expect(cold.body).toHaveLength(1)
    expect(cold.body[0]).toMatchObject({ unit: 'm3', today: { volume_m3: 0.175 }, latest: { power_kw: 0 } })
    await get(`/objects/${ids['Apartment 1']}/meters/gas/`, tokens.admin).expect(400)
  })

  it('pages batteries, pv, heat and water and counts categories', async () => {
    expect((await get('/water/?limit=5&offset=10', tokens.admin).expect(200)).body).toMatchObject({ count: 12, results: { length: 2 } })
    expect((await get('/heat/', tokens.admin).expect(200)).body.count).toBe(6)
    expect((await get('/batteries/', tokens.admin).expect(200)).body.results[0]).toMatchObject({ meter_type: 'battery', capacity: 20 })
    expect((await get('/pv/', tokens.admin).expect(200)).body.results[0]).toMatchObject({ meter_type: 'pv', capacity: 30 })
    expect((await get('/water/?limit=5000', tokens.admin).expect(400)).body).toHaveProperty('limit')
    const cats = await get('/categories', tokens.admin).expect(200)
    expect(cats.body.map((c: { category: string; count: number }) => [c.category, c.count])).toEqual([['electrical', 9], ['water', 12], ['heat', 6], ['charging_station', 7]])
  })

  it('shows a user only readable objects, main meters only with the overview switch; other installations refused', async () => {
    const plain = await get('/objects/', tokens.user).expect(200)
    expect(plain.body.results).toEqual([])
    await get(`/objects/${ids['Apartment 1']}/`, tokens.user).expect(403)
    await get('/batteries/', tokens.user).expect(403)
    await get('/pv/', tokens.user).expect(403)
    expect((await get('/flow', tokens.user).expect(200)).body.grid).toBeNull()
    expect((await get('/flow', tokens.admin).expect(200)).body.grid).toMatchObject({ power_kw: expect.any(Number) })
    expect((await get('/water/', tokens.user).expect(200)).body.count).toBe(0)
    expect((await get('/categories', tokens.user).expect(200)).body.find((c: { category: string }) => c.category === 'charging_station').count).toBe(2)

    const db = app.domain!.db
    const userId = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
    const [perm] = await db.insertInto('permissions').values({ user_id: userId, installation_id: INST, object_type: 'object', object_id: ids['Apartment 1'], level: 'read', cost: false, overview: false }).returning('id').execute()
    const mine = await get('/objects/', tokens.user).expect(200)
    expect(mine.body.results.map((o: { description: string }) => o.description)).toEqual(['Apartment 1'])
    expect((await get('/water/', tokens.user).expect(200)).body.count).toBe(2)
    await get(`/objects/${ids['Apartment 2']}/meters/`, tokens.user).expect(403)
    await get('/pv/', tokens.user).expect(403)
    await db.updateTable('permissions').set({ overview: true }).where('id', '=', perm.id).execute()
    expect((await get('/pv/', tokens.user).expect(200)).body.count).toBe(1)
    await db.deleteFrom('permissions').where('id', '=', perm.id).execute()

    await get('/objects/', tokens.bern).expect(403)
    await api().get(`${base(other.installationId)}/objects/${ids['Apartment 1']}/`).set(auth(tokens.bern)).expect(404)
    await api().get(`${base(other.installationId)}/objects/`).set(auth(tokens.admin)).expect(403)
    await get('/objects/', tokens.super).expect(200)
    await api().get(`${base(999)}/objects/`).set(auth(tokens.super)).expect(404)
  })
})

describe("today's figures count from local midnight (installation zone, Europe/Zurich)", () => {
  // Each case reads another flat's cold water meter, so the readings of one cannot reach another. The
  // DST cases are two hours after AT.springForward / AT.fallBack, after the clocks changed: 04:30 summer
  // time is 3.5 hours after midnight, 03:30 winter time 4.5 hours (the 02:00 hour came twice).
  const later = (iso: string) => new Date(Date.parse(iso) + 2 * 3_600_000).toISOString()
  const cases: [string, string, number][] = [
    ...HOURS.map((h) => [h, AT[h], { night: 3, morning: 9, evening: 21 }[h]] as [string, string, number]),
    ['after the spring change', later(AT.springForward), 3.5],
    ['after the autumn change', later(AT.fallBack), 4.5],
  ]
  it.each(cases.map(([name, at, hours], i) => [name, i + 2, at, hours] as const))('%s (apartment %i)', async (_name, apartment, at, hours) => {
    await clock.set(at)
    const now = clock.ms()
    const midnight = Date.parse(localMidnight(localDate(clock.now(), 'Europe/Zurich'), 'Europe/Zurich'))
    expect((now - midnight) / 3_600_000).toBe(hours)
    const meter = await app.domain!.db.selectFrom('meters').select('id').where('name', '=', `Cold water apartment ${apartment}`).executeTakeFirstOrThrow()
    await app.domain!.measurements.record([
      // One minute before midnight: yesterday's.
      { meter_id: meter.id, ts: new Date(midnight - 60_000), power_kw: 0, volume_m3: 1 },
      { meter_id: meter.id, ts: new Date(midnight), power_kw: 0, volume_m3: 0.25 },
      { meter_id: meter.id, ts: new Date(now - 60_000), power_kw: 0.5, volume_m3: 0.125 },
    ])
    // Tokens live 5 minutes of the clock's time: one issued at this instant.
    const token = await login(app, 'admin@example.com')
    const [view] = (await get(`/objects/${ids[`Apartment ${apartment}`]}/meters/cold_water/`, token).expect(200)).body
    expect(view).toMatchObject({ today: { volume_m3: 0.375 }, latest: { ts: new Date(now - 60_000).toISOString(), power_kw: 0.5 } })
  })
})
