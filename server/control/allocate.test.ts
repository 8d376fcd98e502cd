import { describe, expect, it } from 'vitest'
import { allocate, staticShares, type AllocationInput, type AllocationState, type StationDemand } from './allocate.ts'

/** An 11 kW (3 × 16 A) station on the garage's connection, a car connected, instant mode. */
const station = (id: number, over: Partial<StationDemand> = {}): StationDemand => ({
  station_id: id, circuit_id: 'grid', phases: 3, min_a: 6, max_a: 16, mode: 'instant', charging: true, ...over,
})
const T0 = Date.parse('2026-11-27T08:00:00.000Z')
const at = (seconds: number) => new Date(T0 + seconds * 1000).toISOString()
/** A garage of `n` 11 kW stations behind a 63 A connection, no building load, no sun. */
const garage = (n: number, over: Partial<AllocationInput> = {}): AllocationInput => ({
  now: at(0),
  circuits: [{ id: 'grid', parent_id: null, limit_a: 63 }],
  stations: Array.from({ length: n }, (_, i) => station(i + 1)),
  grid_import_kw: 0,
  stations_power_kw: {},
  pv_surplus_kw: 0,
  ...over,
})
const amps = (r: ReturnType<typeof allocate>) => r.limits.map((l) => l.limit_a)

describe('allocate: a garage behind its connection', () => {
  it("holds the building's load at its recent highest, falling 0.5 A a round: a load that dropped between two readings does not hand out its room at once", () => {
    // Round 1: 13.8 kW of house load (20 A per phase): three cars share 43 A (14.3 A each).
    const first = allocate(garage(3, { grid_import_kw: 13.8 }))
    expect(amps(first)).toEqual([14.3, 14.3, 14.3])
    expect(first.state.building_held_a).toEqual([20, 20, 20])
    // Round 2, 10 s later: the house reads 0 kW; the controller counts 19.5 A of it, not 0 A.
    const second = allocate(garage(3, { now: at(40), grid_import_kw: 3 * 14.3 * 0.69, stations_power_kw: { 1: 14.3 * 0.69, 2: 14.3 * 0.69, 3: 14.3 * 0.69 }, previous: first.state }))
    expect(second.state.building_held_a?.map((a) => Math.round(a * 100) / 100)).toEqual([19.5, 19.5, 19.5])
    expect(amps(second).reduce((x, y) => x + y, 0)).toBeLessThanOrEqual(63 - 19.5 + 1e-9)
    // Without the hold (a decay as large as the drop) the whole room is given at once.
    const unheld = allocate(garage(3, { now: at(40), grid_import_kw: 3 * 14.3 * 0.69, stations_power_kw: { 1: 14.3 * 0.69, 2: 14.3 * 0.69, 3: 14.3 * 0.69 }, previous: first.state, options: { building_decay_a: 100 } }))
    expect(amps(unheld)).toEqual([16, 16, 16])
  })

  it('six 11 kW stations behind 63 A share it equally (10.5 A each); the reason names the 6 cars sharing it', () => {
    const { limits } = allocate(garage(6))
    expect(limits.map((l) => l.limit_a)).toEqual([10.5, 10.5, 10.5, 10.5, 10.5, 10.5])
    expect(limits[0]).toEqual({ station_id: 1, limit_a: 10.5, reason: 'grid_limit_shared', circuit_id: 'grid', shared_by: 6 })
  })

  it('three cars behind 63 A each get their full 16 A', () => {
    expect(allocate(garage(3)).limits.map((l) => [l.limit_a, l.reason])).toEqual([[16, 'ok'], [16, 'ok'], [16, 'ok']])
  })

  it("the building's own load counts: 20 kW of house load at the meter leaves 34 A, so 5 of 6 cars charge and one waits for its turn", () => {
    // The meter reads 20 kW of house plus 5 × 4.14 kW of cars: house = 20 kW = 28.99 A per phase.
    const draw = { 1: 4.14, 2: 4.14, 3: 4.14, 4: 4.14, 5: 4.14 }
    const { limits } = allocate(garage(6, { grid_import_kw: 20 + 5 * 4.14, stations_power_kw: draw }))
    expect(limits.filter((l) => l.limit_a > 0).map((l) => l.limit_a)).toEqual([6.8, 6.8, 6.8, 6.8, 6.8])
    expect(limits[5]).toMatchObject({ limit_a: 0, reason: 'waiting_for_turn', circuit_id: 'grid', until: at(900) })
  })

  it('a station without a car gets 0 A (no_car) and leaves its share to the others', () => {
    const input = garage(6)
    input.stations[5].charging = false
    const { limits } = allocate(input)
    expect(limits.slice(0, 5).map((l) => l.limit_a)).toEqual([12.6, 12.6, 12.6, 12.6, 12.6])
    expect(limits[5]).toEqual({ station_id: 6, limit_a: 0, reason: 'no_car' })
  })

  it('a sub-distribution of 32 A for four stations caps them at 8 A while the two on the main board get the rest', () => {
    const input = garage(6, {
      circuits: [{ id: 'grid', parent_id: null, limit_a: 63 }, { id: 'garage-b', parent_id: 'grid', limit_a: 32 }],
    })
    for (const s of input.stations.slice(2)) s.circuit_id = 'garage-b'
    const { limits } = allocate(input)
    expect(amps({ limits, state: {} as AllocationState })).toEqual([15.5, 15.5, 8, 8, 8, 8])
    expect(limits[2]).toMatchObject({ reason: 'circuit_limit', circuit_id: 'garage-b', shared_by: 4 })
    expect(limits[0]).toMatchObject({ reason: 'grid_limit_shared', circuit_id: 'grid', shared_by: 6 })
  })

  it('single-phase stations on L1, L2 and L3 each use one phase: three 32 A stations fit behind 32 A', () => {
    const input = garage(3, { circuits: [{ id: 'grid', parent_id: null, limit_a: 32 }] })
    input.stations = [1, 2, 3].map((p) => station(p, { phases: 1, phase: p as 1 | 2 | 3, max_a: 32 }))
    expect(amps(allocate(input))).toEqual([32, 32, 32])
    // Two on L1 share that phase's 32 A.
    input.stations[1].phase = 1
    expect(amps(allocate(input))).toEqual([16, 16, 32])
  })

  it('with per-phase meter currents, the house load on L1 limits the 3-phase cars, not the single-phase car on L2', () => {
    const input = garage(3, { grid_phase_a: [20 + 2 * 16, 2 * 16 + 10, 2 * 16] })
    input.stations[2] = station(3, { phases: 1, phase: 2, max_a: 32 })
    input.stations_power_kw = { 1: 11.04, 2: 11.04, 3: 2.3 }
    // Building: L1 20 A, L2 0 A (its other 10 A are the single-phase car), L3 0 A: L2 is the tightest phase.
    const { limits } = allocate(input)
    expect(limits.map((l) => l.limit_a)).toEqual([16, 16, 31])
    // A 40 A house load on L1 leaves 23 A there: 11.5 A per 3-phase car; the car on L2 gets its 32 A.
    expect(allocate({ ...input, grid_phase_a: [40 + 2 * 16, 42, 32] }).limits.map((l) => l.limit_a)).toEqual([11.5, 11.5, 32])
  })
})

