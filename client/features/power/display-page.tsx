import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { useSnapshot } from 'valtio'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import type { DisplaySelf } from '../../../shared/schemas/display.ts'
import { displayStatus } from '../../../shared/rules/status.ts'
import { live, seedHistory } from '../../live/store.ts'
import type { InstallationLive } from '../../live/store.ts'
import { retainStream, setStreamCredential } from '../../live/connection.ts'
import { ApiError } from '../../api/errors.ts'
import { useFormats } from '../../components/use-formats.ts'
import type { Formats } from '../../components/use-formats.ts'
import { useNow } from '../../components/use-now.ts'
import { useDocumentTitle } from '../../components/ui.tsx'
import { isLanguage, setLanguage } from '../../i18n/index.ts'
import { fetchDisplay, fetchRecentFlow, flowSamples } from './api.ts'
import { flowNodes } from './power-flow.tsx'
import { tileStatus } from './live-status.ts'
import { confirmedAt } from '../../live/freshness.ts'
import { clientNow } from '../../api/clock.ts'

const PowerChart = lazy(() => import('./power-chart.tsx'))

/** Width of one character of a figure, in em (bold tabular digits and "kW" measure ~0.65 em in DejaVu Sans). */
const FIGURE_CHAR_EM = 0.66

/**
 * The font size of a figure in a tile that is a size container (`container-type: inline-size`): `max`
 * (the screen-unit size), but never wider than the tile's content box for `text` ("2.39 kW"
 * reached the tile's edge on a 360 px phone and overran its padding at 1080p and 4K), and never under
 * 20 px (or `max`, when that is smaller).
 */
export function fitFigure(text: string, max: string): string {
  return `clamp(min(20px, ${max}), ${(100 / (FIGURE_CHAR_EM * Math.max(text.length, 1))).toFixed(2)}cqi, ${max})`
}

/**
 * How the display lays itself out: `landscape` (a wall screen), `portrait` (a screen mounted upright,
 * 1080×1920 or 4K: everything on one screen, two figure columns, the stations below the chart) or
 * `phone` (portrait and under 600 CSS px wide: the view scrolls in two columns).
 */
export type DisplayLayout = 'landscape' | 'portrait' | 'phone'

const PORTRAIT = '(orientation: portrait)'
const NARROW = '(max-width: 599.98px)'
const layoutNow = (): DisplayLayout => (!window.matchMedia(PORTRAIT).matches ? 'landscape' : window.matchMedia(NARROW).matches ? 'phone' : 'portrait')
const subscribeLayout = (fn: () => void) => {
  const queries = [window.matchMedia(PORTRAIT), window.matchMedia(NARROW)]
  for (const m of queries) m.addEventListener('change', fn)
  return () => queries.forEach((m) => m.removeEventListener('change', fn))
}
function useDisplayLayout(): DisplayLayout {
  return useSyncExternalStore(subscribeLayout, layoutNow)
}

/**
 * Columns and type scale of the station grid, so that all `n` stations fit: landscape in one band
 * under the chart; portrait in 3 or 4 columns, the type shrinking with the rows (the chart keeps at least
 * 15 % of the height); a phone
 * scrolls through two columns.
 */
export function stationGrid(n: number, layout: DisplayLayout): { cols: number; scale: number } {
  if (layout === 'phone') return { cols: 2, scale: 1 }
  if (layout === 'portrait') {
    const cols = n <= 3 ? Math.max(n, 1) : n <= 9 ? 3 : 4
    return { cols, scale: n <= 6 ? 1 : n <= 9 ? 0.8 : n <= 16 ? 0.65 : 0.5 }
  }
  const cols = n <= 4 ? Math.max(n, 1) : n <= 8 ? 4 : n <= 15 ? 5 : n <= 24 ? 6 : 8
  return { cols, scale: n <= 8 ? 1 : n <= 15 ? 0.8 : n <= 24 ? 0.65 : 0.5 }
}

