import { useEffect, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { Topic } from '../../../shared/live-protocol.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { useFormats, type Formats } from '../../components/use-formats.ts'
import { paths } from '../../app/paths.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { DataAge, LiveBadge } from '../../components/tile-meta.tsx'
import { useNow } from '../../components/use-now.ts'
import { chartsQuery } from '../../components/chart-period.ts'
import { clientNow } from '../../api/clock.ts'
import { retainStream } from '../../live/connection.ts'
import { restoreLive } from '../../live/persist.ts'
import { confirmedAt } from '../../live/freshness.ts'
import { readLive, useLive } from '../../live/use-live.ts'
import { fetchOverview, overviewKeys, type Overview } from './api.ts'
import { baseStatus, flowBreakdown, stationCounts, statusAt, totalsDue, type Flow } from './live-tiles.ts'

/** Today's totals as read from GET …/overview, with the live reading they match (client/features/overview/live-tiles.ts). */
interface TotalsAnswer {
  overview: Overview
  reading: string | null
  fetchedAt: number
}

/**
 * Overview (SPEC §2): main power connection, water and heating meters, power monitoring, the flow
 * meter with details, energy return, PV, battery and a link to the charts. Live (ARCHITECTURE §5): the
 * present figures come from the installation's stream (client/live/), each tile with its data age and a
 * stale or offline badge; today's totals (GET …/overview) are read again as new readings arrive on the
 * stream (live-tiles.ts totalsDue), not on a timer. Without the overview switch (SPEC §6) only the
 * caller's charging stations are shown.
 */
export default function OverviewPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('overview')
  useDocumentTitle(t('title'))
  const id = installation.id
  const f = useFormats(installation.timezone)
  // Paint at once from this tab's last live state, then follow the stream (shared with Power).
  useState(() => restoreLive(id))
  useEffect(() => retainStream(id), [id])

  const query = useQuery({
    queryKey: overviewKeys.overview(id),
    queryFn: async ({ signal }): Promise<TotalsAnswer> => {
      const reading = readLive(id, (inst) => inst?.topics.metrics.data?.timestamp ?? null)
      return { overview: await fetchOverview(id, signal), reading, fetchedAt: clientNow() }
    },
  })
  const totals = query.data
  const liveLoaded = useLive(id, (inst) => inst?.topics.metrics.loaded ?? false)
  const failed = useLive(id, (inst) => inst?.connection === 'failed')

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        <Link href={paths.charts(id)} className="text-sm font-medium text-brand-700 underline">
          {t('openCharts')}
        </Link>
      </div>
      {failed ? <Notice tone="error">{t('liveFailed')}</Notice> : null}
      {!totals ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={t('loading')} />
      ) : (
        <>
          <TotalsFollower installationId={id} totals={totals} refetch={() => void query.refetch()} fetching={query.isFetching} />
          <Tiles installation={installation} totals={totals} live={liveLoaded} f={f} />
        </>
      )}
    </div>
  )
}

/**
 * Reads today's totals again when the stream brings a newer reading (at most once a minute) or the day
 * ends: re-rendered by each event and heartbeat, so the check runs without a timer of its own.
 */
function TotalsFollower({ installationId, totals, refetch, fetching }: { installationId: number; totals: TotalsAnswer; refetch: () => void; fetching: boolean }) {
  const reading = useLive(installationId, (inst) => inst?.topics.metrics.data?.timestamp ?? null)
  const heard = useLive(installationId, (inst) => inst?.lastSeen ?? null)
  useEffect(() => {
    if (!fetching && totalsDue({ fetchedAt: totals.fetchedAt, reading: totals.reading, dayEnd: totals.overview.today.end }, reading, clientNow())) refetch()
  }, [reading, heard, totals, fetching, refetch])
  return null
}

/**
 * A tile's badge and data age from its live topic: since the last confirmation of its data (an event or
 * the relay's heartbeat while the topic is live, client/live/freshness.ts), not its last change; before
 * the stream's first data, since `fallbackAt` (the client time of the REST answer shown meanwhile).
 */
function TileAside({ installationId, topic, fallbackAt }: { installationId: number; topic: Topic; fallbackAt: number }) {
  const at = useLive(installationId, (inst) => (inst ? confirmedAt(inst, topic) : null)) ?? fallbackAt
  const base = useLive(installationId, (inst) => (inst ? baseStatus(inst, topic) : 'live'))
  const now = useNow()
  return (
    <>
      <LiveBadge status={statusAt(base, at, now)} />
      <DataAge updatedAt={at} />
    </>
  )
}

