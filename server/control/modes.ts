import { isHighTariff, minutesOf, type ScheduleEntry } from '../../shared/rules/tariff.ts'
import { localParts } from '../../shared/rules/formats.ts'
import type { AllocationMode } from './allocate.ts'

/** A station's timer as the controller reads it (SPEC §3 timers: weekdays from Monday, "HH:mm", mode). */
export interface TimerRow { object_id: number; days: boolean[]; start_time: string; charging_mode: string }

/**
 * The SPEC §4 mode a station in timer mode follows at local (`weekday`, `minute`): the timer whose start
 * passed most recently over the last week on a day it repeats; optimized without a timer (as the
 * simulator and the OCPP profile read timers).
 */
export function timerModeAt(timers: TimerRow[], stationId: number, weekday: number, minute: number): string {
  let best: { elapsed: number; mode: string } | null = null
  for (const t of timers) {
    if (t.object_id !== stationId) continue
    const start = minutesOf(t.start_time)
    for (let back = 0; back < 8; back++) {
      const day = (weekday - back + 70) % 7
      if (!t.days[day]) continue
      const elapsed = back * 1440 + minute - start
      if (elapsed < 0) continue
      if (!best || elapsed < best.elapsed) best = { elapsed, mode: t.charging_mode }
      break
    }
  }
  return best?.mode ?? 'optimized'
}

/**
 * How the allocator treats a station's mode (SPEC §4 charging modes): instant and rfid → instant;
 * optimized → optimized (the allocator keeps it to PV surplus outside the low tariff); solar → solar;
 * locked and anything else → null (no power). Timer mode is resolved first ({@link timerModeAt}).
 */
export function allocationMode(mode: string): AllocationMode | null {
  switch (mode) {
    case 'instant':
    case 'rfid':
      return 'instant'
    case 'optimized':
    case 'solar':
      return mode
    default:
      return null
  }
}

/**
 * The next instant after `at` (15-minute steps, within a week) at which the high-tariff `schedule` gives
 * way to low tariff in zone `tz`; null when it never does.
 */
export function nextLowTariff(schedule: readonly ScheduleEntry[], at: Date, tz: string): Date | null {
  const step = 15 * 60_000
  let t = Math.floor(at.getTime() / step) * step + step
  for (let i = 0; i < 7 * 96; i++, t += step) {
    const p = localParts(new Date(t), tz)
    if (!isHighTariff(schedule, p.weekday, p.minute)) return new Date(t)
  }
  return null
}
