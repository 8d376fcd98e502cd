import { lazy, Suspense, useEffect, useMemo, useState } from 'react'
import './charts.css'
import { useTranslation } from 'react-i18next'
import { useSearch } from 'wouter'
import { useQuery } from '@tanstack/react-query'
// Tremor's KPI pieces by their own modules: the package index pulls every component, charts (recharts)
// included, into this chunk; the bars load recharts only when drawn (bar-chart.tsx).
import type { Card as TremorCard, Metric as TremorMetric, Text as TremorText } from '@tremor/react'
import cardModule from '@tremor/react/dist/components/layout-elements/Card/Card.js'
import metricModule from '@tremor/react/dist/components/text-elements/Metric/Metric.js'
import textModule from '@tremor/react/dist/components/text-elements/Text/Text.js'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { localDate, periodRange, PERIODS, type Period } from '../../../shared/rules/granularity.ts'
import { Card, Loading, useDocumentTitle } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { PeriodPicker } from './period-picker.tsx'
import { periodLabel } from './period-label.ts'
import { SeriesTable } from './series-table.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { chartKeys, fetchBatteryStates, fetchFlow, fetchStatistics, fetchTotals, fetchZev, type Bucket, type RangeQuery, type Statistics, type Totals, type ZevData } from './api.ts'
import { ZevReport } from './zev-report.tsx'
import { EnergyRatios } from './energy-ratios.tsx'
import ScopedCharts from './scoped-charts.tsx'
import { rememberPeriod } from '../../components/chart-period.ts'
import { availableKinds, buildingFlow, CHART_KINDS, incompleteBuckets, isLineSeries, timeWeightedAverage, upTo, type ChartKind } from './kinds.ts'
import { DataQualityNotice } from './data-quality-notice.tsx'
import { PinButton } from '../../components/pin-button.tsx'
import { paths } from '../../app/paths.ts'
import { clientNow, clientDate } from '../../api/clock.ts'

// Both chart libraries load only when a chart is drawn: lightweight-charts for kW and % lines,
// Tremor's BarChart (recharts) for per-bucket bars.
const StatsChart = lazy(() => import('./stats-chart.tsx'))
const StatsBars = lazy(() => import('./bar-chart.tsx'))
// Tremor ships ES modules without "type": "module", so TypeScript reads these files' default export as
// the CommonJS module; at run time (Vite) it is the component, typed as the package index types it.
const KpiCard = cardModule as unknown as typeof TremorCard
const Metric = metricModule as unknown as typeof TremorMetric
const Text = textModule as unknown as typeof TremorText

/**
 * The series of one kind, from the call its source names (kinds.ts); the flow meter adds the building.
 * `averages`: headline averages the server computed (the battery's time-weighted state of charge, null
 * without readings); the state series keeps only buckets with a reading (no 0 % for gaps).
 */
async function fetchKind(installationId: number, def: (typeof CHART_KINDS)[number], range: RangeQuery, signal: AbortSignal): Promise<Statistics & { averages?: Record<string, number | null> }> {
  if (def.source === 'battery') {
    const { average_soc, ...stats } = await fetchBatteryStates(installationId, range, signal)
    const series = Object.fromEntries(Object.entries(stats.series).map(([k, b]) => [k, b.filter((x): x is Bucket => x.value !== null)]))
    for (const k of ['battery_soc', 'battery_soc_min', 'battery_soc_max']) if (series[k]) series[k] = upTo(series[k], clientNow())
    return { ...stats, series, averages: { battery_soc: average_soc } }
  }
  if (def.source === 'flow') {
    const stats = await fetchFlow(installationId, range, signal)
    if (!stats.series.grid_flow) return stats
    return { ...stats, units: { ...stats.units, building_flow: 'kW' }, series: { ...stats.series, building_flow: buildingFlow(stats.series) } }
  }
  return fetchStatistics(installationId, range, def.flow, signal)
}

/** The battery state of charge's per-bucket range (GET …/battery/states). */
const SOC_RANGE = ['battery_soc_min', 'battery_soc_max']

/** What one kind's chart shows for a period: its series, the period's totals and, for ZEV, the report. */
interface KindView {
  stats: Statistics & { averages?: Record<string, number | null> }
  totals: Totals
  zev: ZevData | null
}

async function fetchKindView(installationId: number, def: (typeof CHART_KINDS)[number], range: RangeQuery, signal: AbortSignal): Promise<KindView> {
  const [stats, totals, zev] = await Promise.all([
    fetchKind(installationId, def, range, signal),
    // With the kW series where the kind shows them: their averages over the time with data come from the server.
    fetchTotals(installationId, range, def.flow, signal),
    def.key === 'zev' ? fetchZev(installationId, range, signal) : Promise.resolve(null),
  ])
  return { stats, totals, zev }
}

