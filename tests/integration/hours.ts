import { visitAt } from '../../server/devices/simulator/physics.ts'

/**
 * The instants the integration suite runs at (ARCHITECTURE §1 "Time"): a test never decides what to
 * expect from the machine's clock; it starts its app at one of these (startApp's `at`) or at one it
 * chooses. All are in the demo installation's zone, Europe/Zurich (SPEC §9 default time zone).
 *
 * - `morning`, `evening`, `night`: a Wednesday in March (winter time, +01:00). With the suite's
 *   simulator seed (7) station 1 is free in the morning; at 21:00 residents' cars hold stations.
 * - `springForward`: 30 minutes before the clocks go from 02:00 to 03:00 (the day has 23 hours).
 * - `fallBack`: the first 02:30 of the day the clocks go from 03:00 back to 02:00 (25 hours).
 */
export const AT = {
  night: '2026-03-04T03:00:00+01:00',
  morning: '2026-03-04T09:00:00+01:00',
  evening: '2026-03-04T21:00:00+01:00',
  springForward: '2026-03-29T01:30:00+01:00',
  fallBack: '2026-10-25T02:30:00+02:00',
} as const

/** The three hours each time-dependent feature is tested at. */
export const HOURS = ['night', 'morning', 'evening'] as const satisfies ReadonlyArray<keyof typeof AT>

/** The simulator seed startApp gives the demo (SIM_SEED in tests). */
export const TEST_SIM_SEED = 7

/**
 * The first quarter hour at or after `from` at which the demo's own cars leave station `index`
 * (0-based, in the demo's order) free for the next `minutes`, so a test can plug a car of its own in
 * without the simulator's resident arriving. Searches one week ahead.
 *
 * @throws Error when no such time exists within the week
 */
export function stationFreeAt(index: number, { from = AT.morning, minutes = 60, seed = TEST_SIM_SEED }: { from?: string; minutes?: number; seed?: number } = {}): string {
  const start = Date.parse(from)
  for (let t = start; t < start + 7 * 86_400_000; t += 15 * 60_000) {
    let free = true
    for (let u = t - 5 * 60_000; free && u <= t + minutes * 60_000; u += 60_000) free = !visitAt(new Date(u), 'Europe/Zurich', seed, index)
    if (free) return new Date(t).toISOString()
  }
  throw new Error(`station ${index + 1} is never free for ${minutes} minutes in the week from ${from}`)
}

/**
 * Whether the demo's own car is at station `index` (0-based) at `at` with the suite's seed: what a
 * test of the evening expects the station to show.
 */
export function demoCarAt(index: number, at: string, seed = TEST_SIM_SEED): boolean {
  return visitAt(new Date(at), 'Europe/Zurich', seed, index) !== null
}