describe('allocate: charging modes', () => {
  it('instant before optimized: two instant cars take 16 A, the optimized ones share the remaining 31 A', () => {
    const input = garage(4)
    input.stations[2].mode = 'optimized'
    input.stations[3].mode = 'optimized'
    expect(amps(allocate(input))).toEqual([16, 16, 15.5, 15.5])
  })

  it('a solar-only car waits for 1.8 kW more PV surplus (it needs 6 A × 3 × 230 V = 4.14 kW, 2.34 kW are there)', () => {
    const input = garage(1, { pv_surplus_kw: 2.34 })
    input.stations[0].mode = 'solar'
    expect(allocate(input).limits[0]).toEqual({ station_id: 1, limit_a: 0, reason: 'waiting_for_solar', missing_kw: 1.8 })
  })

  it('a solar car charges with the surplus: 6 kW exported → 8.6 A, and its own draw is not taken for house load', () => {
    const input = garage(1, { pv_surplus_kw: 6 })
    input.stations[0].mode = 'solar'
    expect(allocate(input).limits[0]).toMatchObject({ limit_a: 8.6, reason: 'solar_surplus' })
    // Next round it draws the 6 kW and the export is 0: it keeps 8.6 A.
    const next = { ...input, pv_surplus_kw: 0, stations_power_kw: { 1: 5.94 } }
    expect(allocate(next).limits[0]).toMatchObject({ limit_a: 8.6, reason: 'solar_surplus' })
    // The sun goes: the meter imports 5.94 kW (its own draw), so it has no surplus and stops.
    const night = { ...input, pv_surplus_kw: -5.94, grid_import_kw: 5.94, stations_power_kw: { 1: 5.94 }, previous: undefined }
    expect(allocate(night).limits[0]).toMatchObject({ limit_a: 0, reason: 'waiting_for_solar' })
  })

  it('optimized outside the low tariff waits for it (until its start), charging only from PV surplus meanwhile', () => {
    const input = garage(1, { tariff: { low: false, until: '2026-11-27T20:00:00.000Z' } })
    input.stations[0].mode = 'optimized'
    expect(allocate(input).limits[0]).toMatchObject({ limit_a: 0, reason: 'low_tariff_later', until: '2026-11-27T20:00:00.000Z' })
    expect(allocate({ ...input, tariff: { low: true } }).limits[0]).toMatchObject({ limit_a: 16, reason: 'ok' })
  })

  it('an optimized car pauses while instant cars use the whole connection (higher_priority)', () => {
    const input = garage(5, { circuits: [{ id: 'grid', parent_id: null, limit_a: 32 }] })
    input.stations[4].mode = 'optimized'
    const { limits } = allocate(input)
    expect(limits.slice(0, 4).map((l) => l.limit_a)).toEqual([8, 8, 8, 8])
    expect(limits[4]).toMatchObject({ limit_a: 0, reason: 'higher_priority' })
  })
})

