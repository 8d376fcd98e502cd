/**
 * The load allocator's step time (server/control/allocate.ts, docs/decisions.md "Load management: the
 * allocation rules"): 200 stations behind a 250 A connection with ten 63 A sub-distributions of 20
 * stations each (3-phase 11 and 22 kW, single-phase 7.4 kW on L1–L3; instant, optimized and solar; a few
 * charge plans), 1,000 rounds 10 s apart with cars arriving and leaving, a house load and PV surplus that
 * move, the grid meter silent now and then, each round fed the previous round's state. Prints allocate()'s
 * p50, p99 and max (target p99 ≤ 50 ms) and what the rounds decided (limit changes sent, reasons).
 * Usage: npm run bench:load-step [-- STATIONS ROUNDS]   (200 and 1000 by default)
 */
import { allocate, type AllocationInput, type AllocationState, type Circuit, type ReasonCode, type StationDemand } from '../server/control/allocate.ts'
import { prng } from './prng.ts'

const STATIONS = Number(process.argv[2] ?? 200)
const ROUNDS = Number(process.argv[3] ?? 1000)
const TARGET_P99_MS = 50
const T0 = Date.parse('2026-11-27T06:00:00.000Z')

const random = prng(25)

const boards = Math.ceil(STATIONS / 20)
const circuits: Circuit[] = [
  { id: 'grid', parent_id: null, limit_a: 250 },
  ...Array.from({ length: boards }, (_, b) => ({ id: `board-${b + 1}`, parent_id: 'grid', limit_a: 63 })),
]
const modes = ['instant', 'optimized', 'optimized', 'solar'] as const
const stations: StationDemand[] = Array.from({ length: STATIONS }, (_, i) => {
  const single = i % 5 === 4
  return {
    station_id: i + 1,
    circuit_id: `board-${Math.floor(i / 20) + 1}`,
    phases: single ? 1 : 3,
    ...(single ? { phase: ((i % 3) + 1) as 1 | 2 | 3 } : {}),
    min_a: 6,
    max_a: single ? 32 : i % 7 === 0 ? 32 : 16,
    mode: modes[i % modes.length],
    charging: random() < 0.6,
  }
})

const times: number[] = []
/** CPU time of the same calls: on a busy machine the wall time also counts waiting for a core. */
const cpuTimes: number[] = []
const reasons = new Map<ReasonCode, number>()
let previous: AllocationState | undefined
let changes = 0
for (let r = 0; r < ROUNDS; r++) {
  const nowMs = T0 + r * 10_000
  // Cars come and go (about one a minute per 50 stations); some bring a charge plan for the morning.
  for (const s of stations) {
    if (random() < 0.003) {
      s.charging = !s.charging
      if (s.charging && random() < 0.2) s.plan = { energy_kwh: 10 + Math.floor(random() * 30), deadline: new Date(nowMs + 4 * 3_600_000).toISOString() }
      else delete s.plan
    }
  }
  const draw: Record<number, number> = {}
  let stationsKw = 0
  for (const s of stations) {
    const kw = ((previous?.limits[s.station_id] ?? 0) * s.phases * 230) / 1000
    draw[s.station_id] = kw
    stationsKw += kw
  }
  const houseKw = 40 + 25 * Math.sin(r / 60) + random() * 5
  const input: AllocationInput = {
    now: new Date(nowMs).toISOString(),
    circuits,
    stations,
    grid_import_kw: r % 97 === 96 ? null : houseKw + stationsKw,
    stations_power_kw: draw,
    pv_surplus_kw: Math.max(0, 30 * Math.sin(r / 150)),
    tariff: { low: r % 400 > 250, until: new Date(nowMs + 600_000).toISOString() },
    ...(previous ? { previous } : {}),
  }
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  const out = allocate(input)
  const cpu = process.cpuUsage(cpuStarted)
  times.push(performance.now() - started)
  cpuTimes.push((cpu.user + cpu.system) / 1000)
  for (const l of out.limits) {
    reasons.set(l.reason, (reasons.get(l.reason) ?? 0) + 1)
    if (previous && previous.limits[l.station_id] !== l.limit_a) changes++
  }
  previous = out.state
}

/** p50, p99 and max of `xs`, ms. */
function quantiles(xs: number[]): { p50: number; p99: number; max: number } {
  const sorted = [...xs].sort((a, b) => a - b)
  const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]
  return { p50: q(0.5), p99: q(0.99), max: sorted[sorted.length - 1] }
}
const wall = quantiles(times)
const cpu = quantiles(cpuTimes)
const p99 = wall.p99
const f = (x: { p50: number; p99: number; max: number }) => `p50 ${x.p50.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms, max ${x.max.toFixed(2)} ms`
console.log(`allocate(): ${STATIONS} stations, ${circuits.length} circuits, ${ROUNDS} rounds`)
console.log(`  wall ${f(wall)} (target p99 ≤ ${TARGET_P99_MS} ms: ${p99 <= TARGET_P99_MS ? 'met' : 'MISSED'})`)
console.log(`  cpu  ${f(cpu)}`)
console.log(`  limit changes sent: ${changes} (${(changes / ROUNDS).toFixed(1)} per round)`)
console.log(`  reasons over all rounds: ${[...reasons].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`).join(', ')}`)
if (p99 > TARGET_P99_MS) process.exitCode = 1
