import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'wouter'
import type { Installation } from '../../../shared/schemas/installation.ts'
import { errorMessage, isAbortError } from '../../api/errors.ts'
import { Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { useFormats } from '../../components/use-formats.ts'
import { paths } from '../../app/paths.ts'
import { chartsQuery } from '../../components/chart-period.ts'
import { fetchMeters, fetchObjects, type MeterView, type ObjectNode } from './api.ts'

/**
 * Installation view (SPEC §2): the object hierarchy the caller may read, each node with its meters
 * (today's figure) and charging stations. A meter opens its own charts, a flat with meters the flat's
 * charts (issue 13 §7), in the chart period last looked at; a station opens the Power page.
 */
export default function InstallationViewPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('installation-view')
  const { t: tc } = useTranslation()
  useDocumentTitle(t('title'))
  const [tree, setTree] = useState<ObjectNode[] | null>(null)
  const [meters, setMeters] = useState<Map<number, MeterView>>(new Map())
  const [problem, setProblem] = useState<string | null>(null)

  useEffect(() => {
    const ctrl = new AbortController()
    fetchObjects(installation.id, ctrl.signal)
      .then(async (roots) => {
        setTree(roots)
        const lists = await Promise.all(roots.map((r) => fetchMeters(installation.id, r.id, ctrl.signal)))
        setMeters(new Map(lists.flat().map((m) => [m.id, m])))
      })
      .catch((err: unknown) => {
        if (!isAbortError(err)) setProblem(errorMessage(err, tc))
      })
    return () => ctrl.abort()
  }, [installation.id, tc])

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
      {problem ? (
        <Notice tone="error" role="alert">
          {problem}
        </Notice>
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
