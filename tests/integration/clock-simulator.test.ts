import { afterAll, describe, expect, it } from 'vitest'
import request from 'supertest'
import { auth, login, sleep, startSimulatedAt, until } from './helpers.ts'
import { SIMULATOR } from '../../config/defaults.ts'

/**
 * ARCHITECTURE §1 "Time": the simulator takes "now" and its step timer from the one clock. Two apps with
 * the same SIM_SEED and the same clock start show the same facility; on a test clock the facility steps
 * when the clock is advanced by a step, and not while only the wall clock moves.
 */
// A Wednesday evening in Zürich (CET, UTC+1): the building draws power, PV is down, cars come home.
const START = '2026-03-04T18:30:00+01:00'
const SEED = 11
const INSTALLATION = 1

type Booted = Awaited<ReturnType<typeof startSimulatedAt>> & { token: string }
const booted: Booted[] = []

/** A fresh app on a test clock at `start` whose simulator (`seed`, `backfillDays` of backfill) has started. */
async function boot(start = START, seed = SEED, backfillDays = 1): Promise<Booted> {
  const started = await startSimulatedAt(start, { seed, backfillDays })
  const b = { ...started, token: await login(started.app, 'admin@example.com') }
  booted.push(b)
  return b
}

afterAll(async () => {
  for (const b of booted) await b.close()
})

const metrics = async (b: Booted) => (await request(b.app.server).get(`/api/metrics/?installation=${INSTALLATION}`).set(auth(b.token)).expect(200)).body
const stations = async (b: Booted) => (await request(b.app.server).get(`/api/cockpit/installations/${INSTALLATION}/charging_stations/`).set(auth(b.token)).expect(200)).body

describe('the simulator on the one clock', () => {
  let first: Booted

  it('shows the same facility in two fresh apps with the same seed and clock start', async () => {
    first = await boot()
    const second = await boot()
    const [m1, m2] = [await metrics(first), await metrics(second)]
    expect(m1.timestamp).toBe(new Date(START).toISOString())
    // A real evening: the building draws power and the day's totals are counted (not an empty answer).
    expect(m1.building.power_kw).toBeGreaterThan(0)
    expect(m1.consumption_today).toBeGreaterThan(0)
    expect(m2).toEqual(m1)
    const [s1, s2] = [await stations(first), await stations(second)]
    expect(s1.results.length).toBeGreaterThanOrEqual(6)
    expect(s2).toEqual(s1)
  }, 180_000)

  it('steps when the clock advances by a step, not when the wall clock does', async () => {
    const start = new Date(START).getTime()
    expect((await metrics(first)).timestamp).toBe(new Date(start).toISOString())
    // Real time passes, the clock stands: no step.
    await sleep(SIMULATOR.stepMs / 10)
    expect((await metrics(first)).timestamp).toBe(new Date(start).toISOString())
    const before = await metrics(first)
    await first.clock.advance(SIMULATOR.stepMs)
    const stepped = new Date(start + SIMULATOR.stepMs).toISOString()
    const after = await until(async () => {
      const m = await metrics(first)
      return m.timestamp === stepped && m
    }, 30_000, 'the step at the clock\'s next step time')
    // The live figures are the new step's: 5 s more of the evening's load counted into today's totals.
    expect(after.consumption_today).toBeGreaterThan(before.consumption_today)
    const newest = await first.app.domain!.db.selectFrom('measurements').select((eb) => eb.fn.max('ts').as('ts')).executeTakeFirstOrThrow()
    expect(new Date(newest.ts as unknown as string).toISOString()).toBe(stepped)
  }, 60_000)
})

describe('the README\'s CLOCK_START example (SIM_SEED 42)', () => {
  const demoStations = async (b: Booted) => ((await stations(b)).results as { name: string; status: string; charging_mode: string }[]).filter((st) => /^Station \d$/.test(st.name))
  const withCar = (status: string) => ['carPluggedIn', 'charging', 'notBadgedIn'].includes(status)

  it('on Wednesday 4 March 2026 at 21:00 every station of Demo Residence Zürich that is not locked has a resident\'s car', async () => {
    const b = await boot('2026-03-04T21:00:00+01:00', 42, 0)
    const list = await demoStations(b)
    expect(list.length).toBe(6)
    // Station 6 is seeded locked (SPEC §4: locked blocks power and shows disabled, whoever is plugged in).
    expect(list.filter((st) => st.charging_mode === 'locked').map((st) => [st.name, st.status])).toEqual([['Station 6', 'off']])
    expect(list.filter((st) => st.charging_mode !== 'locked' && !withCar(st.status))).toEqual([])
    // And the API itself says what time it is.
    const health = await request(b.app.server).get('/api/health').expect(200)
    expect(health.body).toEqual({ status: 'ok', now: '2026-03-04T20:00:00.000Z', roles: ['api', 'simulator'] })
  }, 120_000)

  it('the same morning at 10:00 every station is free', async () => {
    const b = await boot('2026-03-04T10:00:00+01:00', 42, 0)
    const list = await demoStations(b)
    expect(list.length).toBe(6)
    expect(list.filter((st) => withCar(st.status))).toEqual([])
  }, 120_000)
})
