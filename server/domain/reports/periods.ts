import { localDate, localMidnight } from '../../../shared/rules/granularity.ts'

import { INTERVALS, type ReportInterval } from '../../../shared/schemas/reports.ts'

/** Report intervals (SPEC §3, §9): day, week, month, quarter, semester (half year), year. */
export { INTERVALS, type ReportInterval }

/** A report period: installation-local calendar dates [from, to) and the instants of their midnights. */
export interface ReportPeriod {
  interval: ReportInterval
  from: string
  to: string
  start: Date
  end: Date
}

const MONTHS: Record<'m' | 'q' | 's' | 'y', number> = { m: 1, q: 3, s: 6, y: 12 }

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

/**
 * The last complete period of `interval` before `now` in time zone `tz`: yesterday, last week (Monday
 * to Monday), last month, quarter, half year or year. Months, quarters, halves and years start on
 * 1 Jan / 1 Apr / 1 Jul / 1 Oct as usual.
 */
export function lastCompletedPeriod(interval: ReportInterval, now: Date, tz: string): ReportPeriod {
  const today = localDate(now, tz)
  let from: string
  let to: string
  if (interval === 'd') {
    to = today
    from = addDays(today, -1)
  } else if (interval === 'w') {
    const dow = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7
    to = addDays(today, -dow)
    from = addDays(to, -7)
  } else {
    const span = MONTHS[interval]
    const [y, m] = today.split('-').map(Number)
    const startIndex = Math.floor((m - 1) / span) * span // 0-based month of the running period's start
    const end = new Date(Date.UTC(y, startIndex, 1))
    const start = new Date(Date.UTC(y, startIndex - span, 1))
    to = end.toISOString().slice(0, 10)
    from = start.toISOString().slice(0, 10)
  }
  return { interval, from, to, start: new Date(localMidnight(from, tz)), end: new Date(localMidnight(to, tz)) }
}

/**
 * The runs due at `now`: for every interval of the report, its last complete period when that period
 * has not been sent yet (`lastRuns[interval]` is the ISO end of the last period sent). Only the latest
 * missed period is made up, not every one missed while the server was down.
 */
export function dueRuns(intervals: readonly ReportInterval[], lastRuns: Record<string, string>, now: Date, tz: string): ReportPeriod[] {
  return intervals
    .map((i) => lastCompletedPeriod(i, now, tz))
    .filter((p) => !lastRuns[p.interval] || Date.parse(lastRuns[p.interval]) < p.end.getTime())
}
