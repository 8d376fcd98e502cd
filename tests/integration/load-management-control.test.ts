import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { auth, demoStationIds, login, stationsOf, type StationJson, startSimulatedAt, stepSimulator, until } from './helpers.ts'
import { inProcessRunner, type JobRunner } from '../../server/jobs/runner.ts'
import { CONTROL_INTERVAL_S } from '../../server/control/controller.ts'

/**
 * The load controller on the simulated demo (ARCHITECTURE §1 "control"): a Wednesday evening at 18:30
 * with a car wanting 40 kWh at each of the six simulated stations, all in instant mode, draws 6 × 11 kW
 * (95 A per phase). Switching on a 63 A connection limit brings the stations under it within one
 * control interval, each with its reason, status code and alert; switching it off releases them.
 */
const START = '2026-03-04T18:30:00+01:00'
const LIMIT_A = 63
/** 63 A on each of three phases at 230 V, kW. */
const LIMIT_KW = (LIMIT_A * 3 * 230) / 1000

let booted: Awaited<ReturnType<typeof startSimulatedAt>>
let admin: string
let ids: number[]
let runner: JobRunner | undefined

beforeAll(async () => {
  booted = await startSimulatedAt(START)
  admin = await login(booted.app, 'admin@example.com')
  ids = await demoStationIds(booted.app)
})
afterAll(async () => {
  await runner?.stop()
  await booted?.close()
})

const api = () => request(booted.app.server)
const stations = (lang = 'en') => stationsOf(booted.app, admin, ids, lang)
const total = (list: StationJson[]) => list.reduce((sum, s) => sum + s.power_kw, 0)
const gridKw = async () => {
  const db = booted.app.domain!.db
  const r = await db.selectFrom('measurements as m').innerJoin('meters as mt', 'mt.id', 'm.meter_id').select(['m.power_kw', 'm.ts'])
    .where('mt.installation_id', '=', 1).where('mt.meter_type', '=', 'main_power').orderBy('m.ts', 'desc').limit(1).executeTakeFirstOrThrow()
  return { kw: r.power_kw, ts: new Date(r.ts).toISOString() }
}
/** One simulator step, done (helpers.ts stepSimulator). */
const step = () => stepSimulator(booted)

describe('load control on the simulated demo at 18:30', () => {
  it('brings six busy stations under a 63 A limit within one control interval, with reasons, codes and journal entries', async () => {
    for (const id of ids) await api().patch(`/api/cockpit/installations/1/charging_stations/${id}/`).set(auth(admin)).send({ charging_mode: 'instant' }).expect(200)
    for (const id of ids) await booted.simulator.plugIn(1, id, 180, booted.clock.now(), 40)
    await step()
    const busy = await stations()
    expect(busy.map((s) => s.status)).toEqual(ids.map(() => 'charging'))
    expect(total(busy)).toBeGreaterThan(LIMIT_KW + 20)

    await api().put('/api/cockpit/installations/1/load_management').set(auth(admin)).send({ enabled: true, grid_limit_a: LIMIT_A, circuits: [] }).expect(200)
    // The controller as the api role runs it: a job every 10 s of the clock, and once at start.
    const job = booted.app.control!.job()
    expect(job.schedule).toEqual({ everySeconds: CONTROL_INTERVAL_S })
    const enabledAt = booted.clock.ms()
    runner = inProcessRunner([job], booted.app.log, booted.clock)
    await runner.start()
    const db = booted.app.domain!.db
    await until(async () => (await db.selectFrom('load_limits').select('station_id').where('installation_id', '=', 1).execute()).length >= ids.length, 30_000, 'the first control round')
    // The next simulator step, half a control interval later, obeys the limits.
    await step()
    expect(booted.clock.ms() - enabledAt).toBeLessThanOrEqual(CONTROL_INTERVAL_S * 1000)
    const limited = await stations()
    // power_kw is shown to 2 decimals: six stations may round up by 0.005 kW each.
    expect(total(limited)).toBeLessThanOrEqual(LIMIT_KW + 6 * 0.005)
    expect((await gridKw()).kw).toBeLessThanOrEqual(LIMIT_KW)
    for (const s of limited) {
      // Still charging: equal shares above the minimum, not some cars stopped.
      expect(s.status).toBe('charging')
      expect(s.power_kw).toBeGreaterThan(4)
      expect(s.reason.code).toBe('grid_limit_shared')
      expect(s.reason.text).toMatch(/^The building connection is at its limit: \d+(\.\d)? A for this car \(6 charging\)\.$/)
      // SPEC §4: 15 LOAD_MANAGEMENT_REDUCED_CHARGING with the gridThrottle alert.
      expect(s.status_code).toBe(15)
      expect(s.alerts).toContain('gridThrottle')
    }
    const texts = await Promise.all(['de', 'fr', 'it'].map(async (lang) => (await stations(lang))[0].reason.text))
    expect(texts[0]).toMatch(/^Der Hausanschluss ist ausgelastet: \d+(\.\d)? A für dieses Auto \(6 laden\)\.$/)
    expect(texts[1]).toMatch(/^Le raccordement du bâtiment est à sa limite : \d+(\.\d)? A pour cette voiture \(6 en recharge\)\.$/)
    expect(texts[2]).toMatch(/^L'allacciamento dell'edificio è al limite: \d+(\.\d)? A per questa auto \(6 in ricarica\)\.$/)
    // The journal records the limit with its reason.
    const journal = await api().get(`/api/cockpit/installations/1/charging_stations/${ids[0]}/journal?entry_type=journal_entry`).set(auth(admin)).expect(200)
    expect(journal.body.results.map((e: { detail?: string }) => e.detail)).toContainEqual(expect.stringMatching(/^load_limit:\d+(\.\d)?:grid_limit_shared$/))
    // The load-management page shows the same limits.
    const lm = await api().get('/api/cockpit/installations/1/load_management').set(auth(admin)).expect(200)
    const limitA = lm.body.stations.find((s: { id: number }) => s.id === ids[0]).limit_a
    expect(limitA).toBeGreaterThanOrEqual(6)
    expect(limitA * ids.length).toBeLessThanOrEqual(LIMIT_A)
  }, 180_000)

  it('releases the stations when switched off: full power again, status code 24', async () => {
    await api().put('/api/cockpit/installations/1/load_management').set(auth(admin)).send({ enabled: false, grid_limit_a: LIMIT_A, circuits: [] }).expect(200)
    await booted.app.control!.run()
    await step()
    const free = await stations()
    for (const s of free) {
      expect(s.power_kw).toBeCloseTo(11, 1)
      expect(s.status_code).toBe(24)
      expect(s.alerts).not.toContain('gridThrottle')
      expect(s.reason.code).toBe('charging')
    }
  }, 120_000)
})
