import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { localDate, periodRange, PERIODS, type Period } from '../../../shared/rules/granularity.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Loading } from '../../components/ui.tsx'
import { AxisBars } from '../../components/axis-bars.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { stationKeys, stationStatistics } from './station-api.ts'
import { clientDate } from '../../api/clock.ts'

/**
 * The charts tab of a station (SPEC §2): energy charged (kWh) and average power (kW) per bucket for a
 * day, week, month or year (SPEC §9 granularities), with previous/next navigation. Each chart has a
 * value axis with its unit and a time axis in the user's date format; a period without
 * charging says so and what to do instead of drawing nothing. The same figures are in a table for
 * screen readers and keyboard users.
 */
export function StationCharts({ installationId, stationId, f }: { installationId: number; stationId: number; f: Formats }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  const ids = { period: useId(), table: useId() }
  const [period, setPeriod] = useState<Period>('day')
  const [date, setDate] = useState(() => localDate(clientDate(), f.timezone))
  const range = periodRange(period, date, f.timezone)
  const query = useQuery({
    queryKey: stationKeys.statistics(installationId, stationId, range),
    queryFn: ({ signal }) => stationStatistics(installationId, stationId, range, signal),
  })
  const data = query.data

  const energy = data?.series.charging_stations ?? []
  const power = data?.series.charging_stations_flow ?? []
  const hourly = range.granularity === 'hour' || range.granularity === 'fifteen_minutes'
  const label = (iso: string) => (hourly ? f.time(iso) : range.granularity === 'month' ? monthLabel(iso, f) : f.date(iso))
  const axisLabel = (iso: string) => (hourly ? f.time(iso) : range.granularity === 'month' ? monthLabel(iso, f) : dayLabel(iso, f))
  const total = energy.reduce((s, b) => s + b.value, 0)
  // Buckets cover the whole period (empty ones are 0): an all-zero period has nothing to draw.
  const nothing = energy.every((b) => b.value === 0)
  const dates = `${f.date(range.start)} – ${f.date(new Date(new Date(range.end).getTime() - 1))}`

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-2">
        <div>
          <label htmlFor={ids.period} className="block text-sm font-medium text-slate-700">
            {t('charts.period')}
          </label>
          <select id={ids.period} value={period} onChange={(e) => setPeriod(e.target.value as Period)} className="mt-1 rounded-lg border border-slate-300 bg-white py-2 pl-3 pr-8 text-sm">
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {t(`charts.periods.${p}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className="btn-secondary px-3 py-2" onClick={() => setDate(periodRange(period, date, f.timezone, { offset: -1 }).date)}>
          {t('charts.previous')}
        </button>
        <button type="button" className="btn-secondary px-3 py-2" onClick={() => setDate(periodRange(period, date, f.timezone, { offset: 1 }).date)}>
          {t('charts.next')}
        </button>
        <p className="text-sm text-slate-600" aria-live="polite">
          {period === 'day' ? f.date(range.start) : dates} · {t('charts.total', { energy: f.kwh(total) })}
        </p>
      </div>
      {!data ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={tc('loading')} />
      ) : nothing ? (
        <div role="status" className="rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">
          <p className="font-medium text-slate-800">{t('charts.empty')}</p>
          <p className="mt-1">{t('charts.emptyHint')}</p>
        </div>
      ) : (
        <>
          <AxisBars bars={energy} unit="kWh" title={t('charts.energy')} label={axisLabel} format={f.number} />
          {power.length > 0 ? <AxisBars bars={power} unit="kW" title={t('charts.power')} label={axisLabel} format={f.number} tone="bg-indigo-400" /> : null}
          <details>
            <summary className="cursor-pointer text-sm font-medium text-brand-700">{t('charts.table')}</summary>
            <table id={ids.table} className="mt-2 w-full text-left text-sm">
              <thead className="text-xs uppercase text-slate-500">
                <tr>
                  <th scope="col">{t('charts.time')}</th>
                  <th scope="col" className="text-right">{t('charts.energy')}</th>
                  <th scope="col" className="text-right">{t('charts.power')}</th>
                </tr>
              </thead>
              <tbody>
                {energy.map((b, i) => (
                  <tr key={b.start}>
                    <td>{label(b.start)}</td>
                    <td className="text-right tabular-nums">{f.kwh(b.value)}</td>
                    <td className="text-right tabular-nums">{power[i] ? f.kw(power[i].value) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </details>
        </>
      )}
    </div>
  )
}

/** "Mar 2026" in the UI language and the installation's time zone (buckets of a year). */
function monthLabel(iso: string, f: Formats): string {
  return new Intl.DateTimeFormat(f.language, { month: 'short', year: 'numeric', timeZone: f.timezone }).format(new Date(iso))
}

/** A day bucket on the time axis: the date in the user's format without the year (room is short). */
function dayLabel(iso: string, f: Formats): string {
  return f.date(iso).replace(/[./]\d{4}$/, '')
}
