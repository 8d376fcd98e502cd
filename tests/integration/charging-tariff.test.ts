import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { addOtherInstallation, AT, auth, login, startApp, type RoleTokens } from './helpers.ts'
import { sql } from 'kysely'
import { createTestClock } from '../../server/lib/clock.ts'

// Admins set the charging tariff (PUT /api/electricity-tariff/), versioned by validity date;
// every session keeps the price of the version valid when it started.
let app: FastifyInstance
let tokens: RoleTokens
let other: Awaited<ReturnType<typeof addOtherInstallation>>
// The app's clock stands still at a Wednesday morning unless a test moves it: "today" is its local day.
const clock = createTestClock(AT.morning)
const INST = 1
const api = () => request(app.server)
const url = (inst = INST) => `/api/electricity-tariff/?installation=${inst}`

/** The local date `n` days after the app clock's today (Europe/Zurich), "YYYY-MM-DD". */
const inDays = (n: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(new Date(clock.ms() + n * 86_400_000))
const weekdays = { monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0 } as const
const version = (over: Record<string, unknown> = {}) => ({
  name: 'Tariff 2027', basic_tariff: 6, high_tariff: 0.4, low_tariff: 0.25, flat_tariff: null, flat: false,
  valid_from: inDays(1), schedule: [{ start: '06:00', end: '22:00', ...weekdays }], ...over,
})

beforeAll(async () => {
  ;({ app } = await startApp({ roles: ['api'], clock }))
  other = await addOtherInstallation(app)
  tokens = { super: await login(app, 'super@example.com'), admin: await login(app, 'admin@example.com'), user: await login(app, 'user@example.com'), bern: await login(app, other.adminEmail) }
})
afterAll(async () => app?.close())

describe('setting the charging tariff', () => {
  it('refuses everyone but the installation\'s admins and superusers', async () => {
    await api().put(url()).send(version()).expect(401)
    expect((await api().put(url()).set(auth(tokens.user)).send(version()).expect(403)).body).toEqual({ detail: expect.any(String) })
    await api().put(url()).set(auth(tokens.bern)).send(version()).expect(403)
    expect((await api().get(`/api/electricity-tariff/versions/?installation=${INST}`).set(auth(tokens.user)).expect(200)).body).toHaveLength(1)
    await api().get(`/api/electricity-tariff/versions/?installation=${INST}`).set(auth(tokens.bern)).expect(403)
  })

  it('answers the SPEC §5 rate messages by field, in the caller\'s language', async () => {
    const bad = await api().put(url()).set(auth(tokens.admin)).send(version({ high_tariff: -0.1, low_tariff: 12, basic_tariff: 5000, schedule: [{ start: '25:00', end: '07:00', ...weekdays }] })).expect(400)
    expect(bad.body).toEqual({
      high_tariff: ['Please enter a valid rate'], low_tariff: ['Please enter a valid rate'], basic_tariff: ['Please enter a valid rate'],
      schedule: ['Please enter valid rate times'],
    })
    const unreadable = await api().put(url()).set(auth(tokens.admin)).send(version({ high_tariff: null, basic_tariff: null })).expect(400)
    expect(unreadable.body).toEqual({ high_tariff: ['Please enter a valid rate'], basic_tariff: ['Please enter a valid rate'] })
    const de = await api().put(url()).set(auth(tokens.admin)).set('Accept-Language', 'de').send(version({ flat: true, flat_tariff: null })).expect(400)
    expect(de.body).toEqual({ flat_tariff: ['Das Feld ist erforderlich.'] })
  })

  it('never changes a version that has started: a new one starts after today', async () => {
    for (const day of [inDays(0), inDays(-30), '2026-02-30']) {
      const r = await api().put(url()).set(auth(tokens.admin)).send(version({ valid_from: day })).expect(400)
      expect(Object.keys(r.body)).toEqual(['valid_from'])
    }
    const r = await api().put(url()).set(auth(tokens.admin)).send(version({ valid_from: inDays(0) })).expect(400)
    expect(r.body.valid_from[0]).toMatch(/only start after today/)
    expect((await api().get(url()).set(auth(tokens.admin)).expect(200)).body).toMatchObject({ high_tariff: 0.295, low_tariff: 0.21, valid_to: null, editable: false })
  })

  it('a version from tomorrow leaves the hourly and daily rollups of past days as they were (migration 0177)', async () => {
    const db = app.domain!.db
    // Yesterday's grid import of the installation's main meter, rolled up by the database (migration 0060).
    const main = await db.selectFrom('meters').select('id').where('installation_id', '=', INST).where('meter_type', '=', 'main_power').orderBy('id').executeTakeFirstOrThrow()
    const from = clock.ms() - 86_400_000
    await db.insertInto('measurements_15m').values(Array.from({ length: 8 }, (_, i) => ({
      meter_id: main.id, bucket: new Date(from + i * 900_000), energy_in_kwh: 1 + i, energy_out_kwh: 0, volume_m3: 0, power_sum: 4 * (1 + i), samples: 1, soc_last: null,
    }))).execute()
    // The row versions (xmin) of the rollups: a rollup rebuilt is a new row.
    const versions = async () => JSON.stringify((await sql<{ t: string; v: string }>`
      SELECT 'h' || bucket::text AS t, xmin::text AS v FROM measurements_1h WHERE meter_id = ${main.id}
      UNION ALL SELECT 'd' || bucket::text, xmin::text FROM measurements_1d WHERE meter_id = ${main.id} ORDER BY 1`.execute(db)).rows)
    const before = await versions()
    expect(before).not.toBe('[]')
    // Saving the version ends the one in force today (its valid_to only): days up to today keep their tariff.
    await api().put(url()).set(auth(tokens.admin)).send(version()).expect(200)
    expect(await versions()).toBe(before)
  })

  it('adds a version from tomorrow, ends the current one today, and replaces a version that has not started', async () => {
    const saved = await api().put(url()).set(auth(tokens.admin)).send(version()).expect(200)
    expect(saved.body).toMatchObject({ name: 'Tariff 2027', basic_tariff: 6, high_tariff: 0.4, low_tariff: 0.25, valid_from: inDays(1), valid_to: null, editable: true })
    // Today's price is still the old one.
    expect((await api().get(url()).set(auth(tokens.user)).expect(200)).body).toMatchObject({ high_tariff: 0.295, valid_to: inDays(0) })
    // The same start day again changes that version instead of adding one; a later one bounds it.
    await api().put(url()).set(auth(tokens.admin)).send(version({ high_tariff: 0.42 })).expect(200)
    await api().put(url()).set(auth(tokens.admin)).send(version({ name: 'Summer', valid_from: inDays(60), high_tariff: 0.3 })).expect(200)
    const all = (await api().get(`/api/electricity-tariff/versions/?installation=${INST}`).set(auth(tokens.admin)).expect(200)).body
    expect(all.map((v: { valid_from: string; valid_to: string | null; high_tariff: number }) => [v.valid_from, v.valid_to, v.high_tariff])).toEqual([
      [inDays(60), null, 0.3],
      [inDays(1), inDays(59), 0.42],
      [expect.any(String), inDays(0), 0.295],
    ])
  })

  it('prices each session with the version valid when it started, so earlier sessions keep their price', async () => {
    const domain = app.domain!
    const stationId = other.stationId
    await api().put(url(other.installationId)).set(auth(tokens.super)).send(version({ name: 'Bern old', valid_from: inDays(1), high_tariff: 0.5, low_tariff: 0.5, schedule: [] })).expect(200)
    // A session on the first day of that version, and one begun before it that runs into it.
    const tz = 'Europe/Zurich'
    const dayStart = (n: number) => new Date(`${inDays(n)}T10:00:00+01:00`)
    const later = await domain.sessions.start({ installationId: other.installationId, stationId, rfidId: null, userId: null, at: dayStart(2) })
    await domain.sessions.addEnergy(later, 2, new Date(dayStart(2).getTime() + 3600_000), other.installationId, tz)
    const row = await domain.db.selectFrom('charging_sessions').select('price_rappen').where('id', '=', later).executeTakeFirstOrThrow()
    expect(row.price_rappen).toBe(100)
    // A later tariff change (from the day after tomorrow + 10) leaves that session's price alone.
    await api().put(url(other.installationId)).set(auth(tokens.bern)).send(version({ name: 'Bern new', valid_from: inDays(12), high_tariff: 0.9, low_tariff: 0.9, schedule: [] })).expect(200)
    await domain.sessions.addEnergy(later, 1, new Date(dayStart(2).getTime() + 7200_000), other.installationId, tz)
    expect((await domain.db.selectFrom('charging_sessions').select('price_rappen').where('id', '=', later).executeTakeFirstOrThrow()).price_rappen).toBe(150)
    const afterChange = await domain.sessions.start({ installationId: other.installationId, stationId, rfidId: null, userId: null, at: dayStart(13) })
    await domain.sessions.addEnergy(afterChange, 2, new Date(dayStart(13).getTime() + 3600_000), other.installationId, tz)
    expect((await domain.db.selectFrom('charging_sessions').select('price_rappen').where('id', '=', afterChange).executeTakeFirstOrThrow()).price_rappen).toBe(180)
  })
})

describe('the tariff in force "today": the installation-local day of the app clock', () => {
  it.each([
    ['a 24-hour day', AT.evening, '2026-03-05', '2026-03-05T00:00:00+01:00'],
    ['the 23-hour day the clocks go forward', AT.springForward, '2026-03-30', '2026-03-30T00:00:00+02:00'],
    ['the 25-hour day the clocks go back', AT.fallBack, '2026-10-26', '2026-10-26T00:00:00+01:00'],
  ])('%s: a version from tomorrow takes effect at local midnight, not before', async (_day, at, tomorrow, midnight) => {
    await clock.set(at)
    const db = app.domain!.db
    const inst = await db.insertInto('installations').values({ name: `Tariff day ${tomorrow}`, timezone: 'Europe/Zurich', currency: 'CHF', latitude: 47.37, longitude: 8.54, pay_enabled: false, online: true, offline_since: null, alerts: '[]' }).returning('id').executeTakeFirstOrThrow()
    await db.insertInto('tariffs').values({
      installation_id: inst.id, name: 'Old', basic_rappen: 500, high_rappen_per_kwh: 30, low_rappen_per_kwh: 20,
      flat_rappen_per_kwh: null, flat: false, valid_from: '2026-01-01', valid_to: null, schedule: '[]',
    }).execute()
    // Tokens live 5 minutes of the clock's time: one issued at each instant.
    const current = async () => (await api().get(url(inst.id)).set(auth(await login(app, 'super@example.com'))).expect(200)).body
    expect(inDays(1)).toBe(tomorrow)
    await api().put(url(inst.id)).set(auth(await login(app, 'super@example.com'))).send(version({ name: 'New', valid_from: tomorrow, high_tariff: 0.5 })).expect(200)
    await clock.set(new Date(Date.parse(midnight) - 60_000))
    expect(await current()).toMatchObject({ name: 'Old', high_tariff: 0.3, valid_to: at.slice(0, 10) })
    await clock.set(midnight)
    expect(await current()).toMatchObject({ name: 'New', high_tariff: 0.5, valid_from: tomorrow, valid_to: null })
  })
})
