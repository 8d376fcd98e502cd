/**
 * The Proof of load management (issue brief "bench:load"; docs/load-management.md, docs/decisions.md
 * "Load management: the allocation rules"): a simulated weekday, 06:00 to 06:00, of 20 cars on 10 stations
 * (11 kW, 3-phase) behind a 63 A connection, with the building's own load moving every 5 s, the demo's
 * tariff (low from 20:00 to 07:00) and a charge plan per car (kWh by its departure). It runs the
 * controller's decisions as the controller takes them: every 10 s (CONTROL_INTERVAL_S) the planner
 * (server/control/plans.ts: planSteps, planMaxKw, planRound) and the allocator (allocate()) from what the
 * meters read; between rounds a 5 s physics step in which each car draws what its last limit allows (a
 * limit reaches the car at the next step, as on the simulator). What it prints:
 * - grid import above the connection: how many 10 s intervals had a 5 s sample above it, and the
 *   longest run of such intervals (target: at most one);
 * - charge plans: of the plans the planner called reachable when the car arrived, how many reached their
 *   kWh by the departure (target: all);
 * - fairness: Jain's index of the currents of equal-priority cars (same mode, no plan priority, wanting
 *   more than they get) per round, time-weighted mean (target ≥ 0.9) and the share of rounds below 0.9;
 * - the controller step (planner + allocator) p50/p99/max, wall and CPU, here and for 200 stations (the
 *   same weekday with 400 cars behind 20 sub-distributions of 63 A under a 1,000 A connection; target
 *   p99 ≤ 50 ms).
 * The database, OCPP and the HTTP layer are not in it (see bench:load-step for allocate() alone); it runs
 * on a model clock from CLOCK_START (default Wednesday 4 March 2026, 06:00 Europe/Zurich) as fast as it
 * computes.
 * Usage: npm run bench:load [-- STATIONS_FOR_STEP]   (200 by default; 0 skips the 200-station run)
 */
import os from 'node:os'
import { allocate, type AllocationState, type Circuit, type ReasonCode, type StationDemand } from '../server/control/allocate.ts'
import { planMaxKw, planRound, planSteps, type ActivePlan } from '../server/control/plans.ts'
import { CONTROL_INTERVAL_S } from '../server/control/controller.ts'
import { isHighTariff, type ScheduleEntry } from '../shared/rules/tariff.ts'
import { localParts } from '../shared/rules/formats.ts'
import { prng } from './prng.ts'

const TZ = 'Europe/Zurich'
const START = Date.parse(process.env.CLOCK_START ?? '2026-03-04T06:00:00+01:00')
const DAY_MS = 24 * 3_600_000
const STEP_MS = 5_000
const ROUND_MS = CONTROL_INTERVAL_S * 1000
const KW_PER_A = (3 * 230) / 1000
const STATION_MAX_A = 15.9
/** The meter's jitter from one 5 s sample to the next, kW per 10 stations (BENCH_NOISE_KW). */
const NOISE_KW = Number(process.env.BENCH_NOISE_KW ?? 0.3)
/**
 * Appliances per 10 stations (BENCH_APPLIANCES): each 0.5–3 kW, switching on for 10 minutes on average
 * and off for an hour, so the building's load jumps by kilowatts between two readings.
 */
const APPLIANCES = Number(process.env.BENCH_APPLIANCES ?? 8)
/** The demo's tariff (server/db/demo-seed.ts): high 07:00–20:00 on weekdays, 07:00–13:00 on Saturdays. */
const HIGH: ScheduleEntry[] = [
  { start: '07:00', end: '20:00', monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0 },
  { start: '07:00', end: '13:00', monday: 0, tuesday: 0, wednesday: 0, thursday: 0, friday: 0, saturday: 1, sunday: 0 },
]


interface Car {
  station: number
  arrive: number
  depart: number
  mode: 'instant' | 'optimized'
  planKwh: number
  /** What the car takes before it is full (at least its plan). */
  wantKwh: number
  charged: number
  feasible: boolean | null
}