/**
 * Charts (SPEC §2): one chart kind by day, week, month or year with previous/next. The
 * range and granularity follow SPEC §9 (shared/rules/granularity.ts); totals are shown as figures and
 * every bucket in a table, so the screen works without seeing the chart.
 */
export default function ChartsPage({ installation }: { installation: Installation }) {
  // A meter or flat opened from the installation view has charts of its own; the key
  // remounts the page when a link changes only the query, so each view reads its address afresh.
  const search = useSearch()
  const q = new URLSearchParams(search)
  const meter = Number(q.get('meter'))
  const object = Number(q.get('object'))
  if (Number.isInteger(meter) && meter > 0) return <ScopedCharts key={`m${meter}`} installation={installation} scope={{ kind: 'meter', id: meter }} />
  if (Number.isInteger(object) && object > 0) return <ScopedCharts key={`o${object}`} installation={installation} scope={{ kind: 'object', id: object }} />
  return <FacilityCharts key={search} installation={installation} />
}

function FacilityCharts({ installation }: { installation: Installation }) {
  const { t } = useTranslation('charts')
  useDocumentTitle(t('title'))
  const tz = installation.timezone
  const f = useFormats(tz)
  // A shortcut opens the chart with its kind and period: ?kind=…&period=…&date=YYYY-MM-DD.
  const [initial] = useState(() => new URLSearchParams(window.location.search))
  const [period, setPeriod] = useState<Period>(() => ((PERIODS as readonly string[]).includes(initial.get('period') ?? '') ? (initial.get('period') as Period) : 'day'))
  const [date, setDate] = useState(() => (/^\d{4}-\d{2}-\d{2}$/.test(initial.get('date') ?? '') ? initial.get('date')! : localDate(clientDate(), tz)))
  const [kind, setKind] = useState<ChartKind>(() => CHART_KINDS.find((k) => k.key === initial.get('kind'))?.key ?? 'consumption')
  const [kinds, setKinds] = useState<ChartKind[] | null>(null)
  const range = useMemo(() => periodRange(period, date, tz), [period, date, tz])
  // The installation view opens meters and flats in this period.
  useEffect(() => rememberPeriod({ period, date: range.date }), [period, range.date])
  const def = CHART_KINDS.find((k) => k.key === kind)!

  const query = useQuery({ queryKey: chartKeys.facility(installation.id, kind, range), queryFn: ({ signal }) => fetchKindView(installation.id, def, range, signal) })
  // The totals say which kinds the caller may see; a kind they may not (an old shortcut) gives way to the first one.
  const allowed = useMemo(() => (query.data ? availableKinds(query.data.totals.units) : null), [query.data])
  useEffect(() => {
    if (!allowed) return
    setKinds(allowed)
    if (!allowed.includes(kind)) setKind(allowed[0] ?? 'chargingStations')
  }, [allowed, kind])
  const data = query.data && allowed?.includes(kind) ? query.data : null

  const labels = useMemo(() => Object.fromEntries([...CHART_KINDS.flatMap((k) => k.series), ...SOC_RANGE].map((s) => [s, t(`series.${s}`)])), [t])
  // The state of charge's lowest and highest reading per bucket go into the chart and the table, not the headline.
  const shown = useMemo(
    () => (data ? Object.fromEntries([...def.series, ...(kind === 'battery' ? SOC_RANGE : [])].filter((s) => data.stats.series[s]).map((s) => [s, data.stats.series[s]])) : {}),
    [data, def, kind],
  )
  // Lines (kW, %) and bars (kWh, m3, CHF) of the shown series: a kind may have both (battery).
  const [lineSeries, barSeries] = useMemo(() => {
    const lines: Record<string, Bucket[]> = {}
    const bars: Record<string, Bucket[]> = {}
    for (const [s, b] of Object.entries(shown)) (isLineSeries(s, data?.stats.units[s]) ? lines : bars)[s] = b
    return [lines, bars]
  }, [shown, data])
  // Rows of the table whose time lacks readings (the longest series' buckets, as the table's rows).
  const incomplete = useMemo(() => {
    const rows = Object.values(shown).reduce<Bucket[]>((a, b) => (b.length > a.length ? b : a), [])
    return incompleteBuckets(rows, data?.stats.data_quality?.gaps ?? [], range.end)
  }, [shown, data, range.end])
  const step = (offset: number) => setDate(periodRange(period, date, tz, { offset }).date)
  const label = useMemo(() => periodLabel(period, range, f, tz), [range, period, f, tz])
  const value = (name: string, v: number) => {
    const unit = data?.stats.units[name] ?? data?.totals.units[name] ?? ''
    if (unit === '%') return f.percent(v)
    return unit === 'CHF' ? f.money(v) : f.unit(v, unit)
  }
  // Averages are over the time with data: the server's for the state of charge; the building's from the
  // kW totals (each an average over the quarter hours with readings), as buildingFlow combines them per bucket.
  const headlineAverage = (s: string) => {
    const server = data?.stats.averages?.[s]
    if (server !== undefined) return server === null ? '–' : value(s, server)
    const tot = data?.totals.series ?? {}
    if (s === 'building_flow' && tot.grid_flow !== undefined) {
      const at = (k: string) => tot[k] ?? 0
      return value(s, Math.max(0, at('grid_flow') + at('pv_flow') + at('battery_discharge_flow') - at('battery_charge_flow') - at('charging_stations_flow')))
    }
    return value(s, timeWeightedAverage(data?.stats.series[s] ?? [], range.end))
  }
  // The bar chart's axis: times of day within a day, dates otherwise (the table gives both).
  const axisLabel = (start: string) => (range.granularity === 'hour' || range.granularity === 'fifteen_minutes' ? f.time(start) : f.date(start))
  const bucketLabel = (start: string) => (range.granularity === 'hour' || range.granularity === 'fifteen_minutes' ? f.dateTime(start) : f.date(start))

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        <PinButton installationId={installation.id} name={`${t(`kind.${kind}`)} · ${label}`} url={`${paths.charts(installation.id)}?${new URLSearchParams({ kind, period, date: range.date })}`} />
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <PeriodPicker period={period} label={label} onPeriod={setPeriod} onStep={step} />
        <label className="inline-flex items-center gap-2 text-sm text-slate-700">
          {t('kind.label')}
          <select value={kind} onChange={(e) => setKind(e.target.value as ChartKind)} className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500">
            {(kinds ?? [kind]).map((k) => (
              <option key={k} value={k}>
                {t(`kind.${k}`)}
              </option>
            ))}
          </select>
        </label>
      </div>

      {!query.data && query.isError && !query.isFetching ? (
        <QueryProblem error={query.error} onRetry={query.refetch} />
      ) : !data ? (
        <Loading label={t('loading')} />
      ) : (
        <>
          <section aria-labelledby="charts-totals" className="grid grid-cols-1 gap-3 sm:grid-cols-3">
            <h2 id="charts-totals" className="sr-only">
              {t('totals')}
            </h2>
            {def.series.filter((s) => s in data.totals.series || s in data.stats.series).map((s) => (
              <KpiCard key={s} role="group" aria-label={labels[s]} className="p-4">
                <Text className="text-xs font-medium uppercase tracking-wide">{labels[s]}</Text>
                <Metric className="mt-1 text-2xl">{s in data.totals.series ? value(s, data.totals.series[s]) : headlineAverage(s)}</Metric>
                {!(s in data.totals.series) || isLineSeries(s, data.totals.units[s]) ? <Text className="text-xs">{t('average')}</Text> : null}
              </KpiCard>
            ))}
          </section>
          {/* Self-sufficiency, self-consumption and the previous period: for callers who see the main meter (overview). */}
          <EnergyRatios installationId={installation.id} period={period} date={range.date} f={f} enabled={data.totals.units.consumption !== undefined} />
          <DataQualityNotice quality={data.stats.data_quality} f={f} />
          <Card titleId="charts-chart" title={t(`kind.${kind}`)}>
            {Object.values(shown).every((b) => b.every((x) => x.value === 0)) ? (
              <p className="py-8 text-center text-sm text-slate-500">{t('empty')}</p>
            ) : (
              <Suspense fallback={<Loading label={t('loading')} />}>
                {Object.keys(barSeries).length ? <StatsBars series={barSeries} labels={labels} bucketLabel={axisLabel} format={value} /> : null}
                {Object.keys(lineSeries).length ? <StatsChart series={lineSeries} labels={labels} granularity={range.granularity} lines /> : null}
              </Suspense>
            )}
            <SeriesTable series={shown} label={(s) => labels[s]} bucketLabel={bucketLabel} value={value} incomplete={incomplete} className="mt-3 text-sm" />
          </Card>
          {data.zev ? <ZevReport data={data.zev} tz={tz} /> : null}
        </>
      )}
    </div>
  )
}