function Tiles({ installation, totals, live, f }: { installation: Installation; totals: TotalsAnswer; live: boolean; f: Formats }) {
  const { t } = useTranslation('overview')
  const id = installation.id
  // The stream's present figures; the REST answer's until the stream's first metrics are in.
  const liveMetrics = useLive(id, (inst) => inst?.topics.metrics.data) as Metrics | null | undefined
  const liveReturn = useLive(id, (inst) => (inst?.topics.energy_return.loaded ? inst.topics.energy_return.data : undefined))
  const m: Metrics = live && liveMetrics ? liveMetrics : totals.overview
  const o = totals.overview
  const energyReturn = liveReturn !== undefined ? liveReturn : o.energy_return
  const series = o.today.series
  const kwh = (v: number | undefined) => f.kwh(v ?? 0)
  const m3 = (v: number | undefined) => f.unit(v ?? 0, 'm3')
  const aside = (topic: Topic) => <TileAside installationId={id} topic={topic} fallbackAt={totals.fetchedAt} />
  // A figure counting from a later day than the period's first (records begin inside it) says so.
  const returnLabel = (period: 'month' | 'year', since: string) =>
    since.endsWith(period === 'year' ? '-01-01' : '-01') ? t(`return.${period}`) : t(`return.${period}Since`, { date: f.date(`${since}T12:00:00Z`) })

  return (
    <>
      {!m.grid ? <Notice tone="info">{t('noOverview')}</Notice> : null}
      <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
        {m.grid ? (
          <Card titleId="ov-main" title={t('main.title')} aside={aside('metrics')}>
            <Facts rows={[[t('main.now'), f.kw(m.grid.power_kw)], [t('main.import'), kwh(series.grid_import)], [t('main.export'), kwh(series.grid_export)], [t('consumption'), kwh(series.consumption)]]} />
          </Card>
        ) : null}
        {m.grid ? (
          <Card titleId="ov-monitoring" title={t('monitoring.title')} aside={aside('metrics')}>
            <Facts
              rows={[
                [t('monitoring.grid'), f.kw(m.grid.power_kw)],
                [t('monitoring.pv'), f.kw(m.pv?.power_kw ?? 0)],
                [t('monitoring.battery'), f.kw(m.battery?.power_kw ?? 0)],
                [t('monitoring.building'), f.kw(m.building?.power_kw ?? 0)],
                [t('monitoring.stations'), f.kw(m.charging_stations.power_kw)],
              ]}
            />
            <p className="mt-2 text-xs text-slate-600">{t('monitoring.signs')}</p>
          </Card>
        ) : null}
        {m.grid ? (
          <Card titleId="ov-flow" title={t('flow.title')} aside={aside('metrics')} className="md:col-span-2">
            <FlowMeter metrics={m} installationId={id} f={f} />
          </Card>
        ) : null}
        {m.pv ? (
          <Card titleId="ov-pv" title={t('pv.title')} aside={aside('metrics')}>
            <Facts rows={[[t('pv.now'), f.kw(m.pv.power_kw)], [t('pv.peak'), f.kw(m.pv.peak_kw)], [t('pv.today'), kwh(series.pv_production)], [t('pv.own'), kwh(series.own_consumption)]]} />
          </Card>
        ) : null}
        {m.battery ? (
          <Card titleId="ov-battery" title={t('battery.title')} aside={aside('metrics')}>
            <Facts rows={[[t('battery.soc'), f.percent(m.battery.soc)], [t('battery.now'), f.kw(m.battery.power_kw)], [t('battery.charged'), kwh(series.battery_charge)], [t('battery.discharged'), kwh(series.battery_discharge)]]} />
          </Card>
        ) : null}
        {energyReturn ? (
          <Card titleId="ov-return" title={t('return.title')} aside={aside('energy_return')}>
            <Facts rows={[
              [t('return.today'), kwh(energyReturn.today_kwh)],
              [returnLabel('month', energyReturn.month_since), kwh(energyReturn.month_kwh)],
              [returnLabel('year', energyReturn.year_since), kwh(energyReturn.year_kwh)],
            ]} />
          </Card>
        ) : null}
        {o.water ? (
          <Card titleId="ov-water" title={t('water.title')} aside={aside('metrics')}>
            <Facts rows={[[t('water.total'), m3(m.water?.today_m3 ?? o.water.today_m3)], [t('water.cold'), m3(o.water.cold_m3)], [t('water.hot'), m3(o.water.hot_m3)]]} />
          </Card>
        ) : null}
        {o.heat ? (
          <Card titleId="ov-heat" title={t('heat.title')} aside={aside('metrics')}>
            <Facts rows={[[t('heat.today'), kwh(o.heat.today_kwh)]]} />
          </Card>
        ) : null}
        <StationsTile installationId={id} fallbackKw={m.charging_stations.power_kw} today={series.charging_stations} aside={aside('stations')} f={f} />
      </div>
    </>
  )
}

