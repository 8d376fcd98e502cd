import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import { useQuery } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { localDate, periodRange, PERIODS, type Period } from '../../../shared/rules/granularity.ts'
import { Card, Loading, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { PeriodPicker } from './period-picker.tsx'
import { SeriesTable } from './series-table.tsx'
import { rememberedPeriod, rememberPeriod } from '../../components/chart-period.ts'
import { paths } from '../../app/paths.ts'
import { chartKeys, fetchObjectName, fetchScoped, type Bucket, type ChartScope } from './api.ts'
import { clientDate } from '../../api/clock.ts'
import { incompleteBuckets } from './kinds.ts'
import { DataQualityNotice } from './data-quality-notice.tsx'

const StatsBars = lazy(() => import('./bar-chart.tsx'))
const StatsChart = lazy(() => import('./stats-chart.tsx'))

/**
 * The charts of one meter or one flat, opened from the installation view: that meter's
 * own series (a flat's electricity, heat and water), not the facility's, by day, week, month or year.
 * The period comes from the address or the tab's last chart period and is kept when going back to the
 * facility-wide charts. One chart per unit (kWh, m3, CHF bars; kW lines), totals, and a table.
 */
export default function ScopedCharts({ installation, scope }: { installation: Installation; scope: ChartScope }) {
  const { t } = useTranslation('charts')
  const tz = installation.timezone
  const f = useFormats(tz)
  const [initial] = useState(() => {
    const q = new URLSearchParams(window.location.search)
    const kept = rememberedPeriod()
    const period = (PERIODS as readonly string[]).includes(q.get('period') ?? '') ? (q.get('period') as Period) : (kept?.period ?? 'day')
    const date = /^\d{4}-\d{2}-\d{2}$/.test(q.get('date') ?? '') ? q.get('date')! : (kept?.date ?? localDate(clientDate(), tz))
    return { period, date }
  })
  const [period, setPeriod] = useState<Period>(initial.period)
  const [date, setDate] = useState(initial.date)
  const range = useMemo(() => periodRange(period, date, tz), [period, date, tz])
  const query = useQuery({
    queryKey: chartKeys.scoped(installation.id, scope, range),
    queryFn: ({ signal }) => fetchScoped(installation.id, { kind: scope.kind, id: scope.id }, range, signal),
  })
  const data = query.data ?? null
  const objectName = useQuery({
    queryKey: chartKeys.objectName(installation.id, scope.id),
    queryFn: ({ signal }) => fetchObjectName(installation.id, scope.id, signal),
    enabled: scope.kind === 'object',
  })
  // A meter's name comes with its figures; it stays in the heading while another period loads.
  const [meterName, setMeterName] = useState<string | null>(null)
  if (data?.meter && data.meter.name !== meterName) setMeterName(data.meter.name)
  const name = scope.kind === 'object' ? (objectName.data ?? null) : meterName
  useDocumentTitle(name ? `${name} · ${t('title')}` : t('title'))

  useEffect(() => {
    rememberPeriod({ period, date: range.date })
    const q = new URLSearchParams(window.location.search)
    q.set('period', period)
    q.set('date', range.date)
    window.history.replaceState(window.history.state, '', `${window.location.pathname}?${q}`)
  }, [period, range.date])

  const hourly = range.granularity === 'hour' || range.granularity === 'fifteen_minutes'
  const axisLabel = (start: string) => (hourly ? f.time(start) : f.date(start))
  const bucketLabel = (start: string) => (hourly ? f.dateTime(start) : f.date(start))
  const value = (s: string, v: number) => {
    const unit = data?.units[s] ?? ''
    return unit === 'CHF' ? `CHF ${f.number(v)}` : `${f.number(v)} ${unit}`
  }
  const label = (s: string) => t(`series.${s}`, { defaultValue: s })
  const labels = useMemo(() => Object.fromEntries(Object.keys(data?.series ?? {}).map((s) => [s, t(`series.${s}`, { defaultValue: s })])), [data, t])
  // One chart per unit: a bar chart's axis has one unit; kW goes on lines.
  const groups = useMemo(() => {
    const out = new Map<string, Record<string, Bucket[]>>()
    for (const [s, b] of Object.entries(data?.series ?? {})) {
      const unit = data!.units[s] ?? ''
      out.set(unit, { ...(out.get(unit) ?? {}), [s]: b })
    }
    return [...out.entries()]
  }, [data])
  const empty = data ? Object.values(data.series).every((b) => b.every((x) => x.value === 0)) : false
  const incomplete = useMemo(() => {
    const rows = Object.values(data?.series ?? {}).reduce<Bucket[]>((a, b) => (b.length > a.length ? b : a), [])
    return incompleteBuckets(rows, data?.data_quality?.gaps ?? [], range.end)
  }, [data, range.end])
  const total = (b: Bucket[]) => b.reduce((s, x) => s + x.value, 0)
  const periodLabel = period === 'day' ? f.date(range.start) : `${f.date(range.start)} – ${f.date(Date.parse(range.end) - 1)}`
  const facilityHref = `${paths.charts(installation.id)}?${new URLSearchParams({ period, date: range.date })}`

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <nav aria-label={t('scoped.back')} className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <Link href={paths.installationView(installation.id)} className="text-brand-700 underline">
          {t('scoped.backToView')}
        </Link>
        <Link href={facilityHref} className="text-brand-700 underline">
          {t('scoped.facility')}
        </Link>
      </nav>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{name ?? t('title')}</h1>
      <p className="text-sm text-slate-600">{scope.kind === 'meter' ? t('scoped.meterIntro') : t('scoped.objectIntro')}</p>
      <div className="flex flex-wrap items-center gap-3">
        <PeriodPicker period={period} label={periodLabel} onPeriod={setPeriod} onStep={(offset) => setDate(periodRange(period, date, tz, { offset }).date)} />
      </div>
      {!data ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={t('loading')} />
      ) : (
        <>
          <ul aria-label={t('totals')} className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            {Object.entries(data.series).filter(([s]) => data.units[s] !== 'kW').map(([s, b]) => (
              <li key={s} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
                <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label(s)}</p>
                <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value(s, total(b))}</p>
              </li>
            ))}
          </ul>
          <DataQualityNotice quality={data.data_quality} f={f} />
          {empty ? (
            <p role="status" className="rounded-lg border border-dashed border-slate-300 bg-slate-50 px-4 py-6 text-center text-sm text-slate-600">
              {t('scoped.empty')}
            </p>
          ) : (
            groups.map(([unit, series]) => (
              <Card key={unit} titleId={`scoped-${unit}`} title={`${Object.keys(series).map(label).join(', ')} (${unit})`}>
                <Suspense fallback={<Loading label={t('loading')} />}>
                  {unit === 'kW' ? <StatsChart series={series} labels={labels} granularity={range.granularity} lines /> : <StatsBars series={series} labels={labels} bucketLabel={axisLabel} format={value} />}
                </Suspense>
              </Card>
            ))
          )}
          <SeriesTable series={data.series} label={label} bucketLabel={bucketLabel} value={value} incomplete={incomplete} />
        </>
      )}
    </div>
  )
}
