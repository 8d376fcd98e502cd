import { useEffect, useRef } from 'react'
import { createChart, HistogramSeries, LineSeries } from 'lightweight-charts'
import type { IChartApi, UTCTimestamp } from 'lightweight-charts'
import type { Granularity } from '../../../shared/rules/granularity.ts'
import type { Bucket } from './api.ts'
import { chartPoints, showsTime, withBreaks } from './kinds.ts'

const COLORS = ['#187560', '#6366f1', '#f59e0b', '#0ea5e9', '#10b981']

/**
 * Bars (one series) or lines (several, or kW) of statistics buckets, with lightweight-charts. Loaded as
 * its own chunk so the chart library stays out of the other screens' bundles. The chart is a picture
 * for sighted users; the page gives the same figures as text (totals and a table).
 */
export default function StatsChart({ series, labels, granularity, lines }: { series: Record<string, readonly Bucket[]>; labels: Record<string, string>; granularity: Granularity; lines: boolean }) {
  const box = useRef<HTMLDivElement>(null)
  const chart = useRef<IChartApi | null>(null)

  useEffect(() => {
    if (!box.current) return
    const c = createChart(box.current, {
      autoSize: true,
      layout: { background: { color: 'transparent' }, textColor: '#475569', fontSize: 11 },
      grid: { vertLines: { color: '#f1f5f9' }, horzLines: { color: '#f1f5f9' } },
      rightPriceScale: { borderVisible: false },
      timeScale: { borderVisible: false, timeVisible: showsTime(granularity), secondsVisible: false },
      handleScroll: false,
      handleScale: false,
    })
    chart.current = c
    const names = Object.keys(series)
    names.forEach((name, i) => {
      // Lines break where buckets are missing (no readings), bars need no break.
      const points = lines || names.length > 1 ? withBreaks(chartPoints(series[name]), granularity) : chartPoints(series[name])
      const data = points.map((p) => ({ ...p, time: p.time as UTCTimestamp }))
      const opts = { color: COLORS[i % COLORS.length], title: labels[name] ?? name, priceLineVisible: false, lastValueVisible: false }
      const s = lines || names.length > 1 ? c.addSeries(LineSeries, { ...opts, lineWidth: 2 }) : c.addSeries(HistogramSeries, opts)
      s.setData(data)
    })
    c.timeScale().fitContent()
    return () => {
      c.remove()
      chart.current = null
    }
  }, [series, labels, granularity, lines])

  return <div ref={box} aria-hidden="true" data-testid="line-chart" className="h-64 w-full sm:h-80" />
}
