import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { allocate, kwPerAmp, staticShares, VOLTS, type AllocationInput, type AllocationState, type Circuit, type StationDemand, type StationLimit } from './allocate.ts'

/**
 * Properties of the load allocator (docs/decisions.md "Load management: the allocation rules") over
 * random installations: circuit trees, single- and three-phase stations, modes, plans, meter readings
 * and sequences of rounds. FUZZ_RUNS raises the number of cases (npm run test:fuzz).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 60)
// npm test checks the same cases on every run (one seed); the full fuzz (FUZZ_RUNS) draws new ones.
if (!process.env.FUZZ_RUNS) fc.configureGlobal({ seed: 20261127 })
const T0 = Date.parse('2026-11-27T06:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

const circuitsArb: fc.Arbitrary<Circuit[]> = fc
  .tuple(fc.integer({ min: 10, max: 160 }), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 6, max: 80 })), { maxLength: 4 }))
  .map(([root, subs]) => {
    const out: Circuit[] = [{ id: 'grid', parent_id: null, limit_a: root }]
    subs.forEach(([parent, limit], k) => out.push({ id: `c${k}`, parent_id: out[parent % out.length].id, limit_a: limit }))
    return out
  })

const stationArb = (circuits: number, id: number): fc.Arbitrary<StationDemand> =>
  fc
    .record({
      circuit: fc.nat({ max: circuits - 1 }),
      phases: fc.constantFrom(1 as const, 3 as const),
      phase: fc.constantFrom(undefined, 1 as const, 2 as const, 3 as const),
      min_a: fc.constantFrom(6, 6, 6, 8),
      extra: fc.integer({ min: 0, max: 26 }),
      mode: fc.constantFrom('instant' as const, 'optimized' as const, 'solar' as const),
      charging: fc.constantFrom(true, true, true, false),
      plan: fc.option(fc.record({ energy_kwh: fc.integer({ min: 1, max: 60 }), minutes: fc.integer({ min: 10, max: 720 }) }), { freq: 3 }),
    })
    .map((r) => ({
      station_id: id,
      circuit_id: r.circuit === 0 ? 'grid' : `c${r.circuit - 1}`,
      phases: r.phases,
      ...(r.phases === 1 && r.phase !== undefined ? { phase: r.phase } : {}),
      min_a: r.min_a,
      max_a: r.min_a + r.extra,
      mode: r.mode,
      charging: r.charging,
      ...(r.plan ? { plan: { energy_kwh: r.plan.energy_kwh, deadline: iso(T0 + r.plan.minutes * 60_000) } } : {}),
    }))

/** The measurements of one round (`draw`: kW per station, in the order of the stations). */
interface Reading { grid_import_kw: number | null; grid_phase_a?: [number, number, number]; draw: number[]; pv_surplus_kw: number; tariff?: { low: boolean; until?: string } }


const readingArb = (stations: number): fc.Arbitrary<Reading> =>
  fc.record({
    grid_import_kw: fc.option(fc.integer({ min: -200, max: 1000 }).map((x) => x / 10), { freq: 5 }),
    grid_phase_a: fc.option(fc.tuple(fc.nat({ max: 150 }), fc.nat({ max: 150 }), fc.nat({ max: 150 })), { freq: 3, nil: undefined }),
    draw: fc.array(fc.integer({ min: 0, max: 220 }).map((x) => x / 10), { minLength: stations, maxLength: stations }),
    pv_surplus_kw: fc.integer({ min: 0, max: 300 }).map((x) => x / 10),
    tariff: fc.constantFrom(undefined, { low: true }, { low: false, until: iso(T0 + 3_600_000) }),
  })

const installationArb = circuitsArb.chain((circuits) =>
  fc.integer({ min: 1, max: 24 }).chain((n) =>
    fc.record({
      circuits: fc.constant(circuits),
      stations: fc.tuple(...Array.from({ length: n }, (_, i) => stationArb(circuits.length, i + 1))),
      rounds: fc.array(fc.tuple(readingArb(n), fc.integer({ min: 1, max: 120 })), { minLength: 1, maxLength: 8 }),
    }),
  ),
)

function inputOf(circuits: Circuit[], stations: StationDemand[], reading: Reading, nowMs: number, previous?: AllocationState): AllocationInput {
  return {
    now: iso(nowMs),
    circuits,
    stations,
    grid_import_kw: reading.grid_import_kw,
    ...(reading.grid_phase_a ? { grid_phase_a: reading.grid_phase_a } : {}),
    stations_power_kw: Object.fromEntries(stations.map((s, i) => [s.station_id, reading.draw[i]])),
    pv_surplus_kw: reading.pv_surplus_kw,
    ...(reading.tariff ? { tariff: reading.tariff } : {}),
    ...(previous ? { previous } : {}),
  }
}

