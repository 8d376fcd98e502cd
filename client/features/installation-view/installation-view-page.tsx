import { useTranslation } from 'react-i18next'
import { useQueries, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { Loading, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { paths } from '../../app/paths.ts'
import { chartsQuery } from '../../components/chart-period.ts'
import { fetchMeters, fetchObjects, objectKeys, type MeterView, type ObjectNode } from './api.ts'

/**
 * Installation view (SPEC §2): the object hierarchy the caller may read, each node with its meters
 * (today's figure) and charging stations. A meter opens its own charts, a flat with meters the flat's
 * charts, in the chart period last looked at; a station opens the Power page.
 */
export default function InstallationViewPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('installation-view')
  useDocumentTitle(t('title'))
  const treeQuery = useQuery({ queryKey: objectKeys.tree(installation.id), queryFn: ({ signal }) => fetchObjects(installation.id, signal) })
  const tree = treeQuery.data ?? null
  // Today's figures per root, read in parallel once the tree is there; the tree shows before them.
  const meterQueries = useQueries({
    queries: (tree ?? []).map((root) => ({
      queryKey: objectKeys.meters(installation.id, root.id),
      queryFn: ({ signal }: { signal: AbortSignal }) => fetchMeters(installation.id, root.id, signal),
    })),
  })
  const meters = new Map<number, MeterView>(meterQueries.flatMap((q) => q.data ?? []).map((m) => [m.id, m]))
  const failed = [treeQuery, ...meterQueries].find((q) => q.data === undefined && q.isError && !q.isFetching)

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      {failed ? (
        <QueryProblem error={failed.error} onRetry={failed.refetch} />
      ) : !tree ? (
        <Loading label={t('loading')} />
      ) : tree.length === 0 ? (
        <p className="text-sm text-slate-600">{t('empty')}</p>
      ) : (
        <ul className="space-y-3">
          {tree.map((n) => (
            <Node key={n.id} node={n} installationId={installation.id} meters={meters} level={2} />
          ))}
        </ul>
      )}
    </div>
  )
}

function Node({ node, installationId, meters, level }: { node: ObjectNode; installationId: number; meters: Map<number, MeterView>; level: number }) {
  const { t } = useTranslation('installation-view')
  const f = useFormats()
  const all = [...node.electrical_meters, ...node.water_meters, ...node.heating_meters]
  const Heading = (level <= 2 ? 'h2' : level === 3 ? 'h3' : 'h4') as 'h2'
  const today = (id: number) => {
    const m = meters.get(id)
    if (!m) return null
    return m.unit === 'm3' ? f.unit(m.today.volume_m3, 'm3') : f.kwh(m.meter_type === 'main_power' ? m.today.energy_in_kwh : m.today.energy_in_kwh || m.today.energy_out_kwh)
  }
  return (
    <li>
      <section aria-labelledby={`obj-${node.id}`} className="rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <Heading id={`obj-${node.id}`} className="text-base font-semibold text-slate-900">
            {node.description}
          </Heading>
          {all.length ? (
            <Link href={`${paths.charts(installationId)}${chartsQuery({ object: node.id })}`} className="text-sm text-brand-700 underline">
              {t('objectCharts', { name: node.description })}
            </Link>
          ) : null}
        </div>
        {all.length ? (
          <ul aria-label={t('meters')} className="mt-2 space-y-1 text-sm">
            {all.map((m) => (
              <li key={m.id} className="flex flex-wrap justify-between gap-2">
                <Link href={`${paths.charts(installationId)}${chartsQuery({ meter: m.id })}`} className="text-brand-700 underline" aria-label={t('meterCharts', { name: m.name })}>
                  {m.name}
                </Link>
                <span className="tabular-nums text-slate-700">
                  {t(`type.${m.meter_type}`)}
                  {today(m.id) ? ` · ${t('today')} ${today(m.id)}` : ''}
                </span>
              </li>
            ))}
          </ul>
        ) : null}
        {node.charging_stations.length ? (
          <ul aria-label={t('stations')} className="mt-2 flex flex-wrap gap-2 text-sm">
            {node.charging_stations.map((s) => (
              <li key={s.id}>
                <Link href={paths.power(installationId)} className="inline-block rounded-md border border-slate-200 px-2 py-1 text-brand-700 hover:bg-slate-50">
                  {s.name}
                </Link>
              </li>
            ))}
          </ul>
        ) : null}
        {node.children.length ? (
          <ul className="mt-3 space-y-2 border-l border-slate-200 pl-3">
            {node.children.map((c) => (
              <Node key={c.id} node={c} installationId={installationId} meters={meters} level={level + 1} />
            ))}
          </ul>
        ) : null}
      </section>
    </li>
  )
}
