import type { TFunction } from 'i18next'
import type { Formats } from '../../components/use-formats.ts'
import { periodRange, PERIODS, type Period } from '../../../shared/rules/granularity.ts'
import { periodLabel } from '../charts/period-label.ts'
import { CHART_KINDS } from '../charts/kinds.ts'

/**
 * The name Home shows for a shortcut (SPEC §2), in the reader's language now: a pinned chart
 * (/facility/{id}/charts?kind=…&period=…&date=YYYY-MM-DD) is named from its kind and period, the reports
 * screen by its title, as the screens name themselves; any other shortcut (a station, an object) by the
 * name stored when it was pinned, which is the object's own name. So a shortcut pinned in German reads
 * in French after the language changes. `charts` and `reports` are the translations of those namespaces.
 */
export function shortcutLabel(s: { name: string; url: string }, ctx: { charts: TFunction; reports: TFunction; f: Pick<Formats, 'date' | 'locale'>; tz: string }): string {
  let url: URL
  try {
    url = new URL(s.url, 'http://cockpit.invalid')
  } catch {
    return s.name
  }
  if (/^\/facility\/\d+\/reports\/?$/.test(url.pathname) && !url.search) return ctx.reports('title')
  if (!/^\/facility\/\d+\/charts\/?$/.test(url.pathname)) return s.name
  const kind = url.searchParams.get('kind') ?? ''
  const period = url.searchParams.get('period') as Period
  const date = url.searchParams.get('date') ?? ''
  const kindName = CHART_KINDS.some((k) => k.key === kind) ? ctx.charts(`kind.${kind}`, { defaultValue: '' }) : ''
  if (!kindName || !PERIODS.includes(period) || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return s.name
  return `${kindName} · ${periodLabel(period, periodRange(period, date, ctx.tz), ctx.f, ctx.tz)}`
}