/** Every circuit's limit on every phase, less the building's load at the connection, holds. */
function checkLimits(input: AllocationInput, limits: StationLimit[], buildingA: number[]): void {
  const byId = new Map(input.circuits.map((c) => [c.id, c]))
  const limitOf = new Map(limits.map((l) => [l.station_id, l.limit_a]))
  for (const c of input.circuits) {
    for (const p of [1, 2, 3]) {
      let sum = 0
      for (const s of input.stations) {
        let on = false
        for (let x = byId.get(s.circuit_id); x; x = x.parent_id === null ? undefined : byId.get(x.parent_id)) if (x.id === c.id) on = true
        const lines = s.phases === 3 || s.phase === undefined ? [1, 2, 3] : [s.phase]
        if (on && lines.includes(p)) sum += limitOf.get(s.station_id)!
      }
      const available = Math.max(0, c.limit_a - (c.parent_id === null ? buildingA[p - 1] : 0))
      expect(sum, `circuit ${c.id} phase L${p}`).toBeLessThanOrEqual(available + 1e-6)
    }
  }
}

/** The building's load per phase as the meter shows it: measured less the stations' draw. */
function buildingA(input: AllocationInput): number[] {
  if (input.grid_phase_a) {
    return input.grid_phase_a.map((measured, p) => {
      let stations = 0
      for (const s of input.stations) {
        const amps = ((input.stations_power_kw[s.station_id] ?? 0) * 1000) / (s.phases * VOLTS)
        if (s.phases === 3 || s.phase === p + 1) stations += amps
      }
      return Math.max(0, measured - stations)
    })
  }
  if (input.grid_import_kw === null) return [0, 1, 2].map(() => input.previous?.building_a ?? 0)
  const draw = Object.values(input.stations_power_kw).reduce((a, b) => a + Math.max(0, b), 0)
  return [0, 1, 2].map(() => (Math.max(0, input.grid_import_kw! - draw) * 1000) / (3 * VOLTS))
}

