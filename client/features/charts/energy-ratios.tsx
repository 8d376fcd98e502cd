import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import type { Period } from '../../../shared/rules/granularity.ts'
import type { RatiosAnswer } from '../../../shared/schemas/statistics.ts'
import { Card, ScrollArea } from '../../components/ui.tsx'
import type { Formats } from '../../components/use-formats.ts'
import { chartKeys, fetchRatios } from './api.ts'

const TOTALS = ['consumption', 'pv_production', 'grid_import', 'grid_export'] as const
const RATIOS = ['self_sufficiency', 'self_consumption'] as const

/**
 * Self-sufficiency and self-consumption (Home Assistant's definitions) of the chart period, and the period's
 * energy totals, each with the change against the previous period ("+4.3 pts vs previous week"); a running
 * period is compared over the same elapsed time, which the card says. Figures as text, so the card needs no
 * chart to be read. Shown to callers with the overview right only (`enabled`).
 */
export function EnergyRatios({ installationId, period, date, f, enabled }: { installationId: number; period: Period; date: string; f: Formats; enabled: boolean }) {
  const { t } = useTranslation('charts')
  const query = useQuery({ queryKey: chartKeys.ratios(installationId, period, date), queryFn: ({ signal }) => fetchRatios(installationId, period, date, signal), enabled })
  const r: RatiosAnswer | undefined = query.data
  if (!enabled || !r) return null
  const vs = t(`ratios.vs.${period}`)
  const points = (v: number | null) => (v === null ? t('ratios.noComparison') : t('ratios.points', { value: `${v > 0 ? '+' : v < 0 ? '−' : '±'}${f.number(Math.abs(v), 1)}`, vs }))
  return (
    <Card titleId="charts-ratios" title={t('ratios.title')}>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        {RATIOS.map((k) => (
          <div key={k} role="group" aria-label={t(`ratios.${k}`)} className="rounded-xl border border-slate-200 p-3">
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{t(`ratios.${k}`)}</p>
            <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{r.current[k] === null ? '–' : f.percent(r.current[k]!, 1)}</p>
            <p className="text-sm text-slate-600">{points(r.change[k])}</p>
            <p className="mt-1 text-xs text-slate-500">{t(`ratios.${k}Help`)}</p>
          </div>
        ))}
      </div>
      {/* A phone's width holds the four columns in small type; narrower screens scroll the table, not the page. */}
      <ScrollArea labelledBy="charts-ratios-compare" className="mt-4">
        <table className="w-full text-left text-xs sm:text-sm">
          <caption id="charts-ratios-compare" className="mb-1 text-left text-xs font-medium uppercase tracking-wide text-slate-500">{t('ratios.compareCaption', { vs })}</caption>
          <thead className="border-b border-slate-200 text-xs text-slate-500">
            <tr>
              <th scope="col" className="py-1.5 pr-2 sm:pr-3 font-medium">{t('ratios.figure')}</th>
              <th scope="col" className="py-1.5 pr-2 sm:pr-3 text-right font-medium">{t('ratios.thisPeriod')}</th>
              <th scope="col" className="py-1.5 pr-2 sm:pr-3 text-right font-medium">{t('ratios.previousPeriod')}</th>
              <th scope="col" className="py-1.5 text-right font-medium">{t('ratios.change')}</th>
            </tr>
          </thead>
          <tbody>
            {TOTALS.map((k) => (
              <tr key={k} className="border-t border-slate-100">
                <th scope="row" className="py-1.5 pr-2 sm:pr-3 font-normal">{t(`series.${k}`)}</th>
                <td className="py-1.5 pr-2 sm:pr-3 text-right tabular-nums">{f.kwh(r.current[k])}</td>
                <td className="py-1.5 pr-2 sm:pr-3 text-right tabular-nums">{f.kwh(r.previous[k])}</td>
                <td className="py-1.5 text-right tabular-nums">{r.change[k] === null ? '–' : `${r.change[k]! > 0 ? '+' : r.change[k]! < 0 ? '−' : '±'}${f.percent(Math.abs(r.change[k]!), 1)}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
      {r.partial ? <p className="mt-2 text-xs text-slate-500">{t('ratios.partial', { time: f.dateTime(r.current.end), previous: f.dateTime(r.previous.end) })}</p> : null}
    </Card>
  )
}
