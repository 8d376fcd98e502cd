// Tremor's BarChart by its own module: the package index would bring every other component along.
import type { BarChart as TremorBarChart } from '@tremor/react'
import barChartModule from '@tremor/react/dist/components/chart-elements/BarChart/BarChart.js'
import type { Bucket } from './api.ts'
import { barRows } from './kinds.ts'

// Tremor ships ES modules without "type": "module": TypeScript reads the default export as the CommonJS
// module; at run time (Vite) it is the component, typed here as the package index types it.
const BarChart = barChartModule as unknown as typeof TremorBarChart

/** Tremor colors for the series, in order; each must be in the Tremor safelist of config/tailwind.config.ts. */
const COLORS = ['emerald', 'indigo', 'amber', 'sky', 'rose', 'violet']
/** Tailwind's 500 shade of each of COLORS (the bars' fill), for the legend's swatches. */
const SWATCHES = ['#10b981', '#6366f1', '#f59e0b', '#0ea5e9', '#f43f5e', '#8b5cf6']

/**
 * Per-bucket bars (energy, cost, water, heat) with Tremor's BarChart. Loaded as its own chunk so
 * Tremor's chart code (recharts) stays out of every other screen's bundle. The chart is a picture for
 * sighted users (hidden from assistive technology); the page gives the same figures as a table.
 * The legend is ours, outside the hidden picture: Tremor's legend is made of focusable buttons, which
 * must not sit inside aria-hidden (axe aria-hidden-focus).
 */
export default function StatsBars({ series, labels, bucketLabel, format }: { series: Record<string, readonly Bucket[]>; labels: Record<string, string>; bucketLabel: (start: string) => string; format: (name: string, value: number) => string }) {
  const names = Object.keys(series)
  return (
    <div>
      <div aria-hidden="true" data-testid="bar-chart">
        <BarChart
          className="h-64 sm:h-80"
          data={barRows(series, labels, bucketLabel)}
          index="bucket"
          categories={names.map((n) => labels[n] ?? n)}
          colors={COLORS.slice(0, names.length)}
          // One formatter for the axis and tooltip: all series of one bar chart share a unit.
          valueFormatter={(v: number) => format(names[0], v)}
          yAxisWidth={84}
          showAnimation={false}
          showLegend={false}
        />
      </div>
      <ul className="mt-2 flex flex-wrap justify-end gap-x-4 gap-y-1 text-xs text-slate-600">
        {names.map((n, i) => (
          <li key={n} className="flex items-center gap-1.5">
            <span aria-hidden="true" className="h-2.5 w-2.5 rounded-sm" style={{ background: SWATCHES[i] }} />
            {labels[n] ?? n}
          </li>
        ))}
      </ul>
    </div>
  )
}
