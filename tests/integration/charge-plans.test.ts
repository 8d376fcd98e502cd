import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { auth, login, seededSecond, startApp } from './helpers.ts'
import { createTestClock, type TestClock } from '../../server/lib/clock.ts'

/**
 * Charge plans (docs/decisions.md "Load management: charge plans") on the test clock: Wednesday
 * 4 March 2026 at 22:00 in Zürich, the demo's low tariff from 20:00 to 07:00, a 32 A connection with
 * 3 kW of building load. Laura's car (solar mode: at night it would not charge at all) and a neighbour's
 * (instant) charge; Laura sets "30 kWh by 07:00" on her card. Each quarter hour the test reports the
 * meter and what the cars drew at their limits, and runs one control round. The cars stay within the
 * connection, and Laura's car has its 30 kWh by 07:00. A plan that cannot be met warns in the caller's
 * language; bad input and other people's cards and stations are refused.
 */
const START = '2026-03-04T22:00:00+01:00'
const LIMIT_A = 32
const BUILDING_KW = 3
const QUARTER = 15 * 60_000
const KW_PER_A = (3 * 230) / 1000

let app: Awaited<ReturnType<typeof startApp>>['app']
let clock: TestClock
let admin: string
let resident: string
let stationA: number
let stationB: number
let stationC: number
let card: number
let otherCard: number
let sessionA: number
let sessionB: number
let mainMeter: number
let other: Awaited<ReturnType<typeof seededSecond>>

const api = () => request(app.server)
const db = () => app.domain!.db
const base = '/api/cockpit/installations/1'

/** An open session at `stationId` for card `rfidId` (0 kWh so far), the station charging in `mode`. */
async function charge(stationId: number, rfidId: number | null, userId: number | null, mode: string): Promise<number> {
  const s = await db().insertInto('charging_sessions').values({ installation_id: 1, station_id: stationId, rfid_id: rfidId, user_id: userId, start: clock.now(), end: null, energy_kwh: 0, high_kwh: 0, low_kwh: 0, price_rappen: 0, fee_rappen: 0, status: 'charging', paid_on: null, set_by_timer: false }).returning('id').executeTakeFirstOrThrow()
  await db().updateTable('charging_stations').set({ status: 'charging', charging_mode: mode, current_session_id: s.id, power_kw: 0, capacity_kw: 11, phases: 3 }).where('id', '=', stationId).execute()
  return s.id
}

/** The grid meter now: the building's load and what the stations draw. */
async function meter(): Promise<void> {
  const draw = (await db().selectFrom('charging_stations').select('power_kw').where('installation_id', '=', 1).execute()).reduce((a, s) => a + s.power_kw, 0)
  await db().insertInto('measurements').values({ meter_id: mainMeter, ts: clock.now(), power_kw: BUILDING_KW + draw, energy_in_kwh: 0, energy_out_kwh: 0, soc: null, volume_m3: 0 }).execute()
}

const limitOf = async (stationId: number) => (await db().selectFrom('load_limits').select(['limit_a', 'reason']).where('station_id', '=', stationId).executeTakeFirstOrThrow())

/** One control round now: the limits of the two cars. */
async function round(): Promise<{ a: number; b: number }> {
  await meter()
  await app.control!.run()
  return { a: (await limitOf(stationA)).limit_a ?? 0, b: (await limitOf(stationB)).limit_a ?? 0 }
}

/** A quarter hour of charging at the limits `a` and `b` (what the cars draw and the sessions count). */
async function drive({ a, b }: { a: number; b: number }): Promise<void> {
  for (const [station, session, amps] of [[stationA, sessionA, a], [stationB, sessionB, b]] as const) {
    const kw = amps * KW_PER_A
    await db().updateTable('charging_stations').set({ power_kw: kw }).where('id', '=', station).execute()
    const s = await db().selectFrom('charging_sessions').select('energy_kwh').where('id', '=', session).executeTakeFirstOrThrow()
    await db().updateTable('charging_sessions').set({ energy_kwh: s.energy_kwh + kw / 4 }).where('id', '=', session).execute()
  }
  await clock.set(new Date(clock.ms() + QUARTER))
}

