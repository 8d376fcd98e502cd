import { PERIODS, type Period } from '../../shared/rules/granularity.ts'

/** A chart period as the charts screens share it (SPEC §9): its length and a local date inside it. */
export interface ChartPeriod {
  period: Period
  date: string
}

const KEY = 'cockpit.chart-period'

/**
 * The chart period last looked at in this tab, so a meter or flat opened from the installation view
 * shows the same period as the facility-wide chart; null before any.
 */
export function rememberedPeriod(): ChartPeriod | null {
  try {
    const v = JSON.parse(sessionStorage.getItem(KEY) ?? 'null') as Partial<ChartPeriod> | null
    return v && (PERIODS as readonly string[]).includes(v.period ?? '') && /^\d{4}-\d{2}-\d{2}$/.test(v.date ?? '') ? (v as ChartPeriod) : null
  } catch {
    return null
  }
}

/** Keep `p` as the tab's chart period (see {@link rememberedPeriod}). */
export function rememberPeriod(p: ChartPeriod): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(p))
  } catch {
    // Storage may be off (private mode): the period is then only kept in the address.
  }
}

/** "?meter=12&period=month&date=2026-11-01": a charts address with `scope` and the remembered period. */
export function chartsQuery(scope: Record<string, string | number>): string {
  const p = rememberedPeriod()
  const q = new URLSearchParams(Object.entries(scope).map(([k, v]) => [k, String(v)]))
  if (p) (q.set('period', p.period), q.set('date', p.date))
  return `?${q.toString()}`
}