/** Two cars per station: one by day (07:00–09:30 until 16:00–18:00, instant), one by night (17:30–20:30 until 05:00–06:00, optimized). */
function carsFor(stations: number, random: () => number): Car[] {
  const h = (x: number) => START + x * 3_600_000
  const cars: Car[] = []
  for (let s = 0; s < stations; s++) {
    const dayPlan = 5 + Math.round(random() * 20)
    cars.push({ station: s, arrive: h(1 + random() * 2.5), depart: h(10 + random() * 2), mode: 'instant', planKwh: dayPlan, wantKwh: dayPlan + random() * 10, charged: 0, feasible: null })
    const nightPlan = 10 + Math.round(random() * 30)
    cars.push({ station: s, arrive: h(11.5 + random() * 3), depart: h(23 + random()), mode: 'optimized', planKwh: nightPlan, wantKwh: nightPlan + random() * 15, charged: 0, feasible: null })
  }
  return cars
}

/**
 * The building's own load, kW: a base, a morning and an evening bump (per 10 stations), appliances
 * switching on and off (`appliances`, updated here every 5 s step) and the meter's jitter.
 */
function buildingKw(t: number, scale: number, random: () => number, appliances: { kw: number; on: boolean }[]): number {
  const hour = localParts(new Date(t), TZ).minute / 60
  const bump = (c: number, w: number, kw: number) => kw * Math.exp(-(((hour - c) / w) ** 2))
  let switched = 0
  for (const a of appliances) {
    if (random() < STEP_MS / (a.on ? 600_000 : 3_600_000)) a.on = !a.on
    if (a.on) switched += a.kw
  }
  return scale * (4 + bump(7.5, 1, 5) + bump(12, 1.5, 3) + bump(19, 2, 9) + random() * NOISE_KW) + switched
}

/** p50, p99 and max of `xs`. */
function quantiles(xs: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...xs].sort((a, b) => a - b)
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
  return { p50: q(0.5), p99: q(0.99), max: sorted[sorted.length - 1] }
}