/**
 * The stations tile from the stations topic: power now, how many charge and how many are ready (SPEC §4
 * display states), charged today (the day's totals); its age is the stations topic's.
 */
function StationsTile({ installationId, fallbackKw, today, aside, f }: { installationId: number; fallbackKw: number; today: number | undefined; aside: ReactNode; f: Formats }) {
  const { t } = useTranslation('overview')
  const stations = useLive(installationId, (inst) => (inst?.topics.stations.loaded ? inst.topics.stations.data : null))
  const c = stations ? stationCounts(stations) : null
  return (
    <Card titleId="ov-stations" title={t('stations.title')} aside={aside}>
      <Facts
        rows={[
          [t('stations.now'), f.kw(c ? c.power_kw : fallbackKw)],
          ...(c ? ([[t('stations.charging'), t('stations.ofCount', { n: c.running, total: c.count })], [t('stations.ready'), t('stations.ofCount', { n: c.ready, total: c.count })]] as [string, ReactNode][]) : []),
          [t('stations.today'), f.kwh(today ?? 0)],
        ]}
      />
      <Link href={paths.power(installationId)} className="mt-2 inline-block text-sm font-medium text-brand-700 underline">
        {t('stations.open')}
      </Link>
    </Card>
  )
}

/**
 * The flow meter with details (SPEC §2): where the power comes from and where it goes now, each flow in
 * kW with its share (a bar for the eye, the figures as text for everyone), the on-site consumption's
 * self-sufficiency, and a link to the flow meter's chart.
 */
function FlowMeter({ metrics, installationId, f }: { metrics: Metrics; installationId: number; f: Formats }) {
  const { t } = useTranslation('overview')
  const flow = flowBreakdown(metrics)
  if (!flow) return null
  const list = (title: string, id: string, flows: Flow[], side: 'from' | 'to') => (
    <div>
      <h3 id={id} className="text-sm font-medium text-slate-700">
        {title}
      </h3>
      {flows.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{t('flow.none')}</p>
      ) : (
        <ul aria-labelledby={id} className="mt-1 space-y-1.5 text-sm">
          {flows.map((fl) => (
            <li key={fl.key}>
              <div className="flex flex-wrap justify-between gap-x-3">
                <span className="text-slate-600">{t(`flow.${side}.${fl.key}`)}</span>
                <span className="font-medium tabular-nums text-slate-900">
                  {f.kw(fl.kw)} · {f.percent(fl.share * 100)}
                </span>
              </div>
              <div aria-hidden="true" className="mt-0.5 h-1.5 rounded-full bg-slate-100">
                <div className="h-1.5 rounded-full bg-brand-600" style={{ width: `${Math.round(fl.share * 100)}%` }} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">
        {t('flow.total', { power: f.kw(flow.total_kw) })}
        {flow.self_sufficiency !== null ? ` ${t('flow.selfSufficiency', { share: f.percent(flow.self_sufficiency * 100) })}` : ''}
      </p>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        {list(t('flow.sources'), 'ov-flow-from', flow.sources, 'from')}
        {list(t('flow.uses'), 'ov-flow-to', flow.uses, 'to')}
      </div>
      <Link href={`${paths.charts(installationId)}${chartsQuery({ kind: 'flowMeter' })}`} className="inline-block text-sm font-medium text-brand-700 underline">
        {t('flow.chart')}
      </Link>
    </div>
  )
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="flex flex-wrap justify-between gap-x-3 py-1.5">
          <dt className="text-slate-600">{k}</dt>
          <dd className="font-medium tabular-nums text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  )
}