beforeAll(async () => {
  clock = createTestClock(START)
  app = (await startApp({ roles: ['api'], clock })).app
  other = await seededSecond(app)
  admin = await login(app, 'admin@example.com')
  resident = await login(app, 'user@example.com')
  const laura = (await db().selectFrom('users').select('id').where('email', '=', 'user@example.com').executeTakeFirstOrThrow()).id
  const stations = (await db().selectFrom('charging_stations').select('id').where('installation_id', '=', 1).where('archived_at', 'is', null).orderBy('id').execute()).map((s) => s.id)
  ;[stationA, stationB, stationC] = stations
  const cards = await db().selectFrom('rfids').select(['id', 'user_id']).where('installation_id', '=', 1).orderBy('id').execute()
  card = cards.find((c) => c.user_id === laura)!.id
  otherCard = cards.find((c) => c.user_id !== laura)!.id
  mainMeter = (await db().selectFrom('meters').select('id').where('installation_id', '=', 1).where('meter_type', '=', 'main_power').executeTakeFirstOrThrow()).id
  // Only the two cars of the test charge.
  await db().updateTable('charging_stations').set({ status: 'noCar', power_kw: 0, current_session_id: null }).where('installation_id', '=', 1).execute()
  await db().updateTable('charging_sessions').set({ end: clock.now() }).where('installation_id', '=', 1).where('end', 'is', null).execute()
  await api().put(`${base}/load_management`).set(auth(admin)).send({ enabled: true, grid_limit_a: LIMIT_A, circuits: [] }).expect(200)
  sessionA = await charge(stationA, card, laura, 'solar')
  sessionB = await charge(stationB, otherCard, null, 'instant')
})
afterAll(async () => {
  await app?.close()
})

