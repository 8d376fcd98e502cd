import type { Formats } from '../../components/use-formats.ts'
import type { Period, PeriodRange } from '../../../shared/rules/granularity.ts'

/**
 * A chart period as the period picker and a pinned chart's shortcut name it (SPEC §9 dates in the
 * installation's time zone `tz`, in the reader's language and region `f`): a day "04.03.2026", a week
 * "02.03.2026 – 08.03.2026", a month "March 2026", a year "2026".
 */
export function periodLabel(period: Period, range: Pick<PeriodRange, 'start' | 'end'>, f: Pick<Formats, 'date' | 'locale'>, tz: string): string {
  const at = Date.parse(range.start)
  const fmt = (o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(f.locale, { ...o, timeZone: tz }).format(at)
  if (period === 'day') return f.date(range.start)
  if (period === 'week') return `${f.date(range.start)} – ${f.date(Date.parse(range.end) - 1)}`
  if (period === 'month') return fmt({ month: 'long', year: 'numeric' })
  return fmt({ year: 'numeric' })
}
