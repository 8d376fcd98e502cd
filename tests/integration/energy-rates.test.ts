import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { auth, startWithTokens, type RoleTokens } from './helpers.ts'

let app: FastifyInstance
let other: Awaited<ReturnType<typeof startWithTokens>>['other']
let tokens: RoleTokens
const INST = 1
const base = (kind = 'power', inst = INST) => `/api/cockpit/installations/${inst}/rates/${kind}/`
const api = () => request(app.server)

const inDays = (n: number) => {
  const d = new Date(app.clock.ms() + n * 86_400_000)
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(d)
}
const power = (over: Record<string, unknown> = {}) => ({
  name: 'Winter 2027',
  start_date: inDays(30),
  end_date: null,
  prices: { general: 0.27, peak: 0.295, low: 0.21, flat: 0.255, main_power_purchase: 0.24, solar_recovery_compensation: 0.12, electric_car: 0.26 },
  time_spans: [{ start: '07:00', end: '20:00', repetition: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] }],
  flat_enabled: false,
  ...over,
})

beforeAll(async () => {
  ;({ app, other, tokens } = await startWithTokens(['api']))
})
afterAll(async () => app?.close())

describe('rates: editability (SPEC §4)', () => {
  it('a future power rate is fully editable; the seeded started one only by name', async () => {
    const created = await api().post(base()).set(auth(tokens.admin)).send(power()).expect(201)
    expect(created.body).toMatchObject({ name: 'Winter 2027', editable: true, prices: { peak: 0.295 }, time_spans: [{ start: '07:00' }] })
    const id = created.body.id
    const edited = await api().put(`${base()}${id}/`).set(auth(tokens.admin)).send(power({ prices: { ...power().prices, peak: 0.31 }, flat_enabled: true })).expect(200)
    expect(edited.body).toMatchObject({ prices: { peak: 0.31 }, flat_enabled: true })
    expect((await api().get(`${base()}${id}/`).set(auth(tokens.admin)).expect(200)).body.prices.peak).toBe(0.31)

    const list = await api().get(base()).set(auth(tokens.admin)).expect(200)
    const seeded = list.body.results.find((r: { name: string }) => r.name === 'Power rate')
    expect(seeded.editable).toBe(false)
    const change = { name: seeded.name, start_date: seeded.start_date, end_date: seeded.end_date, prices: { ...seeded.prices, peak: 0.5 }, time_spans: seeded.time_spans, flat_enabled: false }
    const refused = await api().put(`${base()}${seeded.id}/`).set(auth(tokens.admin)).set('Accept-Language', 'de').send(change).expect(400)
    expect(refused.body).toEqual({ detail: 'Dieser Tarif gilt bereits: Nur sein Name kann geändert werden.' })
    expect((await api().get(`${base()}${seeded.id}/`).set(auth(tokens.admin))).body.prices.peak).toBe(0.295)
    // Renaming works by PATCH and by a PUT that changes nothing else.
    expect((await api().patch(`${base()}${seeded.id}/`).set(auth(tokens.admin)).send({ name: 'Power 2025' }).expect(200)).body.name).toBe('Power 2025')
    expect((await api().put(`${base()}${seeded.id}/`).set(auth(tokens.admin)).send({ ...change, name: 'Power rate', prices: seeded.prices }).expect(200)).body.name).toBe('Power rate')
    await api().patch(`${base()}${seeded.id}/`).set(auth(tokens.admin)).send({ name: 'x', prices: { peak: 1 } }).expect(400)
    await api().delete(`${base()}${seeded.id}/`).set(auth(tokens.admin)).expect(400)
    await api().delete(`${base()}${id}/`).set(auth(tokens.admin)).expect(204)
    await api().get(`${base()}${id}/`).set(auth(tokens.admin)).expect(404)
  })

  it('allows the flat rate only in a future rate', async () => {
    const today = await api().post(base()).set(auth(tokens.admin)).send(power({ start_date: inDays(0), flat_enabled: true })).expect(400)
    expect(today.body).toEqual({ flat_enabled: ['The flat rate can only be enabled in a future rate.'] })
    await api().post(base()).set(auth(tokens.admin)).send(power({ start_date: null, flat_enabled: true })).expect(400)
  })
})

