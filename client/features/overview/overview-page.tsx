import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { paths } from '../../app/paths.ts'
import { QueryProblem } from '../../components/query-problem.tsx'
import { fetchOverview, overviewKeys } from './api.ts'

/**
 * Overview (SPEC §2): main power connection, water and heating meters, power monitoring and the flow
 * meter with details, energy return, PV, battery and a link to the charts. Without the overview switch
 * (SPEC §6) only the caller's charging stations are shown.
 */
export default function OverviewPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('overview')
  useDocumentTitle(t('title'))
  const f = useFormats(installation.timezone)
  // One call: the live power flow with today's totals, water, heat and energy return.
  const query = useQuery({ queryKey: overviewKeys.overview(installation.id), queryFn: ({ signal }) => fetchOverview(installation.id, signal) })
  const data = query.data

  const kwh = (v: number | undefined) => f.kwh(v ?? 0)
  // A figure counting from a later day than the period's first (records begin inside it) says so.
  const returnLabel = (period: 'month' | 'year', since: string) =>
    since.endsWith(period === 'year' ? '-01-01' : '-01') ? t(`return.${period}`) : t(`return.${period}Since`, { date: f.date(`${since}T12:00:00Z`) })
  const m3 = (v: number | undefined) => f.unit(v ?? 0, 'm3')

  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        <Link href={paths.charts(installation.id)} className="text-sm font-medium text-brand-700 underline">
          {t('openCharts')}
        </Link>
      </div>
      {!data ? (
        query.isError && !query.isFetching ? <QueryProblem error={query.error} onRetry={query.refetch} /> : <Loading label={t('loading')} />
      ) : (
        <>
          {!data.grid ? <Notice tone="info">{t('noOverview')}</Notice> : null}
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {data.grid ? (
              <Card titleId="ov-main" title={t('main.title')}>
                <Facts rows={[[t('main.now'), f.kw(data.grid.power_kw)], [t('main.import'), kwh(data.today.series.grid_import)], [t('main.export'), kwh(data.today.series.grid_export)], [t('consumption'), kwh(data.today.series.consumption)]]} />
              </Card>
            ) : null}
            {data.grid ? (
              <Card titleId="ov-flow" title={t('flow.title')}>
                <Facts
                  rows={[
                    [t('flow.grid'), f.kw(data.grid.power_kw)],
                    [t('flow.pv'), f.kw(data.pv?.power_kw ?? 0)],
                    [t('flow.battery'), f.kw(data.battery?.power_kw ?? 0)],
                    [t('flow.building'), f.kw(data.building?.power_kw ?? 0)],
                    [t('flow.stations'), f.kw(data.charging_stations.power_kw)],
                  ]}
                />
                <p className="mt-2 text-xs text-slate-500">{t('flow.details')}</p>
              </Card>
            ) : null}
            {data.pv ? (
              <Card titleId="ov-pv" title={t('pv.title')}>
                <Facts rows={[[t('pv.now'), f.kw(data.pv.power_kw)], [t('pv.peak'), f.kw(data.pv.peak_kw)], [t('pv.today'), kwh(data.today.series.pv_production)], [t('pv.own'), kwh(data.today.series.own_consumption)]]} />
              </Card>
            ) : null}
            {data.battery ? (
              <Card titleId="ov-battery" title={t('battery.title')}>
                <Facts rows={[[t('battery.soc'), f.percent(data.battery.soc)], [t('battery.now'), f.kw(data.battery.power_kw)], [t('battery.charged'), kwh(data.today.series.battery_charge)], [t('battery.discharged'), kwh(data.today.series.battery_discharge)]]} />
              </Card>
            ) : null}
            {data.energy_return ? (
              <Card titleId="ov-return" title={t('return.title')}>
                <Facts rows={[
                  [t('return.today'), kwh(data.energy_return.today_kwh)],
                  [returnLabel('month', data.energy_return.month_since), kwh(data.energy_return.month_kwh)],
                  [returnLabel('year', data.energy_return.year_since), kwh(data.energy_return.year_kwh)],
                ]} />
              </Card>
            ) : null}
            {data.water ? (
              <Card titleId="ov-water" title={t('water.title')}>
                <Facts rows={[[t('water.cold'), m3(data.water.cold_m3)], [t('water.hot'), m3(data.water.hot_m3)]]} />
              </Card>
            ) : null}
            {data.heat ? (
              <Card titleId="ov-heat" title={t('heat.title')}>
                <Facts rows={[[t('heat.today'), kwh(data.heat.today_kwh)]]} />
              </Card>
            ) : null}
            <Card titleId="ov-stations" title={t('stations.title')}>
              <Facts rows={[[t('stations.now'), f.kw(data.charging_stations.power_kw)], [t('stations.today'), kwh(data.today.series.charging_stations)]]} />
            </Card>
          </div>
        </>
      )}
    </div>
  )
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-100 text-sm">
      {rows.map(([k, v]) => (
        <div key={k} className="flex justify-between gap-3 py-1.5">
          <dt className="text-slate-600">{k}</dt>
          <dd className="font-medium tabular-nums text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  )
}
