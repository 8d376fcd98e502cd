import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import { useSnapshot } from 'valtio'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import { live } from '../../live/store.ts'
import type { InstallationLive } from '../../live/store.ts'
import { retainStream } from '../../live/connection.ts'
import { restoreLive } from '../../live/persist.ts'
import { seedHistory } from '../../live/store.ts'
import { fetchRecentFlow, flowSamples, powerKeys } from './api.ts'
import { keepSessionAlive } from '../../api/http.ts'
import { isAdmin } from '../../session/session.ts'
import { useFormats } from '../../components/use-formats.ts'
import { useNearViewport } from '../../components/use-near-viewport.ts'
import { useIdle } from '../../components/use-idle.ts'
import type { Formats } from '../../components/use-formats.ts'
import { Card, Loading, Notice, useDocumentTitle } from '../../components/ui.tsx'
import { DataAge, LiveBadge } from '../../components/tile-meta.tsx'
import { hasOverview, PowerFlow, StationsOnlyFlow } from './power-flow.tsx'
import { StationCard } from './station-card.tsx'
import { Link } from 'wouter'
import { tileStatus } from './live-status.ts'
import type { TileStatus } from './live-status.ts'

const PowerChart = lazy(() => import('./power-chart.tsx'))

function TileAside({ updatedAt, status }: { updatedAt: number | null; status: TileStatus }) {
  return (
    <>
      <LiveBadge status={status} />
      <DataAge updatedAt={updatedAt} />
    </>
  )
}

/**
 * Power (SPEC §2): the live power flow, today's energy, a chart of the last hour and the charging
 * stations, all from the installation's live stream (ARCHITECTURE §5).
 */
export default function PowerPage({ installation }: { installation: Installation }) {
  const { t } = useTranslation('power')
  const f = useFormats(installation.timezone)
  useDocumentTitle(t('title'))

  // Paint at once (issue 11): this tab's last state before the first render, the stream and the
  // stored hour of power history in parallel.
  useState(() => restoreLive(installation.id))
  useEffect(() => retainStream(installation.id), [installation.id])
  // A Power page left open (a wall display signed in as a person) must not be logged out after 24 h.
  useEffect(() => keepSessionAlive(), [])
  // A failed read needs no message: the chart then fills from live samples only. The answer goes into
  // the live store, which keeps only samples older than those it has (seeding twice changes nothing).
  const recent = useQuery({ queryKey: powerKeys.recentFlow(installation.id), queryFn: ({ signal }) => fetchRecentFlow(installation.id, Date.now(), signal) })
  useEffect(() => {
    if (recent.data) seedHistory(installation.id, flowSamples(recent.data))
  }, [installation.id, recent.data])

  const snap = useSnapshot(live)
  const inst = snap.installations[String(installation.id)] as InstallationLive | undefined

  return (
    <div className="mx-auto max-w-7xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t('title')}</h1>
        {inst ? <ConnectionPill inst={inst} /> : null}
      </div>
      {inst ? <PageNotices inst={inst} f={f} /> : null}
      {!inst || !inst.topics.metrics.loaded ? (
        inst?.topics.metrics.state === 'down' ? (
          <Notice tone="error" role="alert">
            {t('connection.unavailable')}
          </Notice>
        ) : inst?.connection === 'failed' ? null : (
          // The flow tile's frame paints with the page, before the stream's first state (issue 11:
          // the page's largest heading no longer waits for the live stream).
          <Card titleId="power-flow-title" title={t('flow.title')}>
            <Loading label={t('loadingLive')} />
          </Card>
        )
      ) : (
        <PowerContent inst={inst} installation={installation} f={f} />
      )}
    </div>
  )
}