describe('allocate: charge plans', () => {
  it('a solar car that must have 22 kWh by 07:00 gets the 8 A it needs from the grid at 03:00 (plan_priority)', () => {
    const input = garage(1, { now: '2026-11-27T03:00:00.000Z', pv_surplus_kw: 0 })
    input.stations[0] = station(1, { mode: 'solar', plan: { energy_kwh: 22, deadline: '2026-11-27T07:00:00.000Z' } })
    // 22 kWh in 4 h = 5.5 kW = 7.97 A on three phases.
    expect(allocate(input).limits[0]).toMatchObject({ limit_a: 8, reason: 'plan_priority', plan: { required_a: 8, reachable: true } })
  })

  it('a plan that makes its deadline at its share gets no priority', () => {
    const input = garage(6, { now: '2026-11-27T20:00:00.000Z' })
    for (const s of input.stations) s.mode = 'optimized'
    input.stations[0].plan = { energy_kwh: 10, deadline: '2026-11-28T07:00:00.000Z' }
    const { limits } = allocate(input)
    expect(limits[0]).toMatchObject({ limit_a: 10.5, reason: 'grid_limit_shared', plan: { reachable: true } })
  })

  it('an urgent plan goes before optimized cars, and is flagged unreachable when even its maximum is too little', () => {
    const input = garage(6, { now: '2026-11-27T06:00:00.000Z' })
    for (const s of input.stations) s.mode = 'optimized'
    input.stations[0].plan = { energy_kwh: 14, deadline: '2026-11-27T07:00:00.000Z' }
    const { limits } = allocate(input)
    // It needs 20.3 A for an hour; it gets its 16 A maximum, the five others share the rest (9.4 A).
    expect(limits[0]).toMatchObject({ limit_a: 16, reason: 'plan_priority', plan: { required_a: 20.3, reachable: false } })
    expect(limits.slice(1).map((l) => l.limit_a)).toEqual([9.4, 9.4, 9.4, 9.4, 9.4])
  })
})

