import { lazy, memo, Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useQuery } from '@tanstack/react-query'
import type { Installation } from '../../../shared/schemas/installation.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { Topic } from '../../../shared/live-protocol.ts'
import { useLive, useTopic } from '../../live/use-live.ts'
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
import { Card, Loading, Notice } from '../../components/ui.tsx'
import { PowerFlowPending, PowerFrame } from './power-frame.tsx'
import { DataAge, LiveBadge } from '../../components/tile-meta.tsx'
import { hasOverview, PowerFlow, StationsOnlyFlow } from './power-flow.tsx'
import { StationCard } from './station-card.tsx'
import { MeterDataTile } from './meter-data.tsx'
import { Link } from 'wouter'
import { tileStatus } from './live-status.ts'
import { confirmedAt } from '../../live/freshness.ts'
import type { TileStatus } from './live-status.ts'
import { clientNow } from '../../api/clock.ts'

const PowerChart = lazy(() => import('./power-chart.tsx'))

/**
 * A tile's live badge and data age, from its topic alone (re-rendered when that topic changes). The age
 * counts from the last confirmation (an event or the relay's heartbeat while the topic is live,
 * client/live/freshness.ts), not the last change: a quiet night's stations are current, not hours old.
 */
function TileAside({ installationId, topic }: { installationId: number; topic: Topic }) {
  const updatedAt = useLive(installationId, (inst) => (inst ? confirmedAt(inst, topic) : null))
  const status = useLive(installationId, (inst): TileStatus => (inst ? tileStatus(inst, topic) : 'live'))
  return (
    <>
      <LiveBadge status={status} />
      <DataAge updatedAt={updatedAt} />
    </>
  )
}

/** What the page shows below its heading, from the stream's state. */
type Body = 'content' | 'down' | 'failed' | 'pending'

/**
 * Power (SPEC §2): the live power flow, today's energy, a chart of the last hour and the charging
 * stations, all from the installation's live stream (ARCHITECTURE §5). Each tile reads its own topic
 * (client/live/use-live.ts): a live event re-renders only the tiles that show it.
 */
export default function PowerPage({ installation }: { installation: Installation }) {
  const id = installation.id
  const f = useFormats(installation.timezone)

  // Paint at once: this tab's last state before the first render, the stream and the
  // stored hour of power history in parallel.
  useState(() => restoreLive(id))
  useEffect(() => retainStream(id), [id])
  // A Power page left open (a wall display signed in as a person) must not be logged out after 24 h.
  useEffect(() => keepSessionAlive(), [])

  const body = useLive(id, (inst): Body => {
    const metrics = inst?.topics.metrics
    if (metrics?.loaded) return 'content'
    if (metrics?.state === 'down') return 'down'
    return inst?.connection === 'failed' ? 'failed' : 'pending'
  })
  const known = useLive(id, (inst) => inst !== undefined)

  return (
    <PowerFrame pill={known ? <ConnectionPill installationId={id} /> : null}>
      <RecentHistory installationId={id} />
      {known ? <PageNotices installationId={id} f={f} /> : null}
      {body === 'content' ? (
        <PowerContent installation={installation} f={f} />
      ) : body === 'down' ? (
        <UnavailableNotice />
      ) : body === 'failed' ? null : (
        // The flow tile's frame paints with the page, before the stream's first state (
        // the page's largest heading no longer waits for the live stream).
        <PowerFlowPending />
      )}
    </PowerFrame>
  )
}

/**
 * The stored hour of power history for the chart, read once with the page. A failed read needs no
 * message: the chart then fills from live samples only. The answer goes into the live store, which
 * keeps only samples older than those it has (seeding twice changes nothing). A component of its own
 * (memo, renders nothing), so the page's renders as the stream's state comes in do not read the query
 * store: one that changed meanwhile would make React redo a sliced render in one piece.
 */