function ConnectionPill({ inst }: { inst: InstallationLive }) {
  const { t } = useTranslation('power')
  const map = {
    open: ['bg-emerald-500', t('connection.live')],
    connecting: ['bg-slate-400', t('connection.connecting')],
    reconnecting: ['bg-amber-500', t('connection.reconnecting')],
    paused: ['bg-slate-400', t('connection.paused')],
    failed: ['bg-red-500', t('connection.failed')],
    idle: ['bg-slate-400', t('connection.connecting')],
  } as const
  // A stream that is open says nothing about the facility: offline is not "Live" (issue 13 §3).
  const [dot, label] = inst.topics.info.data?.online === false ? (['bg-red-500', t('connection.facilityOffline')] as const) : map[inst.connection]
  return (
    <p role="status" className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-xs font-medium text-slate-600">
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${dot} ${inst.connection === 'open' && inst.topics.info.data?.online !== false ? 'animate-pulse' : ''}`} />
      {label}
    </p>
  )
}

function PageNotices({ inst, f }: { inst: InstallationLive; f: Formats }) {
  const { t } = useTranslation('power')
  const info = inst.topics.info.data
  const seriousAlerts = info?.alerts.filter((a) => a.serious) ?? []
  return (
    <>
      {/* The facility-offline alert is the shell's, on every screen (client/app/offline-banner.tsx). */}
      {seriousAlerts.length > 0 ? (
        <Notice tone="warning" role="alert" title={t('alerts.title')}>
          <ul className="list-inside list-disc">
            {seriousAlerts.map((a) => (
              <li key={a.code}>
                {t(`alert.${a.code}`, { defaultValue: a.code })}
                {a.since ? ` (${t('alerts.since', { date: f.dateTime(a.since) })})` : ''}
              </li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {inst.connection === 'failed' ? (
        <Notice tone="error" role="alert">
          {inst.connectionError === 'forbidden' ? t('connection.forbidden') : t('connection.unavailable')}
        </Notice>
      ) : null}
    </>
  )
}

function PowerContent({ inst, installation, f }: { inst: InstallationLive; installation: Installation; f: Formats }) {
  const { t } = useTranslation('power')
  const metrics = inst.topics.metrics.data as Metrics
  const overview = hasOverview(metrics)
  const metricsStatus = tileStatus(inst, 'metrics')
  const energyReturn = inst.topics.energy_return.data
  const showEnergy = metrics.e_sourced_today !== null || metrics.consumption_today !== null

  return (
    <>
      <div className={showEnergy ? 'grid gap-5 lg:grid-cols-3' : 'grid gap-5'}>
        <Card
          titleId="power-flow-title"
          title={t('flow.title')}
          aside={<TileAside updatedAt={inst.topics.metrics.updatedAt} status={metricsStatus} />}
          className={showEnergy ? 'lg:col-span-2' : undefined}
        >
          {overview ? <PowerFlow metrics={metrics} f={f} /> : <StationsOnlyFlow metrics={metrics} f={f} />}
        </Card>
        {showEnergy ? (
          <Card
            titleId="energy-title"
            title={t('energy.title')}
            aside={<TileAside updatedAt={inst.topics.metrics.updatedAt} status={metricsStatus} />}
          >
            <dl className="grid gap-3">
              {metrics.e_sourced_today !== null ? <EnergyFigure label={t('energy.sourced')} value={f.kwh(metrics.e_sourced_today)} /> : null}
              {metrics.consumption_today !== null ? <EnergyFigure label={t('energy.consumed')} value={f.kwh(metrics.consumption_today)} /> : null}
              {energyReturn ? <EnergyFigure label={t('energy.returned')} value={f.kwh(energyReturn.today_kwh)} /> : null}
            </dl>
          </Card>
        ) : null}
      </div>

      <Card titleId="chart-title" title={t('chart.title')} aside={<TileAside updatedAt={inst.topics.metrics.updatedAt} status={metricsStatus} />}>
        <LastHourChart installation={installation} overview={overview} />
      </Card>

      <Stations inst={inst} installation={installation} f={f} />
    </>
  )
}

/**
 * The "last hour" chart, loaded (its library, then its first drawing) once the tile nears the viewport
 * and the page has been idle a moment after its figures painted: loading it with the page was long
 * main-thread work before the page could be used (issue 11). The store keeps the hour's samples
 * meanwhile, so it opens filled.
 */
function LastHourChart({ installation, overview }: { installation: Installation; overview: boolean }) {
  const { t } = useTranslation('power')
  const box = useRef<HTMLDivElement>(null)
  // In view, not 400 px before: on a phone (390×760) the tile starts about 200 px below the fold, so the
  // default margin loaded it with the page (tests/e2e/web-delivery.spec.ts); the stored hour draws it
  // at once when scrolled to.
  const near = useNearViewport(box, '0px')
  // And once the figures above it have painted and the page is idle.
  const idle = useIdle()
  // The placeholder is as tall as the chart's drawing area, so nothing moves when it comes.
  const placeholder = <Loading label={t('common:loading')} className="h-56 sm:h-64" />
  return (
    <div ref={box}>
      {near && idle ? (
        <Suspense fallback={placeholder}>
          <PowerChart installationId={installation.id} timezone={installation.timezone} overview={overview} />
        </Suspense>
      ) : near ? (
        placeholder
      ) : (
        // Out of view nothing loads yet, so nothing says "Loading…": an empty box of the chart's height.
        <div className="h-56 sm:h-64" />
      )}
    </div>
  )
}

function EnergyFigure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-xl bg-slate-50 px-4 py-3">
      <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-xl font-semibold tabular-nums text-slate-900">{value}</dd>
    </div>
  )
}

function Stations({ inst, installation, f }: { inst: InstallationLive; installation: Installation; f: Formats }) {
  const { t } = useTranslation('power')
  const slot = inst.topics.stations
  const stations = Object.values((slot.data ?? {}) as Record<string, Station>).sort((a, b) => f.compareNames(a.name, b.name))
  const admin = isAdmin(installation)
  // Sidebar "Car charging stations" links here with #stations: scroll once the list has loaded.
  const loaded = slot.loaded
  useEffect(() => {
    if (loaded && window.location.hash === '#stations') document.getElementById('stations')?.scrollIntoView({ block: 'start' })
  }, [loaded])
  return (
    <section id="stations" aria-labelledby="stations-title" className="scroll-mt-20">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id="stations-title" className="text-lg font-semibold text-slate-900">
          {t('stations.title')}
        </h2>
        <div className="flex items-center gap-2 text-xs text-slate-500">
          <TileAside updatedAt={slot.updatedAt} status={tileStatus(inst, 'stations')} />
        </div>
      </div>
      {!slot.loaded ? (
        <Loading label={t('stations.loading')} />
      ) : stations.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-500">
          {t('stations.empty')}
        </p>
      ) : (
        <ul aria-labelledby="stations-title" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {stations.map((s) => (
            <li key={s.id} className="flex flex-col gap-1">
              <StationCard station={s} admin={admin} f={f} />
              <StationLink installationId={installation.id} station={s} />
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/** The way into a station's tabs (status, timer, journal, RFIDs, management; SPEC §2). */
function StationLink({ installationId, station }: { installationId: number; station: Station }) {
  const { t } = useTranslation('charging')
  return (
    <Link href={`/facility/${installationId}/power/stations/${station.id}`} className="self-end px-1 text-sm font-medium text-brand-700 hover:underline">
      {t('station.details', { station: station.name })}
    </Link>
  )
}