/** One simulated weekday of `stations` stations; returns what the Proof prints. */
function runDay(stations: number) {
  const random = prng(25 + stations)
  const boards = stations > 10 ? Math.ceil(stations / 10) : 0
  const connectionA = stations > 10 ? 1000 : 63
  const connectionKw = connectionA * KW_PER_A
  const circuits: Circuit[] = [{ id: 'grid', parent_id: null, limit_a: connectionA }, ...Array.from({ length: boards }, (_, b) => ({ id: `board-${b}`, parent_id: 'grid', limit_a: 63 }))]
  const circuitOf = (s: number) => (boards ? `board-${Math.floor(s / 10)}` : 'grid')
  const cars = carsFor(stations, random)
  const limits = new Array<number>(stations).fill(0)
  const draw = new Array<number>(stations).fill(0)
  let previous: AllocationState | undefined
  const wall: number[] = []
  const cpu: number[] = []
  const reasons = new Map<ReasonCode, number>()
  let overIntervals = 0
  let run = 0
  let longestRun = 0
  let overThisInterval = false
  // The same beyond a class 1 meter's accuracy (IEC 62053-21: ±1 %), so a meter's jitter is told apart.
  let overTolerant = false
  let tolerantRun = 0
  let tolerantLongest = 0
  let tolerantIntervals = 0
  let maxOverKw = 0
  let jainWeighted = 0
  let jainRounds = 0
  let jainLow = 0
  let jainMin = 1
  let gridKw = 0
  /** The highest grid import since the last round (the controller reads the interval's highest reading). */
  let gridMaxKw = 0
  const appliances = Array.from({ length: Math.round((APPLIANCES * stations) / 10) }, () => ({ kw: 0.5 + random() * 2.5, on: false }))
  let house = buildingKw(START, stations / 10, random, appliances)
  const byStation = Array.from({ length: stations }, (_, s) => cars.filter((c) => c.station === s))
  const present = (s: number, t: number) => byStation[s].find((c) => c.arrive <= t && t < c.depart) ?? null

  for (let t = START; t < START + DAY_MS; t += STEP_MS) {
    if ((t - START) % ROUND_MS === 0) {
      // The end of a control interval: was it above the connection at any 5 s sample?
      if (t > START) {
        if (overThisInterval) {
          overIntervals++
          run++
          longestRun = Math.max(longestRun, run)
        } else run = 0
        overThisInterval = false
        if (overTolerant) {
          tolerantIntervals++
          tolerantRun++
          tolerantLongest = Math.max(tolerantLongest, tolerantRun)
        } else tolerantRun = 0
        overTolerant = false
      }
      // A control round, as server/control/controller.ts runs it, from the meter read at the last step.
      const at = new Date(t)
      const p = localParts(at, TZ)
      const low = !isHighTariff(HIGH, p.weekday, p.minute)
      const demands: StationDemand[] = []
      for (let s = 0; s < stations; s++) {
        const car = present(s, t)
        demands.push({ station_id: s + 1, circuit_id: circuitOf(s), phases: 3, min_a: 6, max_a: STATION_MAX_A, mode: car?.mode ?? 'instant', charging: !!car && car.charged < car.wantKwh - 1e-6 })
      }
      const started = performance.now()
      const cpuStarted = process.cpuUsage()
      const building = previous?.building_a ?? 0
      for (let s = 0; s < stations; s++) {
        const car = present(s, t)
        const d = demands[s]
        if (!car || !d.charging || car.charged >= car.planKwh) continue
        const active: ActivePlan = { plan_id: s, station_id: s + 1, session_id: s, deadline: new Date(car.depart), base_kwh: 0, remaining_kwh: car.planKwh - car.charged }
        const path = circuits.filter((c) => c.id === d.circuit_id || c.id === 'grid')
        const plan = planRound(d, active, at, planMaxKw(d, path, building), planSteps(at, active.deadline, TZ, HIGH, 0))
        if (car.feasible === null) car.feasible = plan.reachable
      }
      const out = allocate({
        now: at.toISOString(), circuits, stations: demands, grid_import_kw: gridMaxKw,
        stations_power_kw: Object.fromEntries(draw.map((kw, s) => [s + 1, kw])), pv_surplus_kw: -gridKw,
        tariff: { low }, ...(previous ? { previous } : {}),
      })
      const c = process.cpuUsage(cpuStarted)
      wall.push(performance.now() - started)
      cpu.push((c.user + c.system) / 1000)
      previous = out.state
      gridMaxKw = -Infinity
      // Fairness among equal-priority cars that want more than they get: per mode, no plan priority.
      for (const mode of ['instant', 'optimized'] as const) {
        const xs = out.limits.filter((l) => demands[l.station_id - 1].charging && demands[l.station_id - 1].mode === mode && l.reason !== 'plan_priority' && l.reason !== 'ok' && l.reason !== 'settling' && l.reason !== 'low_tariff_later').map((l) => l.limit_a)
        if (xs.length < 2) continue
        const sum = xs.reduce((a, x) => a + x, 0)
        const sq = xs.reduce((a, x) => a + x * x, 0)
        const jain = sq > 0 ? (sum * sum) / (xs.length * sq) : 1
        jainWeighted += jain
        jainRounds++
        if (jain < 0.9) jainLow++
        jainMin = Math.min(jainMin, jain)
      }
      for (const l of out.limits) {
        limits[l.station_id - 1] = l.limit_a
        reasons.set(l.reason, (reasons.get(l.reason) ?? 0) + 1)
      }
    }
    // A 5 s physics step: the building moves, each car draws what its limit allows until it is full.
    house = buildingKw(t, stations / 10, random, appliances)
    for (let s = 0; s < stations; s++) {
      const car = present(s, t)
      const kw = car ? Math.min(limits[s] * KW_PER_A, STATION_MAX_A * KW_PER_A, ((car.wantKwh - car.charged) * 3_600_000) / STEP_MS) : 0
      draw[s] = Math.max(0, kw)
      if (car) car.charged += (draw[s] * STEP_MS) / 3_600_000
    }
    gridKw = house + draw.reduce((a, x) => a + x, 0)
    gridMaxKw = Math.max(gridMaxKw, gridKw)
    if (gridKw > connectionKw * 1.01) overTolerant = true
    if (gridKw > connectionKw + 1e-6) {
      overThisInterval = true
      maxOverKw = Math.max(maxOverKw, gridKw - connectionKw)
    }
  }
  const feasible = cars.filter((c) => c.feasible)
  const missed = feasible.filter((c) => c.charged + 0.05 < c.planKwh)
  return {
    stations, cars: cars.length, connectionA, rounds: wall.length, overIntervals, longestRun, maxOverKw, tolerantIntervals, tolerantLongest,
    feasible: feasible.length, reached: feasible.length - missed.length, missed,
    infeasible: cars.filter((c) => c.feasible === false).map((c) => `${c.planKwh} kWh (got ${c.charged.toFixed(1)})`),
    jainMean: jainRounds ? jainWeighted / jainRounds : 1, jainRounds, jainLow, jainMin,
    wall: quantiles(wall), cpu: quantiles(cpu), reasons,
  }
}