describe('allocate: properties', () => {
  it('over sequences of rounds no circuit is ever exceeded on any phase, and every limit is 0 or within min..max', () => {
    fc.assert(
      fc.property(installationArb, ({ circuits, stations, rounds }) => {
        let previous: AllocationState | undefined
        let now = T0
        for (const [reading, seconds] of rounds) {
          now += seconds * 1000
          const input = inputOf(circuits, stations, reading, now, previous)
          const out = allocate(input)
          checkLimits(input, out.limits, buildingA(input))
          if (input.grid_import_kw === null && !input.grid_phase_a) {
            const shares = staticShares(circuits, [...stations].sort((a, b) => a.station_id - b.station_id), input.previous?.building_a ?? 0)
            out.limits.forEach((l, i) => expect(l.limit_a).toBeLessThanOrEqual(shares[i] + 1e-9))
          }
          for (const l of out.limits) {
            const s = stations.find((x) => x.station_id === l.station_id)!
            if (!s.charging) expect(l).toMatchObject({ limit_a: 0, reason: 'no_car' })
            if (l.limit_a !== 0) {
              expect(l.limit_a).toBeGreaterThanOrEqual(s.min_a)
              expect(l.limit_a).toBeLessThanOrEqual(s.max_a)
            }
          }
          previous = out.state
        }
      }),
      { numRuns: RUNS },
    )
  })

  it('solar stations (without a plan) together never draw more than the PV surplus plus what they draw already', () => {
    fc.assert(
      fc.property(installationArb, ({ circuits, stations, rounds }) => {
        const plain = stations.map(({ plan: _, ...s }) => s)
        let previous: AllocationState | undefined
        let now = T0
        for (const [reading, seconds] of rounds) {
          now += seconds * 1000
          const input = inputOf(circuits, plain, { ...reading, tariff: undefined }, now, previous)
          const out = allocate(input)
          let solarKw = 0
          let solarDraw = 0
          plain.forEach((s, i) => {
            if (s.mode !== 'solar') return
            solarKw += out.limits[i].limit_a * kwPerAmp(s)
            solarDraw += reading.draw[i]
          })
          expect(solarKw).toBeLessThanOrEqual(reading.pv_surplus_kw + solarDraw + 1e-6)
          previous = out.state
        }
      }),
      { numRuns: RUNS },
    )
  })

  it('is deterministic: the same input gives the same limits, whatever the order of the stations', () => {
    fc.assert(
      fc.property(installationArb, fc.nat(), ({ circuits, stations, rounds }, seed) => {
        const input = inputOf(circuits, stations, rounds[0][0], T0)
        const once = allocate(input)
        expect(allocate(structuredClone(input))).toEqual(once)
        const shuffled = [...stations].sort((a, b) => ((a.station_id * 7919 + seed) % 101) - ((b.station_id * 7919 + seed) % 101))
        expect(allocate({ ...input, stations: shuffled })).toEqual(once)
      }),
      { numRuns: RUNS },
    )
  })

  it('is monotonic in available power: less building load never lowers the total, nor any car while all charge', () => {
    fc.assert(
      fc.property(installationArb, fc.integer({ min: 1, max: 400 }), ({ circuits, stations, rounds }, less) => {
        const reading = { ...rounds[0][0], grid_import_kw: rounds[0][0].grid_import_kw ?? 20 }
        const input = inputOf(circuits, stations, reading, T0)
        const more = { ...input, grid_import_kw: input.grid_import_kw! - less / 10 }
        const a = allocate(input).limits
        const b = allocate(more).limits
        const total = (ls: StationLimit[]) => ls.reduce((sum, l, i) => sum + l.limit_a * kwPerAmp(stations[i]), 0)
        expect(total(b)).toBeGreaterThanOrEqual(total(a) - 1e-6)
        if (a.every((l) => l.limit_a > 0 || l.reason === 'no_car')) b.forEach((l, i) => expect(l.limit_a).toBeGreaterThanOrEqual(a[i].limit_a))
      }),
      { numRuns: RUNS },
    )
  })

  it('nobody starves: with fixed demand, every car that fits on its own charges within a few turns', () => {
    fc.assert(
      fc.property(installationArb, ({ circuits, stations }) => {
        expect(starved(circuits, stations)).toEqual([])
      }),
      { numRuns: Math.max(20, Math.floor(RUNS / 3)) },
    )
  })

  it('nobody starves: a car counted on all three phases gets its turn among cars on one phase (a case fast-check found)', () => {
    // 12 A connection; 18 single-phase cars on an unknown phase (counted on all three), three on L2/L3;
    // one of the unknown-phase cars needs 8 A. Cars on one phase took the room freed on theirs while the
    // 8 A car waited for all three, turn after turn.
    const circuits: Circuit[] = [{ id: 'grid', parent_id: null, limit_a: 12 }]
    const stations: StationDemand[] = Array.from({ length: 23 }, (_, k) => ({
      station_id: k + 1, circuit_id: 'grid', phases: 1 as const, min_a: k + 1 === 10 || k + 1 === 12 ? 8 : 6, max_a: k + 1 === 10 || k + 1 === 12 ? 8 : 6,
      mode: 'instant' as const, charging: true, ...(k + 1 === 10 || k + 1 === 22 ? { phase: 2 as const } : k + 1 === 2 || k + 1 === 3 ? { phase: 3 as const } : {}),
    }))
    expect(starved(circuits, stations)).toEqual([])
  })
})

/**
 * Stations that would charge on their own but got no current in (n + 2) turns of 60 s, all cars
 * charging in instant mode with fixed demand and no grid reading (rounds every 10 s).
 */
function starved(circuits: Circuit[], stations: StationDemand[]): number[] {
  const charging = stations.map(({ plan: _, ...s }) => ({ ...s, mode: 'instant' as const, charging: true }))
  const turnS = 60
  const reading: Reading = { grid_import_kw: 0, draw: charging.map(() => 0), pv_surplus_kw: 0 }
  const alone = charging.map((s) => allocate({ ...inputOf(circuits, [s], reading, T0), options: { turn_s: turnS } }).limits[0].limit_a > 0)
  const charged = new Set<number>()
  let previous: AllocationState | undefined
  const rounds = ((charging.length + 2) * turnS) / 10
  for (let r = 0; r < rounds; r++) {
    const out = allocate({ ...inputOf(circuits, charging, reading, T0 + r * 10_000, previous), options: { turn_s: turnS } })
    out.limits.forEach((l) => l.limit_a > 0 && charged.add(l.station_id))
    previous = out.state
  }
  return charging.filter((s, i) => alone[i] && !charged.has(s.station_id)).map((s) => s.station_id)
}
