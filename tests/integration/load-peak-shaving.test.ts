import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { auth, demoStationIds, login, stationsOf, startSimulatedAt, stepSimulator } from './helpers.ts'

/**
 * Peak shaving with the battery (docs/load-management.md "Peak shaving") on the simulated demo: a
 * Wednesday evening at 18:30 (dark), six cars wanting 40 kWh each in instant mode behind a 63 A
 * connection (43.5 kW), the demo's 20 kWh battery (10 kW). With a 30 kW peak, one control round later
 * the battery discharges and grid import stays at the peak, the cars get the peak plus the battery's
 * 10 kW less the building's load, each with its reason (status code 12, alert peakManagement) in four
 * languages and a journal entry. With the battery at its reserve, the cars alone are held to the peak.
 */
const START = '2026-03-04T18:30:00+01:00'
const LIMIT_A = 63
const PEAK_KW = 30

let booted: Awaited<ReturnType<typeof startSimulatedAt>>
let admin: string
let ids: number[]

beforeAll(async () => {
  booted = await startSimulatedAt(START)
  admin = await login(booted.app, 'admin@example.com')
  ids = await demoStationIds(booted.app)
})
afterAll(async () => booted?.close())

const api = () => request(booted.app.server)
const db = () => booted.app.domain!.db
const stations = (lang = 'en') => stationsOf(booted.app, admin, ids, lang)
/** The newest reading of the demo's meter of `type` (kW, and % for the battery). */
const newest = async (type: 'main_power' | 'battery') =>
  db().selectFrom('measurements as m').innerJoin('meters as mt', 'mt.id', 'm.meter_id').select(['m.power_kw', 'm.soc', 'm.ts', 'm.meter_id'])
    .where('mt.installation_id', '=', 1).where('mt.meter_type', '=', type).orderBy('m.ts', 'desc').limit(1).executeTakeFirstOrThrow()
/** One simulator step, done (helpers.ts stepSimulator). */
const step = () => stepSimulator(booted)

describe('peak shaving on the simulated demo at 18:30', () => {
  it('holds grid import at the peak with the battery within one control round; the cars get the peak plus the battery', async () => {
    for (const id of ids) await api().patch(`/api/cockpit/installations/1/charging_stations/${id}/`).set(auth(admin)).send({ charging_mode: 'instant' }).expect(200)
    for (const id of ids) await booted.simulator.plugIn(1, id, 180, booted.clock.now(), 40)
    await step()
    expect((await newest('main_power')).power_kw).toBeGreaterThan(50)
    expect((await newest('battery')).soc).toBeGreaterThan(20)

    await api().put('/api/cockpit/installations/1/load_management').set(auth(admin))
      .send({ enabled: true, grid_limit_a: LIMIT_A, circuits: [], peak_shaving: { enabled: true, peak_kw: PEAK_KW } }).expect(200)
    await booted.app.control!.run()
    await step()
    const grid = (await newest('main_power')).power_kw
    const battery = (await newest('battery')).power_kw
    expect(grid).toBeLessThanOrEqual(PEAK_KW + 0.01)
    expect(grid).toBeGreaterThan(PEAK_KW - 1.5)
    expect(battery).toBeLessThan(-5)
    expect(battery).toBeGreaterThanOrEqual(-10)
    const limited = await stations()
    for (const s of limited) {
      expect(s.status).toBe('charging')
      expect(s.reason.code).toBe('peak_shaving')
      expect(s.reason.text).toMatch(/^The building stays under its power peak of 30 kW: \d+(\.\d)? A for this car \(6 charging\)\.$/)
      // SPEC §4: 12 POWER_PEAK_CONTROL (or 14 in the round the limit went down) with peakManagement.
      expect([12, 14]).toContain(s.status_code)
      expect(s.alerts).toEqual(expect.arrayContaining(['gridThrottle', 'peakManagement']))
    }
    const texts = await Promise.all(['de', 'fr', 'it'].map(async (lang) => (await stations(lang))[0].reason.text))
    expect(texts[0]).toMatch(/^Das Gebäude bleibt unter seiner Leistungsspitze von 30 kW: \d+(\.\d)? A für dieses Auto \(6 laden\)\.$/)
    expect(texts[1]).toMatch(/^Le bâtiment reste sous sa pointe de puissance de 30 kW : \d+(\.\d)? A pour cette voiture \(6 en recharge\)\.$/)
    expect(texts[2]).toMatch(/^L'edificio resta sotto il suo picco di potenza di 30 kW: \d+(\.\d)? A per questa auto \(6 in ricarica\)\.$/)
    const journal = await api().get(`/api/cockpit/installations/1/charging_stations/${ids[0]}/journal?entry_type=journal_entry`).set(auth(admin)).expect(200)
    expect(journal.body.results.map((e: { detail?: string }) => e.detail)).toContainEqual(expect.stringMatching(/^load_limit:\d+(\.\d)?:peak_shaving$/))
    // The admin sees the command the battery got.
    const lm = (await api().get('/api/cockpit/installations/1/load_management').set(auth(admin)).expect(200)).body
    expect(lm.peak_shaving).toEqual({ enabled: true, peak_kw: PEAK_KW })
    expect(lm.battery_command).toMatchObject({ peak_kw: PEAK_KW, discharge_kw: expect.any(Number) })
    expect(lm.battery_command.discharge_kw).toBeGreaterThan(5)
    // A further round with the battery discharging keeps it so (the controller counts the battery out).
    await step()
    await booted.app.control!.run()
    await step()
    expect((await newest('main_power')).power_kw).toBeLessThanOrEqual(PEAK_KW + 0.01)
  }, 180_000)

  it('with the battery at its reserve the cars alone are held to the peak', async () => {
    // The battery meter reports 10 % now (as a real one at its reserve would), still at its last power.
    const meter = await newest('battery')
    const at = booted.clock.now()
    await db().updateTable('measurements').set({ soc: 10 }).where('meter_id', '=', meter.meter_id).where('ts', '=', meter.ts).execute()
    await booted.app.control!.run(at)
    const rows = await db().selectFrom('load_limits').select(['limit_a', 'reason']).where('station_id', 'in', ids).execute()
    const grid = (await newest('main_power')).power_kw
    const cars = (await stations()).reduce((a, s) => a + s.power_kw, 0)
    const buildingKw = grid - cars - (await newest('battery')).power_kw
    // The cars' limits add up to at most the peak less the building's load.
    const limitsKw = rows.reduce((a, r) => a + (r.limit_a ?? 0), 0) * 3 * 0.23
    expect(limitsKw).toBeLessThanOrEqual(PEAK_KW - buildingKw + 0.5)
    expect(rows.every((r) => r.reason === 'peak_shaving' || r.reason === 'waiting_for_turn'), JSON.stringify(rows)).toBe(true)
    const lm = (await api().get('/api/cockpit/installations/1/load_management').set(auth(admin)).expect(200)).body
    expect(lm.battery_command.discharge_kw).toBe(0)
  }, 120_000)
})
