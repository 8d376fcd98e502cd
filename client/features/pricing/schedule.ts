import { minutesOf, WEEKDAYS, type ScheduleEntry } from '../../../shared/rules/tariff.ts'

/** A span of a day in minutes since local midnight, [start, end). */
export type Span = [number, number]

/**
 * High- and low-tariff spans of one weekday (0 = Monday, SPEC §9). High spans are the schedule's
 * entries for that day (an end at or before the start runs to midnight, as isHighTariff), merged;
 * low spans are their complement over the day (SPEC §3).
 */
export function daySpans(schedule: readonly ScheduleEntry[], weekday: number): { high: Span[]; low: Span[] } {
  const day = WEEKDAYS[weekday]
  const raw: Span[] = schedule
    .filter((e) => e[day])
    .map((e) => {
      const start = minutesOf(e.start)
      const end = minutesOf(e.end)
      return [start, end <= start ? 1440 : end] as Span
    })
    .sort((a, b) => a[0] - b[0])
  const high: Span[] = []
  for (const s of raw) {
    const last = high[high.length - 1]
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1])
    else high.push([s[0], s[1]])
  }
  const low: Span[] = []
  let at = 0
  for (const [s, e] of high) {
    if (s > at) low.push([at, s])
    at = Math.max(at, e)
  }
  if (at < 1440) low.push([at, 1440])
  return { high, low }
}

/** "HH:mm" of minutes since midnight (1440 → "24:00"). */
export const hhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`
