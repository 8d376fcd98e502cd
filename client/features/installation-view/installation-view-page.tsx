import { useTranslation } from 'react-i18next'
import { useQueries, useQuery } from '@tanstack/react-query'
import { Link } from 'wouter'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { Loading, useDocumentTitle } from '../../components/ui.tsx'
import { QueryProblem } from '../../components/query-problem.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { paths } from '../../app/paths.ts'
import { chartsQuery } from '../../components/chart-period.ts'
import { fetchMeters, fetchObjects, fetchStationGroups, objectKeys, type MeterView, type ObjectNode } from './api.ts'
import { stationsOutside } from './stations-outside.ts'

/**
 * Installation view (SPEC §2): the object hierarchy the caller may read, each node with its meters
 * (today's figure) and charging stations. A meter opens its own charts, a flat with meters the flat's
 * charts, in the chart period last looked at; a station opens its own page on Power. Stations the caller
 * may read outside the readable tree (a resident with rights on a station only) are listed by the node
 * that holds them; with nothing at all the page says who shares what.
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
  const groupsQuery = useQuery({ queryKey: objectKeys.stations(installation.id), queryFn: ({ signal }) => fetchStationGroups(installation.id, signal) })
  const failed = [treeQuery, groupsQuery, ...meterQueries].find((q) => q.data === undefined && q.isError && !q.isFetching)
  const others = tree && groupsQuery.data ? stationsOutside(tree, groupsQuery.data) : null

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      {failed ? (
        <QueryProblem error={failed.error} onRetry={failed.refetch} />
      ) : !tree || !others ? (
        <Loading label={t('loading')} />
      ) : (
        <>
          {tree.length > 0 ? (
            <ul className="space-y-3">
              {tree.map((n) => (
                <Node key={n.id} node={n} installationId={installation.id} meters={meters} level={2} />
              ))}
            </ul>
          ) : null}
          {others.length > 0 ? (
            <section aria-labelledby="iv-own-stations" className="rounded-2xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
              <h2 id="iv-own-stations" className="text-base font-semibold text-slate-900">
                {t(tree.length > 0 ? 'ownStations.more' : 'ownStations.title')}
              </h2>
              {tree.length === 0 ? <p className="mt-1 text-sm text-slate-600">{t('ownStations.intro')}</p> : null}
              <ul className="mt-2 space-y-2">
                {others.map((g) => (
                  <li key={g.id}>
                    <h3 className="text-sm font-medium text-slate-700">{g.description}</h3>
                    <StationLinks installationId={installation.id} stations={g.charging_stations} />
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {tree.length === 0 && others.length === 0 ? <EmptyState installationId={installation.id} /> : null}
        </>
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
        {node.charging_stations.length ? <StationLinks installationId={installationId} stations={node.charging_stations} /> : null}
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

/** Station links, each to that station's page on Power (status, timer, journal, …), not the station list. */
function StationLinks({ installationId, stations }: { installationId: number; stations: { id: number; name: string }[] }) {
  const { t } = useTranslation('installation-view')
  return (
    <ul aria-label={t('stations')} className="mt-2 flex flex-wrap gap-2 text-sm">
      {stations.map((s) => (
        <li key={s.id}>
          <Link href={paths.station(installationId, s.id)} className="inline-flex min-h-11 items-center rounded-md border border-slate-200 px-3 py-1 text-brand-700 hover:bg-slate-50 md:min-h-0">
            {s.name}
          </Link>
        </li>
      ))}
    </ul>
  )
}

/** Nothing readable here: who shares objects, and where the caller's own cards and sessions are. */
function EmptyState({ installationId }: { installationId: number }) {
  const { t } = useTranslation('installation-view')
  return (
    <div className="space-y-2 rounded-2xl border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">
      <p className="font-medium text-slate-900">{t('empty.title')}</p>
      <p>{t('empty.body')}</p>
      <p className="flex flex-wrap gap-x-4 gap-y-1">
        <Link href={paths.rfids(installationId)} className="text-brand-700 underline">
          {t('empty.rfids')}
        </Link>
        <Link href={paths.sessions(installationId)} className="text-brand-700 underline">
          {t('empty.sessions')}
        </Link>
      </p>
    </div>
  )
}