const RecentHistory = memo(function RecentHistory({ installationId }: { installationId: number }) {
  const recent = useQuery({ queryKey: powerKeys.recentFlow(installationId), queryFn: ({ signal }) => fetchRecentFlow(installationId, clientNow(), signal) })
  useEffect(() => {
    if (recent.data) seedHistory(installationId, flowSamples(recent.data))
  }, [installationId, recent.data])
  return null
})

function UnavailableNotice() {
  const { t } = useTranslation('power')
  return (
    <Notice tone="error" role="alert">
      {t('connection.unavailable')}
    </Notice>
  )
}

function ConnectionPill({ installationId }: { installationId: number }) {
  const { t } = useTranslation('power')
  const connection = useLive(installationId, (inst) => inst?.connection ?? 'idle')
  const offline = useLive(installationId, (inst) => inst?.topics.info.data?.online === false)
  const map = {
    open: ['bg-emerald-500', t('connection.live')],
    connecting: ['bg-slate-400', t('connection.connecting')],
    reconnecting: ['bg-amber-500', t('connection.reconnecting')],
    paused: ['bg-slate-400', t('connection.paused')],
    failed: ['bg-red-500', t('connection.failed')],
    idle: ['bg-slate-400', t('connection.connecting')],
  } as const
  // A stream that is open says nothing about the facility: offline is not "Live".
  const [dot, label] = offline ? (['bg-red-500', t('connection.facilityOffline')] as const) : map[connection]
  return (
    <p role="status" className="inline-flex items-center gap-2 rounded-full border border-slate-200 bg-white px-3 py-1 text-xs font-medium text-slate-600">
      <span aria-hidden="true" className={`h-2 w-2 rounded-full ${dot} ${connection === 'open' && !offline ? 'motion-safe:animate-pulse' : ''}`} />
      {label}
    </p>
  )
}

function PageNotices({ installationId, f }: { installationId: number; f: Formats }) {
  const { t } = useTranslation('power')
  const info = useLive(installationId, (inst) => inst?.topics.info.data)
  // Why the stream failed for good ('' when no reason is known), or null while it has not.
  const failure = useLive(installationId, (inst) => (inst?.connection === 'failed' ? (inst.connectionError ?? '') : null))
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
      {failure !== null ? (
        <Notice tone="error" role="alert">
          {failure === 'forbidden' ? t('connection.forbidden') : t('connection.unavailable')}
        </Notice>
      ) : null}
    </>
  )
}

/** The tiles once the stream's first metrics are in; re-rendered only when their layout changes. */
function PowerContent({ installation, f }: { installation: Installation; f: Formats }) {
  const id = installation.id
  const overview = useLive(id, (inst) => {
    const m = inst?.topics.metrics.data
    return m ? hasOverview(m as Metrics) : false
  })
  const showEnergy = useLive(id, (inst) => {
    const m = inst?.topics.metrics.data
    return m ? m.e_sourced_today !== null || m.consumption_today !== null : false
  })
  const { t } = useTranslation('power')

  return (
    <>
      <div className={showEnergy ? 'grid gap-5 lg:grid-cols-3' : 'grid gap-5'}>
        <Card titleId="power-flow-title" title={t('flow.title')} aside={<TileAside installationId={id} topic="metrics" />} className={showEnergy ? 'lg:col-span-2' : undefined}>
          <FlowTile installationId={id} overview={overview} f={f} />
        </Card>
        {showEnergy ? (
          <Card titleId="energy-title" title={t('energy.title')} aside={<TileAside installationId={id} topic="metrics" />}>
            <EnergyFigures installationId={id} f={f} />
          </Card>
        ) : null}
      </div>

      <Card titleId="chart-title" title={t('chart.title')} aside={<TileAside installationId={id} topic="metrics" />}>
        <LastHourChart installation={installation} overview={overview} />
      </Card>

      {overview ? <MeterDataTile installationId={id} f={f} /> : null}

      <Stations installation={installation} f={f} />
    </>
  )
}

