import { useEffect, useMemo, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useSnapshot } from 'valtio'
import { createChart, LineSeries, TickMarkType } from 'lightweight-charts'
import type { IChartApi, ISeriesApi } from 'lightweight-charts'
import { HISTORY_MS, live } from '../../live/store.ts'
import { POLL_INTERVALS_MS } from '../../../config/defaults.ts'
import type { MetricsSample } from '../../live/store.ts'
import { useFormats } from '../../components/use-formats.ts'
import { datePatterns, formatInZone } from '../../../shared/rules/formats.ts'
import { gapAfterMs, seriesPoints, type SeriesKey } from './chart-points.ts'

const SERIES: Array<{ key: SeriesKey; color: string; overview: boolean }> = [
  { key: 'grid', color: '#6366f1', overview: true },
  { key: 'pv', color: '#f59e0b', overview: true },
  { key: 'battery', color: '#10b981', overview: true },
  { key: 'building', color: '#0ea5e9', overview: true },
  { key: 'charging', color: '#187560', overview: false },
]

/** Samples in the visible hour at the relay's metrics interval (ARCHITECTURE §5: 5 s → 720). */
const WINDOW_BARS = Math.round(HISTORY_MS / POLL_INTERVALS_MS.metrics)

/**
 * Live power of the last hour (lightweight-charts), fed from the live store's metrics history.
 * Loaded as its own chunk. Times are shown in the installation's time zone.
 */