describe('allocate: taking turns', () => {
  it('12 cars behind 63 A: 10 charge at 6.3 A, two wait; after a 15 min turn the two longest charging make way', () => {
    let input = garage(12)
    let round = allocate(input)
    expect(round.limits.filter((l) => l.limit_a > 0)).toHaveLength(10)
    expect(round.limits.slice(10).map((l) => [l.reason, l.until])).toEqual([['waiting_for_turn', at(900)], ['waiting_for_turn', at(900)]])
    // Rounds every 10 s: nothing changes within the turn.
    for (let t = 10; t < 900; t += 10) {
      input = { ...input, now: at(t), previous: round.state }
      round = allocate(input)
      expect(round.limits.slice(10).map((l) => l.limit_a)).toEqual([0, 0])
    }
    round = allocate({ ...input, now: at(900), previous: round.state })
    expect(round.limits.slice(10).map((l) => l.limit_a)).toEqual([6.3, 6.3])
    expect(round.limits.filter((l) => l.limit_a === 0)).toHaveLength(2)
  })

  it("over two hours, 12 cars behind 63 A get the same energy within one turn's worth (Jain's index ≥ 0.99)", () => {
    const input = garage(12)
    const ampSeconds = new Map<number, number>()
    let previous: AllocationState | undefined
    for (let t = 0; t < 7200; t += 10) {
      const round = allocate({ ...input, now: at(t), previous })
      for (const l of round.limits) ampSeconds.set(l.station_id, (ampSeconds.get(l.station_id) ?? 0) + l.limit_a * 10)
      previous = round.state
    }
    const xs = [...ampSeconds.values()]
    const jain = xs.reduce((a, b) => a + b, 0) ** 2 / (xs.length * xs.reduce((a, b) => a + b * b, 0))
    expect(jain).toBeGreaterThanOrEqual(0.99)
    expect(Math.min(...xs)).toBeGreaterThan(0)
  })

  it('turns are per circuit: a full sub-distribution makes its own cars take turns while the others charge on', () => {
    const input = garage(4, {
      circuits: [{ id: 'grid', parent_id: null, limit_a: 63 }, { id: 'carport', parent_id: 'grid', limit_a: 10 }],
    })
    input.stations[2].circuit_id = 'carport'
    input.stations[3].circuit_id = 'carport'
    const { limits } = allocate(input)
    expect(limits.map((l) => l.limit_a)).toEqual([16, 16, 10, 0])
    expect(limits[3]).toMatchObject({ reason: 'waiting_for_turn', circuit_id: 'carport', until: at(900) })
  })
})

describe('allocate: no grid reading', () => {
  it('falls back to static shares of the connection: 2 of 6 stations charging get 10.5 A each, not 16', () => {
    const input = garage(6, { grid_import_kw: null })
    for (const s of input.stations.slice(2)) s.charging = false
    const { limits } = allocate(input)
    expect(limits.slice(0, 2)).toEqual([
      { station_id: 1, limit_a: 10.5, reason: 'fallback_static' },
      { station_id: 2, limit_a: 10.5, reason: 'fallback_static' },
    ])
  })

  it('50 stations behind 63 A without a reading: a static share of 1.26 A is below the minimum, so they pause', () => {
    const { limits } = allocate(garage(50, { grid_import_kw: null }))
    expect(new Set(limits.map((l) => `${l.limit_a} ${l.reason}`))).toEqual(new Set(['0 fallback_static']))
  })

  it('the static shares also keep the building load last measured off the connection', () => {
    const first = allocate(garage(6, { grid_import_kw: 15.18 })) // 22 A of house load
    const { limits } = allocate(garage(6, { grid_import_kw: null, previous: first.state, now: at(60) }))
    expect(limits.map((l) => l.limit_a)).toEqual([6.8, 6.8, 6.8, 6.8, 6.8, 6.8])
    expect(staticShares([{ id: 'grid', parent_id: null, limit_a: 63 }], garage(6).stations, 22)).toEqual([6.8, 6.8, 6.8, 6.8, 6.8, 6.8])
  })
})