describe('rates: messages (SPEC §5)', () => {
  it('names each bad price and bad time spans, in the caller language', async () => {
    const r = await api().post(base()).set(auth(tokens.admin)).send(power({ prices: { ...power().prices, peak: -1, low: 'cheap' }, time_spans: [{ start: '20:00', end: '07:00', repetition: ['monday'] }] })).expect(400)
    expect(r.body).toEqual({ peak: ['Please enter a valid rate'], low: ['Please enter a valid rate'], time_spans: ['Please enter valid rate times'] })
    const it = await api().post(base('water')).set(auth(tokens.admin)).set('Accept-Language', 'it').send({ name: 'Acqua', start_date: inDays(5), prices: { fresh_water: 2.1 } }).expect(400)
    expect(it.body).toEqual({ warm_water_production: ['Inserisca una tariffa valida'] })
    expect((await api().post(base('heat')).set(auth(tokens.admin)).send({ start_date: inDays(5), prices: { heat: 0.1 } }).expect(400)).body).toEqual({ name: ['The field is required.'] })
    expect((await api().post(base('heat')).set(auth(tokens.admin)).send({ name: 'H', prices: 5 }).expect(400)).body).toEqual({ prices: ['Please enter valid rates'] })
    await api().post(base('gas')).set(auth(tokens.admin)).send({ name: 'H' }).expect(400)
    const heat = await api().post(base('heat')).set(auth(tokens.admin)).send({ name: 'Heat 2027', start_date: inDays(5), prices: { heat: 0.13 } }).expect(201)
    expect(heat.body).toMatchObject({ kind: 'heat', prices: { heat: 0.13 } })
    expect(heat.body).not.toHaveProperty('time_spans')
  })
})

describe('rates and pricing: rights', () => {
  it('admins and superusers manage; a user reads only with the cost switch; other installations are refused', async () => {
    await api().get(base()).set(auth(tokens.super)).expect(200)
    await api().get(base()).set(auth(tokens.user)).expect(403)
    await api().post(base()).set(auth(tokens.user)).send(power()).expect(403)
    await api().get(base()).set(auth(tokens.bern)).expect(403)
    await api().post(base()).set(auth(tokens.bern)).send(power()).expect(403)
    await api().get(base('power', other.installationId)).set(auth(tokens.admin)).expect(403)
    expect((await api().get(base('power', other.installationId)).set(auth(tokens.bern)).expect(200)).body.count).toBe(0)
    const seeded = (await api().get(base()).set(auth(tokens.admin))).body.results[0]
    await api().get(`${base('power', other.installationId)}${seeded.id}/`).set(auth(tokens.bern)).expect(404)
    await api().post(base()).set(auth(tokens.super)).send(power({ name: 'By super' })).expect(201)

    const db = app.domain!.db
    const userId = (await db.selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
    const [perm] = await db.insertInto('permissions').values({ user_id: userId, installation_id: INST, object_type: 'charging_station', object_id: 0, level: 'read', cost: true, overview: false }).returning('id').execute()
    await api().get(base()).set(auth(tokens.user)).expect(200)
    await api().post(base()).set(auth(tokens.user)).send(power()).expect(403)
    await db.deleteFrom('permissions').where('id', '=', perm.id).execute()
  })

  it('GET /api/electricity-tariff/ gives the tariff in force to every role, or "Pricing is not found"', async () => {
    const r = await api().get(`/api/electricity-tariff/?installation=${INST}`).set(auth(tokens.user)).expect(200)
    expect(r.body).toMatchObject({ basic_tariff: 5, high_tariff: 0.295, low_tariff: 0.21, flat: false, schedule: [{ start: '07:00', end: '20:00', monday: 1 }, { saturday: 1 }] })
    await api().get(`/api/electricity-tariff/?installation=${other.installationId}`).set(auth(tokens.user)).expect(403)
    const none = await api().get(`/api/electricity-tariff/?installation=${other.installationId}`).set(auth(tokens.bern)).set('Accept-Language', 'fr').expect(404)
    expect(none.body).toEqual({ detail: 'Aucune tarification trouvée' })
    expect((await api().get('/api/electricity-tariff/').set(auth(tokens.user)).expect(400)).body).toEqual({ detail: 'No installationId' })
  })
})