describe('a charge plan on the test clock', () => {
  it('brings "30 kWh by 07:00" into a solar car from the night\'s low tariff, within the connection', async () => {
    await api().get(`${base}/rfids/${card}/charge_plan`).set(auth(resident)).expect(200).expect((r) => expect(r.body).toBeNull())
    const set = await api().put(`${base}/rfids/${card}/charge_plan`).set(auth(resident)).send({ energy_kwh: 30, deadline: '07:00' }).expect(200)
    expect(set.body).toMatchObject({ rfid_id: card, station_id: null, energy_kwh: 30, deadline: '07:00', repeat: false, active: true, charged_kwh: 0, next_deadline: '2026-03-05T06:00:00.000Z' })
    // Audited: who set what for which card.
    const audit = (await api().get(`${base}/audit/?entity_type=charge_plan`).set(auth(admin)).expect(200)).body.results
    expect(audit[0]).toMatchObject({ action: 'create', entity_type: 'charge_plan', entity_id: `rfid:${card}`, before: null, after: { energy_kwh: 30, deadline_time: '07:00' } })

    const first = await round()
    expect(first.a).toBeGreaterThan(0)
    expect((await limitOf(stationA)).reason).toBe('plan_priority')
    const planned = (await api().get(`${base}/rfids/${card}/charge_plan`).set(auth(resident)).expect(200)).body
    expect(planned.reachable).toBe(true)
    expect(planned.warning).toBeNull()
    expect(planned.slots.length).toBeGreaterThan(0)
    expect(planned.slots.every((s: { source: string; end: string }) => s.source === 'low_tariff' && Date.parse(s.end) <= Date.parse('2026-03-05T06:00:00Z'))).toBe(true)
    // The running session's remaining time comes from its plan: not drawing yet, until the last slot's end.
    const remaining = async () => ((await api().get(`/api/rfids-charge/${sessionA}/`).set(auth(resident)).expect(200)).body as { remaining_s: number | null }).remaining_s
    expect(await remaining()).toBe(Math.round((Date.parse(planned.slots.at(-1).end) - clock.ms()) / 1000))
    // Drawing: 30 kWh at the car's power now.
    await db().updateTable('charging_stations').set({ power_kw: 10 }).where('id', '=', stationA).execute()
    expect(await remaining()).toBe(Math.round((30 / 10) * 3600))
    // The other car's session has no plan: no remaining time.
    expect(((await api().get(`/api/rfids-charge/${sessionB}/`).set(auth(admin)).expect(200)).body as { remaining_s: number | null }).remaining_s).toBeNull()
    await drive(first)

    // 3 kW of building load on three phases: 4.35 A; the cars share what is left of 32 A.
    const room = LIMIT_A - (BUILDING_KW * 1000) / (3 * 230)
    while (clock.ms() < Date.parse('2026-03-05T07:00:00+01:00')) {
      const limits = await round()
      expect(limits.a + limits.b).toBeLessThanOrEqual(room + 0.05)
      await drive(limits)
    }
    const energy = (await db().selectFrom('charging_sessions').select('energy_kwh').where('id', '=', sessionA).executeTakeFirstOrThrow()).energy_kwh
    expect(energy).toBeGreaterThanOrEqual(30)
    // Once there, the plan asks for nothing more: a solar car at night waits.
    expect(energy).toBeLessThan(33)
    expect((await limitOf(stationA)).limit_a).toBe(0)
    resident = await login(app, 'user@example.com')
    const done = (await api().get(`${base}/rfids/${card}/charge_plan`).set(auth(resident)).expect(200)).body
    expect(done).toMatchObject({ active: false, next_deadline: null })
    // The plan is met: nothing remains.
    expect(((await api().get(`/api/rfids-charge/${sessionA}/`).set(auth(resident)).expect(200)).body as { remaining_s: number | null }).remaining_s).toBe(0)
  }, 240_000)

  it('warns in the caller\'s language when the target cannot be reached by the deadline', async () => {
    admin = await login(app, 'admin@example.com')
    // 07:00: 100 kWh by 08:00 cannot fit through an 11 kW station.
    await api().put(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(admin)).send({ energy_kwh: 100, deadline: '08:00' }).expect(200)
    await round()
    const en = (await api().get(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(admin)).expect(200)).body
    expect(en.reachable).toBe(false)
    expect(en.warning).toMatch(/^100 kWh cannot be reached by 08:00 .*about 1\d(\.\d)? kWh by then\.$/)
    const de = (await api().get(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(admin)).set('Accept-Language', 'de').expect(200)).body
    expect(de.warning).toMatch(/^100 kWh sind bis 08:00 innerhalb der Grenzen des Hausanschlusses nicht erreichbar/)
    const it = (await api().get(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(admin)).set('Accept-Language', 'it').expect(200)).body
    expect(it.warning).toMatch(/^100 kWh non sono raggiungibili entro le 08:00/)
    await api().delete(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(admin)).expect(204)
    const removed = (await api().get(`${base}/audit/?entity_type=charge_plan`).set(auth(admin)).expect(200)).body.results[0]
    expect(removed).toMatchObject({ action: 'delete', entity_id: `station:${stationB}`, before: { energy_kwh: 100, deadline_time: '08:00' }, after: null })
    await api().get(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(admin)).expect(200).expect((r) => expect(r.body).toBeNull())
  })

  it('refuses bad input with a message naming the field, in the caller\'s language, and stores nothing', async () => {
    resident = await login(app, 'user@example.com')
    await api().delete(`${base}/rfids/${card}/charge_plan`).set(auth(resident)).expect(204)
    const put = (body: object, lang = 'en') => api().put(`${base}/rfids/${card}/charge_plan`).set(auth(resident)).set('Accept-Language', lang).send(body)
    expect((await put({ energy_kwh: 0, deadline: '07:00' }).expect(400)).body.energy_kwh[0]).toMatch(/more than 0 and at most 200/)
    expect((await put({ energy_kwh: 250, deadline: '07:00' }, 'de').expect(400)).body.energy_kwh[0]).toMatch(/höchstens 200/)
    expect((await put({ energy_kwh: 10, deadline: '2026-03-05T06:00:00+01:00' }).expect(400)).body.deadline[0]).toBe('The deadline has already passed. Choose a time in the future.')
    expect((await put({ energy_kwh: 10, deadline: '2026-03-20T06:00:00+01:00' }, 'fr').expect(400)).body.deadline[0]).toMatch(/plus d’une semaine/)
    expect((await put({ energy_kwh: 10, deadline: '07:00', repeat: true }).expect(400)).body.repeat_days).toEqual(['The field is required.'])
    expect((await put({ energy_kwh: 10, deadline: '25:00' }).expect(400)).body.deadline).toHaveLength(1)
    await put({ energy_kwh: 'lots', deadline: '07:00' }).expect(400)
    expect(await db().selectFrom('charge_plans').select('id').where('rfid_id', '=', card).executeTakeFirst()).toBeUndefined()
    // A repeating plan on weekdays, then "full".
    const weekdays = { repeat_monday: true, repeat_tuesday: true, repeat_wednesday: true, repeat_thursday: true, repeat_friday: true }
    const rep = (await put({ energy_kwh: 'full', deadline: '07:00', repeat: true, ...weekdays }).expect(200)).body
    // Thursday 5 March 07:30 local: the next weekday 07:00 is Friday.
    expect(rep).toMatchObject({ energy_kwh: 'full', repeat: true, repeat_friday: true, repeat_saturday: false, next_deadline: '2026-03-06T06:00:00.000Z' })
    // A station without a running session has nothing to plan.
    expect((await api().put(`${base}/charging_stations/${stationC}/charge_plan`).set(auth(admin)).set('Accept-Language', 'de').send({ energy_kwh: 10, deadline: '09:00' }).expect(409)).body.detail).toMatch(/^An dieser Ladestation lädt kein Auto/)
  })

  it('keeps other people\'s cards and stations, and other installations, out of reach', async () => {
    const body = { energy_kwh: 10, deadline: '09:00' }
    // Someone else's card: not readable, so not found.
    await api().put(`${base}/rfids/${otherCard}/charge_plan`).set(auth(resident)).send(body).expect(404)
    await api().get(`${base}/rfids/${otherCard}/charge_plan`).set(auth(resident)).expect(404)
    // A station Laura may only read, with someone else's car: read yes, plan no.
    await api().get(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(resident)).expect(200)
    await api().put(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(resident)).send(body).expect(403)
    await api().delete(`${base}/charging_stations/${stationB}/charge_plan`).set(auth(resident)).expect(403)
    // Her own car at a station she may only read: she may plan it.
    await api().put(`${base}/charging_stations/${stationA}/charge_plan`).set(auth(resident)).send(body).expect(200)
    // A station she may not read.
    await api().get(`${base}/charging_stations/${stationC}/charge_plan`).set(auth(resident)).expect(404)
    // The other installation's admin, here; and this admin with the other installation's ids.
    await api().put(`${base}/rfids/${card}/charge_plan`).set(auth(await login(app, other.adminEmail))).send(body).expect(403)
    await api().put(`${base}/charging_stations/${other.stationIds[0]}/charge_plan`).set(auth(admin)).send(body).expect(404)
    await api().get(`${base}/rfids/${other.rfidIds[0]}/charge_plan`).set(auth(admin)).expect(404)
    const huge = await api().get(`${base}/rfids/2147483648/charge_plan`).set(auth(admin))
    expect([400, 404]).toContain(huge.status)
    // The superuser may.
    const su = await login(app, 'super@example.com')
    await api().get(`${base}/charging_stations/${stationA}/charge_plan`).set(auth(su)).expect(200).expect((r) => expect(r.body.energy_kwh).toBe(10))
  })
})