describe('allocate: hysteresis', () => {
  it('a share that would rise by less than 1 A is not sent; a cut the connection needs is sent at once', () => {
    // 4.14 kW of house load = 6 A per phase: 57 A for six cars, 9.5 A each.
    const first = allocate(garage(6, { grid_import_kw: 4.14 }))
    expect(amps(first)).toEqual([9.5, 9.5, 9.5, 9.5, 9.5, 9.5])
    // The house load drops to 3 A: 0.5 A more each, not worth a new limit.
    const second = allocate(garage(6, { grid_import_kw: 2.07, now: at(60), previous: first.state }))
    expect(amps(second)).toEqual(amps(first))
    // Not for good: once the limit has stood 150 s the cars get the rise, 9.6 A (the building's held
    // load has fallen to 5 A by then, 0.5 A a round).
    expect(amps(allocate(garage(6, { grid_import_kw: 2.07, now: at(140), previous: second.state })))).toEqual(amps(first))
    expect(amps(allocate(garage(6, { grid_import_kw: 2.07, now: at(150), previous: second.state })))).toEqual([9.6, 9.6, 9.6, 9.6, 9.6, 9.6])
    // It rises to 12 A: the cars must drop now, to 8.3 A: 63 A less 12 A and the headroom a rising
    // load earns (1 % of the connection, 0.63 A), over six cars.
    const third = allocate(garage(6, { grid_import_kw: 8.28, now: at(70), previous: second.state }))
    expect(amps(third)).toEqual([8.3, 8.3, 8.3, 8.3, 8.3, 8.3])
  })

  it("keeps headroom for a meter's jitter only while readings rise above the held load, at most 1 % of the connection", () => {
    // A steady building keeps none: 57 A for six cars, 9.5 A each, round after round.
    let round = allocate(garage(6, { grid_import_kw: 4.14 }))
    for (let t = 10; t <= 60; t += 10) {
      round = allocate(garage(6, { grid_import_kw: 4.14 + 6 * 9.5 * 0.69, stations_power_kw: Object.fromEntries([1, 2, 3, 4, 5, 6].map((id) => [id, 9.5 * 0.69])), now: at(t), previous: round.state }))
      expect(amps(round)).toEqual([9.5, 9.5, 9.5, 9.5, 9.5, 9.5])
    }
    expect(round.state.building_headroom_a).toBeUndefined()
    // The house creeps up by 0.2 A: the controller keeps those 0.2 A free besides the load itself.
    const crept = allocate(garage(6, { grid_import_kw: (6.2 * 3 * 230) / 1000 + 6 * 9.5 * 0.69, stations_power_kw: Object.fromEntries([1, 2, 3, 4, 5, 6].map((id) => [id, 9.5 * 0.69])), now: at(70), previous: round.state }))
    expect(crept.state.building_headroom_a).toBeCloseTo(0.2, 6)
    // A jump of 10 A earns no more than 1 % of 63 A.
    const jumped = allocate(garage(6, { grid_import_kw: (16.2 * 3 * 230) / 1000 + 6 * 9.5 * 0.69, stations_power_kw: Object.fromEntries([1, 2, 3, 4, 5, 6].map((id) => [id, 9.5 * 0.69])), now: at(80), previous: crept.state }))
    expect(jumped.state.building_headroom_a).toBeCloseTo(0.63, 6)
    expect(amps(jumped).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(63 - 16.2 - 0.63 + 1e-9)
    // Steady again, it falls by 0.01 A a round.
    const after = allocate(garage(6, { grid_import_kw: (16.2 * 3 * 230) / 1000 + 6 * 7.7 * 0.69, stations_power_kw: Object.fromEntries([1, 2, 3, 4, 5, 6].map((id) => [id, 7.7 * 0.69])), now: at(90), previous: jumped.state }))
    expect(after.state.building_headroom_a).toBeCloseTo(0.62, 6)
  })

  it('a limit is held for 30 s after it changed, where it fits', () => {
    const input = garage(2)
    input.stations[1].charging = false
    const first = allocate(input)
    expect(amps(first)).toEqual([16, 0])
    // A second car arrives 10 s later: the first must make room, so it changes at once.
    const second = allocate({ ...garage(2, { circuits: [{ id: 'grid', parent_id: null, limit_a: 20 }] }), now: at(10), previous: first.state })
    expect(amps(second)).toEqual([10, 10])
    // 10 s later the second leaves: the first would get 16 A, but its limit changed 10 s ago.
    const gone = garage(2, { circuits: [{ id: 'grid', parent_id: null, limit_a: 20 }], now: at(20), previous: second.state })
    gone.stations[1].charging = false
    expect(amps(allocate(gone))).toEqual([10, 0])
    expect(amps(allocate({ ...gone, now: at(40) }))).toEqual([16, 0])
  })

  it('a car paused for its turn is not restarted within 30 s (settling, until the hold ends)', () => {
    const input = garage(2, { circuits: [{ id: 'grid', parent_id: null, limit_a: 10 }] })
    const first = allocate(input)
    expect(amps(first)).toEqual([10, 0])
    // 10 s later the connection could take both (house load gone? here: a bigger limit), but station 2's
    // limit changed 10 s ago: it waits until the hold ends.
    const bigger = { ...input, circuits: [{ id: 'grid', parent_id: null, limit_a: 32 }], now: at(10), previous: first.state }
    expect(allocate(bigger).limits[1]).toEqual({ station_id: 2, limit_a: 0, reason: 'settling', until: at(30) })
    expect(allocate({ ...bigger, now: at(30) }).limits[1]).toMatchObject({ limit_a: 16 })
  })

  it('a station on a circuit the installation does not have gets 0 A (circuit_limit)', () => {
    const input = garage(1)
    input.stations[0].circuit_id = 'gone'
    expect(allocate(input).limits[0]).toEqual({ station_id: 1, limit_a: 0, reason: 'circuit_limit', circuit_id: 'gone', shared_by: 0 })
  })
})