const f = (x: { p50: number; p99: number; max: number }) => `p50 ${x.p50.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms, max ${x.max.toFixed(2)} ms`
const load = () => os.loadavg().map((x) => x.toFixed(1)).join(' / ')
let failed = false
const check = (ok: boolean) => {
  if (!ok) failed = true
  return ok ? 'met' : 'MISSED'
}

console.log(`bench:load, a weekday from ${new Date(START).toISOString()} (${TZ}), load average before: ${load()}`)
const day = runDay(10)
console.log(`\n${day.cars} cars on ${day.stations} stations behind ${day.connectionA} A, ${day.rounds} control rounds of ${CONTROL_INTERVAL_S} s`)
console.log(`  grid import above the connection: in ${day.overIntervals} intervals, longest run ${day.longestRun} interval(s), at most ${day.maxOverKw.toFixed(2)} kW above (target ≤ 1 interval: ${check(day.longestRun <= 1)})`)
console.log(`  … more than 1 % above (a class 1 meter's accuracy): in ${day.tolerantIntervals} intervals, longest run ${day.tolerantLongest} interval(s)`)
console.log(`  charge plans: ${day.reached} of ${day.feasible} feasible plans reached (target all: ${check(day.reached === day.feasible)})${day.missed.length ? `; missed: ${day.missed.map((c) => `${c.planKwh} kWh got ${c.charged.toFixed(2)}`).join(', ')}` : ''}`)
console.log(`  plans the planner called unreachable on arrival: ${day.infeasible.length ? day.infeasible.join(', ') : 'none'}`)
console.log(`  fairness (Jain) among equal-priority cars held back: mean ${day.jainMean.toFixed(3)} over ${day.jainRounds} rounds, min ${day.jainMin.toFixed(3)}, ${day.jainLow} rounds below 0.9 (target mean ≥ 0.9: ${check(day.jainMean >= 0.9)})`)
console.log(`  controller step (planner + allocator): wall ${f(day.wall)}; cpu ${f(day.cpu)}`)
console.log(`  reasons over all rounds: ${[...day.reasons].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`)

const big = Number(process.argv[2] ?? 200)
if (big > 0) {
  const r = runDay(big)
  console.log(`\n${r.cars} cars on ${r.stations} stations behind ${r.connectionA} A and ${r.stations / 10} sub-distributions of 63 A, ${r.rounds} rounds`)
  console.log(`  controller step (planner + allocator): wall ${f(r.wall)} (target p99 ≤ 50 ms: ${check(r.wall.p99 <= 50)}); cpu ${f(r.cpu)}`)
  console.log(`  grid above the connection: ${r.overIntervals} intervals, longest run ${r.longestRun} (more than 1 % above: ${r.tolerantIntervals}, longest ${r.tolerantLongest}); plans ${r.reached} of ${r.feasible} feasible reached; Jain mean ${r.jainMean.toFixed(3)}`)
}
console.log(`\nload average after: ${load()} (${os.cpus().length} cores)`)
if (failed) process.exitCode = 1
