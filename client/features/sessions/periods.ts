import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc.js'
import timezone from 'dayjs/plugin/timezone.js'
import { clientDate } from '../../api/clock.ts'

dayjs.extend(utc)
dayjs.extend(timezone)

/** A session period filter (SPEC §2, §9): current month, quarter, year, or a given year. */
export type Period = { kind: 'month' } | { kind: 'quarter' } | { kind: 'year' } | { kind: 'given'; year: number }

/**
 * The [start, end) of a period in the installation's time zone as ISO strings with offset, for
 * GET /api/rfids-charge/ start__gte and end__lte (SPEC §9: range from the period start to the next
 * period start). Quarters start in January, April, July and October.
 */
export function periodRange(period: Period, tz: string, now: Date = clientDate()): { start: string; end: string } {
  const local = dayjs(now).tz(tz)
  let start: dayjs.Dayjs
  let months: number
  switch (period.kind) {
    case 'month':
      start = dayjs.tz(`${local.format('YYYY-MM')}-01 00:00`, tz)
      months = 1
      break
    case 'quarter':
      start = dayjs.tz(`${local.year()}-${String(Math.floor(local.month() / 3) * 3 + 1).padStart(2, '0')}-01 00:00`, tz)
      months = 3
      break
    case 'year':
      start = dayjs.tz(`${local.year()}-01-01 00:00`, tz)
      months = 12
      break
    case 'given':
      start = dayjs.tz(`${period.year}-01-01 00:00`, tz)
      months = 12
      break
  }
  // Build the end from the local calendar date, so a DST change inside the period does not shift it.
  const [y, m] = start.tz(tz).format('YYYY-MM').split('-').map(Number)
  const next = y * 12 + (m - 1) + months
  const end = dayjs.tz(`${Math.floor(next / 12)}-${String((next % 12) + 1).padStart(2, '0')}-01 00:00`, tz)
  return { start: start.format(), end: end.format() }
}

/** The years offered in the "given year" choice: this year back to `count - 1` years ago. */
export function recentYears(now: Date = clientDate(), count = 5): number[] {
  const y = now.getFullYear()
  return Array.from({ length: count }, (_, i) => y - i)
}