function FlowTile({ installationId, overview, f }: { installationId: number; overview: boolean; f: Formats }) {
  const metrics = useLive(installationId, (inst) => inst?.topics.metrics.data) as Metrics | null | undefined
  if (!metrics) return null
  return overview ? <PowerFlow metrics={metrics} f={f} /> : <StationsOnlyFlow metrics={metrics} f={f} />
}

function EnergyFigures({ installationId, f }: { installationId: number; f: Formats }) {
  const { t } = useTranslation('power')
  const metrics = useLive(installationId, (inst) => inst?.topics.metrics.data) as Metrics | null | undefined
  const energyReturn = useLive(installationId, (inst) => inst?.topics.energy_return.data)
  return (
    <dl className="grid gap-3">
      {metrics?.e_sourced_today != null ? <EnergyFigure label={t('energy.sourced')} value={f.kwh(metrics.e_sourced_today)} /> : null}
      {metrics?.consumption_today != null ? <EnergyFigure label={t('energy.consumed')} value={f.kwh(metrics.consumption_today)} /> : null}
      {energyReturn ? <EnergyFigure label={t('energy.returned')} value={f.kwh(energyReturn.today_kwh)} /> : null}
    </dl>
  )
}

/**
 * The "last hour" chart, loaded (its library, then its first drawing) once the tile nears the viewport
 * and the page has been idle a moment after its figures painted: loading it with the page was long
 * main-thread work before the page could be used. The store keeps the hour's samples
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

function Stations({ installation, f }: { installation: Installation; f: Formats }) {
  const { t } = useTranslation('power')
  const slot = useTopic(installation.id, 'stations')
  const data = slot?.data as Record<string, Station> | null | undefined
  const stations = useMemo(() => Object.values(data ?? {}).sort((a, b) => f.compareNames(a.name, b.name)), [data, f])
  const admin = isAdmin(installation)
  // Read once for the list: an offline facility's cards show their status as unknown.
  const facilityOffline = useLive(installation.id, (inst) => inst?.topics.info.data?.online === false)
  // Sidebar "Car charging stations" links here with #stations: scroll once the list has loaded.
  const loaded = slot?.loaded ?? false
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
          <TileAside installationId={installation.id} topic="stations" />
        </div>
      </div>
      {!loaded ? (
        <Loading label={t('stations.loading')} />
      ) : stations.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white px-4 py-8 text-center text-sm text-slate-500">
          {t('stations.empty')}
        </p>
      ) : (
        <ul aria-labelledby="stations-title" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {stations.map((s) => (
            <StationItem key={s.id} installationId={installation.id} station={s} admin={admin} f={f} facilityOffline={facilityOffline} />
          ))}
        </ul>
      )}
    </section>
  )
}

interface StationItemProps {
  installationId: number
  station: Station
  admin: boolean
  f: Formats
  facilityOffline: boolean
}

/**
 * One station of the list. A stations patch brings a new copy of every station (the store applies it
 * to a copy): a card whose station reads the same is not rendered again.
 */
const StationItem = memo(
  function StationItem({ installationId, station, admin, f, facilityOffline }: StationItemProps) {
    return (
      <li className="lazy-card flex flex-col gap-1">
        <StationCard station={station} admin={admin} f={f} facilityOffline={facilityOffline} />
        <StationLink installationId={installationId} station={station} />
      </li>
    )
  },
  (a, b) => a.installationId === b.installationId && a.admin === b.admin && a.f === b.f && a.facilityOffline === b.facilityOffline && (a.station === b.station || JSON.stringify(a.station) === JSON.stringify(b.station)),
)

/** The way into a station's tabs (status, timer, journal, RFIDs, management; SPEC §2). */
function StationLink({ installationId, station }: { installationId: number; station: Station }) {
  const { t } = useTranslation('charging')
  return (
    <Link href={`/facility/${installationId}/power/stations/${station.id}`} className="self-end px-1 text-sm font-medium text-brand-700 hover:underline">
      {t('station.details', { station: station.name })}
    </Link>
  )
}
