import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc.js'
import timezone from 'dayjs/plugin/timezone.js'

dayjs.extend(utc)
dayjs.extend(timezone)

/** Chart periods (SPEC §9 chart granularities). */
export const PERIODS = ['day', 'week', 'month', 'year'] as const
export type Period = (typeof PERIODS)[number]

/** Statistics granularities the API accepts (SPEC §7 `granularity`). */
export const GRANULARITIES = ['fifteen_minutes', 'hour', 'day', 'month'] as const
export type Granularity = (typeof GRANULARITIES)[number]

/**
 * SPEC §9: day with fine granularity → fifteen_minutes; day otherwise → hour; week and month → day;
 * year → month.
 */
export function granularityOf(period: Period, fine = false): Granularity {
  if (period === 'day') return fine ? 'fifteen_minutes' : 'hour'
  if (period === 'year') return 'month'
  return 'day'
}

/** A calendar date as [year, month 1–12, day]. */
type Ymd = [number, number, number]

const ymdOf = (d: Date): Ymd => [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate()]
const fromYmd = ([y, m, d]: Ymd) => new Date(Date.UTC(y, m - 1, d))
const iso = ([y, m, d]: Ymd) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`

/** The installation-local calendar date of an instant, "YYYY-MM-DD". */
export function localDate(instant: Date | string | number, tz: string): string {
  return dayjs(instant).tz(tz).format('YYYY-MM-DD')
}

/** Local midnight of calendar date `date` ("YYYY-MM-DD") in `tz`, as ISO-8601 with offset. */
export function localMidnight(date: string, tz: string): string {
  return dayjs.tz(date, tz).format()
}

/** First calendar date of the period containing `date` (weeks start on Monday, SPEC §9). */
function periodStart(period: Period, date: string): Ymd {
  const [y, m, d] = date.split('-').map(Number) as Ymd
  if (period === 'day') return [y, m, d]
  if (period === 'month') return [y, m, 1]
  if (period === 'year') return [y, 1, 1]
  const js = fromYmd([y, m, d])
  const back = (js.getUTCDay() + 6) % 7
  return ymdOf(new Date(js.getTime() - back * 86_400_000))
}

/** The calendar date `n` periods after `start` (a period start). */
function addPeriods(period: Period, [y, m, d]: Ymd, n: number): Ymd {
  if (period === 'day') return ymdOf(new Date(fromYmd([y, m, d]).getTime() + n * 86_400_000))
  if (period === 'week') return ymdOf(new Date(fromYmd([y, m, d]).getTime() + 7 * n * 86_400_000))
  if (period === 'month') return ymdOf(new Date(Date.UTC(y, m - 1 + n, 1)))
  return [y + n, 1, 1]
}

/** A statistics query for one chart period: the API's start, end and granularity. */
export interface PeriodRange {
  /** Local calendar date the period starts on, "YYYY-MM-DD" (what the chart shows and navigates by). */
  date: string
  /** Period start, installation-local midnight, ISO-8601 with offset. */
  start: string
  /** Next period's start (exclusive end), ISO-8601 with offset. */
  end: string
  granularity: Granularity
}

/**
 * The statistics range of the `period` containing local date `date` ("YYYY-MM-DD"), `offset` periods
 * later (−1 = previous, +1 = next). SPEC §9: start is the period start, end the next period's start,
 * both local midnight in `tz` (so a Europe/Zurich day spans 23, 24 or 25 hours).
 */
export function periodRange(period: Period, date: string, tz: string, { offset = 0, fine = false }: { offset?: number; fine?: boolean } = {}): PeriodRange {
  const first = addPeriods(period, periodStart(period, date), offset)
  const next = addPeriods(period, first, 1)
  return { date: iso(first), start: localMidnight(iso(first), tz), end: localMidnight(iso(next), tz), granularity: granularityOf(period, fine) }
}
