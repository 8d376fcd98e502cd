import { useEffect, useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { apiFetch } from '../../api/http.ts'
import { errorMessage } from '../../api/errors.ts'
import { localDate, periodRange, PERIODS, type Period } from '../../../shared/rules/granularity.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Loading, Notice } from '../../components/ui.tsx'

interface Answer {
  series: Record<string, { start: string; value: number }[]>
}

/**
 * The charts tab of a station (SPEC §2): energy charged (kWh) and average power (kW) per bucket for a
 * day, week, month or year (SPEC §9 granularities), with previous/next navigation. Bars are drawn in
 * SVG; the same figures are in a table for screen readers and keyboard users.
 */
export function StationCharts({ installationId, stationId, f }: { installationId: number; stationId: number; f: Formats }) {
  const { t } = useTranslation('charging')
  const { t: tc } = useTranslation()
  const ids = { period: useId(), table: useId() }
  const [period, setPeriod] = useState<Period>('day')
  const [date, setDate] = useState(() => localDate(new Date(), f.timezone))
  const [data, setData] = useState<Answer | null>(null)
  const [error, setError] = useState<string | null>(null)
  const range = periodRange(period, date, f.timezone)

  useEffect(() => {
    const ctrl = new AbortController()
    setData(null)
    setError(null)
    apiFetch<Answer>(`/api/statistics/${installationId}/charging_station/${stationId}`, {
      query: { start: range.start, end: range.end, granularity: range.granularity, flow: 'true' },
      signal: ctrl.signal,
    }).then(setData, (err) => {
      if (!ctrl.signal.aborted && !(err as { loggedOut?: boolean }).loggedOut) setError(errorMessage(err, tc))
    })
    return () => ctrl.abort()
  }, [installationId, stationId, range.start, range.end, range.granularity, tc])

  const energy = data?.series.charging_stations ?? []
  const power = data?.series.charging_stations_flow ?? []
  const max = Math.max(0.01, ...energy.map((b) => b.value))
  const label = (iso: string) => (range.granularity === 'hour' || range.granularity === 'fifteen_minutes' ? f.time(iso) : f.date(iso))
  const total = energy.reduce((s, b) => s + b.value, 0)

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
          {f.date(range.start)} · {t('charts.total', { energy: f.kwh(total) })}
        </p>
      </div>
      {error ? (
        <Notice tone="error" role="alert">
          {error}
        </Notice>
      ) : !data ? (
        <Loading label={tc('loading')} />
      ) : energy.length === 0 ? (
        <p className="text-sm text-slate-500">{t('charts.empty')}</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${energy.length * 10} 100`} preserveAspectRatio="none" className="h-40 w-full rounded-lg bg-slate-50" aria-hidden="true">
            {energy.map((b, i) => {
              const h = (b.value / max) * 95
              return <rect key={b.start} x={i * 10 + 1} y={100 - h} width={8} height={h} className="fill-brand-500" />
            })}
          </svg>
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