export default function PowerChart({ installationId, timezone, overview, fill = false }: { installationId: number; timezone: string; overview: boolean; fill?: boolean }) {
  const { t } = useTranslation('power')
  const f = useFormats(timezone)
  const snap = useSnapshot(live)
  const history = (snap.installations[String(installationId)]?.history ?? []) as readonly MetricsSample[]
  const box = useRef<HTMLDivElement>(null)
  const chart = useRef<IChartApi | null>(null)
  const series = useRef<Partial<Record<SeriesKey, ISeriesApi<'Line'>>>>({})
  const shown = useMemo(() => SERIES.filter((s) => overview || !s.overview), [overview])
  const labels: Record<SeriesKey, string> = {
    grid: t('flow.grid'),
    pv: t('flow.pv'),
    battery: t('flow.battery'),
    building: t('flow.building'),
    charging: t('flow.chargingStations'),
  }

  useEffect(() => {
    if (!box.current) return
    const c = createChart(box.current, {
      autoSize: true,
      // Display mode (fill): axis labels scale with the screen, readable from across a room.
      layout: { background: { color: 'transparent' }, textColor: '#475569', fontSize: fill ? Math.max(11, Math.round(window.innerHeight * 0.018)) : 11 },
      grid: { vertLines: { color: '#f1f5f9' }, horzLines: { color: '#f1f5f9' } },
      // Only whole axis labels: at 4K the lowest one ("-1.00", 39 px type) was cut in half by the
      // chart's bottom edge.
      rightPriceScale: { borderVisible: false, entireTextOnly: true },
      timeScale: { borderVisible: false, timeVisible: true, secondsVisible: false, minBarSpacing: 0.05 },
      crosshair: { horzLine: { labelVisible: true }, vertLine: { labelVisible: true } },
      handleScroll: false,
      handleScale: false,
    })
    chart.current = c
    const made: Partial<Record<SeriesKey, ISeriesApi<'Line'>>> = {}
    for (const s of shown) {
      // Display mode: lines as thick as the screen is large (2 px at 1080p, 4 px at 4K).
      const lineWidth = (fill ? Math.min(4, Math.max(2, Math.round(window.innerHeight / 540))) : 2) as 1 | 2 | 3 | 4
      made[s.key] = c.addSeries(LineSeries, { color: s.color, lineWidth, priceLineVisible: false, lastValueVisible: false })
    }
    series.current = made
    return () => {
      c.remove()
      chart.current = null
      series.current = {}
    }
  }, [shown, fill])

  // Axis and crosshair labels in the UI language and the installation's time zone.
  useEffect(() => {
    // Labels are asked for every bar on every update; formatting in a time zone is slow (
    // an hour of bars took half a second per update), so each label is formatted once.
    const labels = new Map<string, string>()
    const memo = (key: string, make: () => string) => {
      let label = labels.get(key)
      if (label === undefined) labels.set(key, (label = make()))
      return label
    }
    const timeLabel = (time: unknown) => (typeof time === 'number' ? memo(`t${time}`, () => f.time(time * 1000)) : '')
    // Short ranges put several ticks in one minute: those show seconds.
    const withSeconds = datePatterns(f.region).time.replace('mm', 'mm:ss')
    const tickLabel = (time: unknown, type: TickMarkType) =>
      typeof time !== 'number'
        ? ''
        : type === TickMarkType.TimeWithSeconds
          ? memo(`s${time}`, () => formatInZone(time * 1000, withSeconds, f.timezone))
          : memo(`t${time}`, () => f.time(time * 1000))
    chart.current?.applyOptions({
      localization: { locale: f.language, timeFormatter: timeLabel, priceFormatter: (p: number) => f.number(p) },
      timeScale: { tickMarkFormatter: tickLabel },
    })
  }, [f, shown])

  // What the chart holds: the time span it was given, so live samples are appended with update()
  // instead of redrawing the whole hour with setData() (that blocked the page for 0.2–0.7 s
  // per sample). Earlier samples (the stored hour arriving) or a gap mean a full redraw.
  const drawn = useRef<{ series: typeof series.current; firstT: number; lastT: number; bars: number } | null>(null)
  useEffect(() => {
    const d = drawn.current
    const appended =
      d !== null &&
      d.series === series.current &&
      history.length > 0 &&
      history[0].t >= d.firstT &&
      history[history.length - 1].t > d.lastT &&
      history.some((h) => h.t === d.lastT)
    let bars = 0
    if (appended) {
      const fresh = history.filter((h) => h.t > d.lastT)
      // From the last drawn sample on, so a silence before the fresh ones shows as a gap too; bars
      // (logical indices) count the whitespace points of gaps.
      const from = history.filter((h) => h.t >= d.lastT)
      const gapMs = gapAfterMs(history)
      const drawnUpTo = Math.floor(d.lastT / 1000)
      let added = fresh.length > 0 ? 1 : 0
      for (const s of shown) {
        const points = seriesPoints(from, s.key, gapMs).filter((p) => p.time > drawnUpTo)
        for (const p of points) series.current[s.key]?.update(p)
        added = Math.max(added, points.length)
      }
      bars = d.bars + added
    } else {
      for (const s of shown) {
        const points = seriesPoints(history, s.key)
        bars = Math.max(bars, points.length)
        series.current[s.key]?.setData(points)
      }
    }
    drawn.current = { series: series.current, firstT: appended ? d.firstT : (history[0]?.t ?? Infinity), lastT: history[history.length - 1]?.t ?? -Infinity, bars }
    // Always show an hour's worth of samples, so the line grows in from the right as data arrives.
    if (bars > 0) chart.current?.timeScale().setVisibleLogicalRange({ from: bars - 1 - WINDOW_BARS, to: bars - 1 })
  }, [history, shown])

  const last = history[history.length - 1]
  return (
    // A figure, not role="img": the chart library puts its attribution link in the canvas box, and a
    // link inside an image is unreachable for screen readers (axe nested-interactive).
    <figure aria-label={t('chart.label')} className={fill ? 'flex h-full flex-col' : undefined}>
      <div ref={box} className={fill ? 'min-h-0 w-full flex-1' : 'h-56 w-full sm:h-64'} />
      {history.length < 2 ? <p className={fill ? 'text-[2.2vh] text-slate-500' : 'mt-2 text-sm text-slate-500'}>{t('chart.collecting')}</p> : null}
      <ul className={fill ? 'mt-[0.8vh] flex flex-wrap gap-x-[2vw] text-[length:calc(var(--u,1vh)*2.2)] text-slate-600' : 'mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-600'} aria-label={t('chart.legend')}>
        {shown.map((s) => {
          const value = last?.[s.key]
          return (
            <li key={s.key} className="flex items-center gap-1.5">
              <span aria-hidden="true" className={fill ? 'h-[0.4vh] w-[3vh] rounded' : 'h-0.5 w-4 rounded'} style={{ background: s.color }} />
              <span>{labels[s.key]}</span>
              {value !== undefined && value !== null ? <span className="tabular-nums text-slate-900">{f.kw(value)}</span> : null}
            </li>
          )
        })}
      </ul>
    </figure>
  )
}