/** The display link's key: the URL fragment (never sent to the server, so never in its logs). */
export function displayKeyOf(hash: string): string | null {
  const key = decodeURIComponent(hash.replace(/^#/, '')).trim()
  return /^cdk_[A-Za-z0-9_-]{20,}$/.test(key) ? key : null
}

/**
 * Keep the screen on while the view is shown (Wake Lock API). A lock is released by the
 * browser whenever the page is hidden, so it is asked for again each time the page is shown.
 * Answers whether a lock is held (false where the API is missing or refused).
 */
function useWakeLock(): boolean {
  const [held, setHeld] = useState(false)
  useEffect(() => {
    let sentinel: WakeLockSentinel | null = null
    let stopped = false
    const acquire = async () => {
      if (stopped || document.visibilityState !== 'visible' || !('wakeLock' in navigator)) return
      try {
        sentinel = await navigator.wakeLock.request('screen')
        if (stopped) return void sentinel.release()
        setHeld(true)
        sentinel.addEventListener('release', () => setHeld(false))
      } catch {
        setHeld(false)
      }
    }
    void acquire()
    const onVisible = () => void acquire()
    document.addEventListener('visibilitychange', onVisible)
    return () => {
      stopped = true
      document.removeEventListener('visibilitychange', onVisible)
      void sentinel?.release().catch(() => undefined)
    }
  }, [])
  return held
}

type Loaded = { state: 'loading' } | { state: 'invalid' } | { state: 'error' } | { state: 'ready'; display: DisplaySelf }

/**
 * Display mode: /display#<key> opens the installation's Power view full-screen without a
 * login, for wall displays. Everything scales with the viewport (figures ≥ 4 % of its height), every
 * station fits at 1080p, the cursor is hidden, the screen kept awake, the chart starts from the stored
 * hour, and data age and facility-offline are shown large enough to read across a room.
 * `?lang=de|fr|it|en` picks the language.
 */
export default function DisplayPage() {
  const { t } = useTranslation('power')
  const [key] = useState(() => displayKeyOf(window.location.hash))
  const [loaded, setLoaded] = useState<Loaded>(() => (key ? { state: 'loading' } : { state: 'invalid' }))
  const wakeLock = useWakeLock()
  const layout = useDisplayLayout()

  useEffect(() => {
    const lang = new URLSearchParams(window.location.search).get('lang')
    if (isLanguage(lang)) void setLanguage(lang)
  }, [])

  useEffect(() => {
    if (!key) return
    setStreamCredential(key)
    let stopped = false
    let retry: ReturnType<typeof setTimeout> | undefined
    const load = () =>
      fetchDisplay(key).then(
        (display) => !stopped && setLoaded({ state: 'ready', display }),
        (err) => {
          if (stopped) return
          if (err instanceof ApiError && (err.status === 401 || err.status === 403)) return setLoaded({ state: 'invalid' })
          // Server not reachable yet (a display booting before the server): keep trying.
          setLoaded({ state: 'error' })
          retry = setTimeout(load, 2000)
        },
      )
    void load()
    return () => {
      stopped = true
      clearTimeout(retry)
      setStreamCredential(null)
    }
  }, [key])

  return (
    <div className={`display-mode w-screen cursor-none bg-slate-950 text-slate-50 ${layout === 'phone' ? 'min-h-screen' : 'h-screen overflow-hidden'}`} data-wake-lock={wakeLock ? 'on' : 'off'} data-layout={layout}>
      {loaded.state === 'ready' ? (
        <DisplayView display={loaded.display} credential={key!} layout={layout} />
      ) : (
        <main className="grid h-full place-items-center p-[calc(var(--u)*4)] text-center">
          <p role={loaded.state === 'loading' ? 'status' : 'alert'} className="max-w-[80vw] text-[length:calc(var(--u)*4.5)] font-semibold">
            {loaded.state === 'invalid' ? t('display.invalid') : loaded.state === 'error' ? t('connection.reconnecting') : t('loadingLive')}
          </p>
        </main>
      )}
    </div>
  )
}

function DisplayView({ display, credential, layout }: { display: DisplaySelf; credential: string; layout: DisplayLayout }) {
  const { t } = useTranslation('power')
  const installation = display.installation
  const f = useFormats(installation.timezone)
  useDocumentTitle(`${installation.name} – ${t('title')}`)
  useEffect(() => retainStream(installation.id), [installation.id])
  useEffect(() => {
    const abort = new AbortController()
    fetchRecentFlow(installation.id, clientNow(), abort.signal, credential).then(
      (answer) => seedHistory(installation.id, flowSamples(answer)),
      () => undefined,
    )
    return () => abort.abort()
  }, [installation.id, credential])

  const snap = useSnapshot(live)
  const inst = snap.installations[String(installation.id)] as InstallationLive | undefined
  const metrics = inst?.topics.metrics.loaded ? (inst.topics.metrics.data as Metrics) : null
  const offline = inst?.topics.info.data?.online === false
  const revoked = inst?.connection === 'failed'

  return (
    <main className={`flex flex-col gap-[calc(var(--u)*1.6)] p-[calc(var(--u)*2.2)] ${layout === 'phone' ? '' : 'h-full'}`}>
      <header className={`flex items-baseline justify-between gap-[2vw] ${layout === 'landscape' ? '' : 'flex-wrap'}`}>
        <h1 className={`${layout === 'phone' ? '' : 'truncate'} text-[length:calc(var(--u)*3.6)] font-semibold leading-tight`}>{installation.name}</h1>
        {inst ? <Freshness inst={inst} /> : null}
      </header>
      {revoked ? (
        <p role="alert" className="rounded-[calc(var(--u)*1.2)] bg-red-700 px-[2vw] py-[calc(var(--u)*1.4)] text-[length:calc(var(--u)*4.5)] font-bold leading-tight">
          {t('display.invalid')}
        </p>
      ) : offline ? (
        <p role="alert" className="rounded-[calc(var(--u)*1.2)] bg-red-700 px-[2vw] py-[calc(var(--u)*1.4)] text-[length:calc(var(--u)*4.5)] font-bold leading-tight">
          {t('connection.facilityOffline')}
          {inst?.topics.info.data?.offline_since ? ` · ${t('display.since', { date: f.dateTime(inst.topics.info.data.offline_since) })}` : ''}
        </p>
      ) : null}
      {!metrics ? (
        <p role="status" className="grid flex-1 place-items-center text-[length:calc(var(--u)*4.5)]">
          {t('loadingLive')}
        </p>
      ) : (
        <>
          <Figures metrics={metrics} energyReturnKwh={inst?.topics.energy_return.data?.today_kwh ?? null} f={f} dim={offline} layout={layout} />
          <section aria-labelledby="display-chart" className={`${layout === 'phone' ? 'h-[45vh] flex-none' : 'min-h-[15vh] flex-1'} rounded-[calc(var(--u)*1.6)] bg-white p-[calc(var(--u)*1.4)] text-slate-900`}>
            <h2 id="display-chart" className="sr-only">
              {t('chart.title')}
            </h2>
            <Suspense fallback={null}>
              <PowerChart installationId={installation.id} timezone={installation.timezone} overview={metrics.grid !== null} fill />
            </Suspense>
          </section>
          <Stations inst={inst!} f={f} layout={layout} />
        </>
      )}
    </main>
  )
}

/**
 * Data age and connection, large: a wall display must say when its figures stop moving. The state
 * follows the data's age, not only the socket: an open stream that delivered nothing, not even a
 * heartbeat, for client/live/freshness.ts STALL_MS shows "Reconnecting…" (and is opened anew by
 * client/live/connection.ts); the age counts from the last confirmation (an event or a heartbeat).
 */
function Freshness({ inst }: { inst: InstallationLive }) {
  const { t } = useTranslation('power')
  const { t: tc } = useTranslation()
  const now = useNow()
  const updatedAt = confirmedAt(inst, 'metrics')
  const status = tileStatus(inst, 'metrics', now)
  const seconds = updatedAt === null ? null : Math.max(0, Math.floor((now - updatedAt) / 1000))
  const age =
    seconds === null
      ? ''
      : seconds < 60
        ? tc('age.seconds', { seconds })
        : seconds < 3600
          ? tc('age.minutes', { minutes: Math.floor(seconds / 60) })
          : tc('age.hours', { hours: Math.floor(seconds / 3600) })
  const label = status === 'live' ? t('connection.live') : status === 'stale' ? (inst.topics.metrics.state === 'stale' ? tc('live.stale') : t('display.reconnecting')) : tc('live.offline')
  const tone = status === 'live' ? 'bg-emerald-500' : status === 'stale' ? 'bg-amber-400' : 'bg-red-500'
  return (
    <p role="status" className="flex shrink-0 items-center gap-[calc(var(--u)*1)] text-[length:calc(var(--u)*2.8)] font-medium tabular-nums" data-testid="data-age" data-state={status}>
      <span aria-hidden="true" className={`h-[calc(var(--u)*2)] w-[calc(var(--u)*2)] rounded-full ${tone}`} />
      <span>{label}</span>
      {age ? <span className="text-slate-300">· {age}</span> : null}
    </p>
  )
}

/**
 * The main figures: one tile per power-flow node and today's energy; values at 5 units (5 % of the
 * height of a 16:9 screen) where the tile is wide enough (fitFigure). Today's energy takes 1.75 node
 * widths, so that a node tile holds "12.34 kW" at ≥ 4 % of the height at 1080p and 4K.
 */
function Figures({ metrics, energyReturnKwh, f, dim, layout }: { metrics: Metrics; energyReturnKwh: number | null; f: Formats; dim: boolean; layout: DisplayLayout }) {
  const { t } = useTranslation('power')
  // An upright screen: three columns (figures at the size the same panel shows them in landscape),
  // today's energy in one full-width row; a phone: two columns.
  const cols = layout === 'portrait' ? 3 : 2
  const nodes = flowNodes(metrics, t, f)
  const energy = [
    metrics.e_sourced_today !== null ? { label: t('energy.sourced'), value: f.kwh(metrics.e_sourced_today) } : null,
    metrics.consumption_today !== null ? { label: t('energy.consumed'), value: f.kwh(metrics.consumption_today) } : null,
    energyReturnKwh !== null ? { label: t('energy.returned'), value: f.kwh(energyReturnKwh) } : null,
  ].filter((e) => e !== null)
  return (
    <section aria-label={t('flow.title')} className={`grid shrink-0 gap-[calc(var(--u)*1.4)] ${dim ? 'opacity-60' : ''}`} style={{ gridTemplateColumns: layout !== 'landscape' ? `repeat(${cols}, minmax(0, 1fr))` : `repeat(${nodes.length}, minmax(0, 1fr))${energy.length ? ' minmax(0, 1.75fr)' : ''}` }}>
      {nodes.map((n) => (
        <div key={n.key} className="rounded-[calc(var(--u)*1.6)] bg-slate-800 px-[calc(var(--u)*1.6)] py-[calc(var(--u)*1.2)] [container-type:inline-size]">
          <p className="truncate text-[length:calc(var(--u)*2.4)] font-medium text-slate-300">{n.label}</p>
          <p className="whitespace-nowrap font-semibold leading-none tabular-nums" style={{ fontSize: fitFigure(f.kw(n.kw), 'calc(var(--u) * 5)') }} data-figure>
            {f.kw(n.kw)}
          </p>
          <p className="truncate text-[length:calc(var(--u)*2.2)] text-slate-400">{[n.detail, n.extra].filter(Boolean).join(' · ') || '\u00a0'}</p>
        </div>
      ))}
      {energy.length && layout === 'portrait' ? (
        // An upright screen: today's energy in one row under the figures, so the chart keeps its height.
        <div className="col-span-full grid rounded-[calc(var(--u)*1.6)] bg-slate-800 px-[calc(var(--u)*1.6)] py-[calc(var(--u)*1.2)]" style={{ gridTemplateColumns: `repeat(${energy.length}, minmax(0, 1fr))` }}>
          {energy.map((e) => (
            <p key={e.label} className="min-w-0 text-[length:calc(var(--u)*2)] text-slate-300">
              <span className="block truncate">{e.label}</span>
              <span className="block whitespace-nowrap text-[length:calc(var(--u)*3.2)] font-semibold tabular-nums text-slate-50">{e.value}</span>
            </p>
          ))}
        </div>
      ) : energy.length ? (
        <div className={`rounded-[calc(var(--u)*1.6)] bg-slate-800 px-[calc(var(--u)*1.6)] py-[calc(var(--u)*1.2)] ${layout === 'phone' && nodes.length % 2 === 0 ? 'col-span-2' : ''}`}>
          {energy.map((e) => (
            <p key={e.label} className="flex items-baseline justify-between gap-[calc(var(--u)*1)] text-[length:calc(var(--u)*2)] text-slate-300">
              <span className="truncate">{e.label}</span>
              <span className="whitespace-nowrap text-[length:calc(var(--u)*3.2)] font-semibold tabular-nums text-slate-50">{e.value}</span>
            </p>
          ))}
        </div>
      ) : null}
    </section>
  )
}

const STATUS_COLOR = { ready: 'bg-emerald-600', running: 'bg-sky-600', error: 'bg-red-600', disabled: 'bg-slate-600' } as const

function StatusBadge({ status }: { status: keyof typeof STATUS_COLOR }) {
  const { t } = useTranslation('power')
  return <span className={`shrink-0 rounded-full px-[calc(var(--u)*1)] text-[0.85em] font-semibold text-slate-50 ${STATUS_COLOR[status]}`}>{t(`status.${status}`)}</span>
}

/** Every station at once: columns and type shrink with their number so that all fit on one screen. */
function Stations({ inst, f, layout }: { inst: InstallationLive; f: Formats; layout: DisplayLayout }) {
  const { t } = useTranslation('power')
  const stations = Object.values((inst.topics.stations.data ?? {}) as Record<string, Station>).sort((a, b) => f.compareNames(a.name, b.name))
  const n = stations.length
  const { cols, scale } = stationGrid(n, layout)
  // Narrow columns of an upright screen: the status badge moves under the figure, beside the mode.
  const upright = layout === 'portrait' && cols >= 3
  return (
    <section aria-labelledby="display-stations" className="flex-none">
      <h2 id="display-stations" className="sr-only">
        {t('stations.title')}
      </h2>
      <ul className="grid gap-[calc(var(--u)*1.2)]" style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))`, gridAutoRows: 'auto' }}>
        {stations.map((s) => {
          const d = displayStatus(s.status)
          return (
            <li key={s.id} className="flex flex-col justify-center rounded-[calc(var(--u)*1.6)] bg-slate-800 px-[calc(var(--u)*1.6)] py-[calc(var(--u)*1)] [container-type:inline-size]" style={{ fontSize: `calc(var(--u) * ${scale * 2.6})` }}>
              <div className="flex items-center justify-between gap-[calc(var(--u)*1)]">
                <h3 className="truncate font-semibold">{s.name}</h3>
                {d && !upright ? <StatusBadge status={d} /> : null}
              </div>
              <p className="whitespace-nowrap font-semibold leading-tight tabular-nums" style={{ fontSize: fitFigure(f.kw(s.power_kw), upright ? '1.5em' : '1.9em') }} data-figure>{f.kw(s.power_kw)}</p>
              <p className="flex items-center gap-[calc(var(--u)*0.8)] text-[0.85em] text-slate-300">
                {d && upright ? <StatusBadge status={d} /> : null}
                <span className="truncate">
                  {t(`mode.${s.charging_mode}`)} · {f.kwh(s.energy_kwh)}
                </span>
              </p>
            </li>
          )
        })}
      </ul>
    </section>
  )
}
