import { useId } from 'react'
import { axisTicks, labelStride } from './axis-ticks.ts'

/** One bar: the start of its bucket (ISO-8601) and its value in the chart's unit. */
export interface AxisBar {
  start: string
  value: number
}

/**
 * A bar chart with a value axis (ticks in `unit`, e.g. kWh or kW) and a time axis (bucket labels from
 * `label`, in the user's locale), laid out in HTML so the text stays legible at any width. `title`
 * names the figure (shown above it, with the unit); `format(value, digits)` prints a number in the UI language; the figures themselves are hidden from assistive
 * technology because the page gives them as a table.
 */
export function AxisBars({ bars, unit, title, label, format, tone = 'bg-brand-500' }: { bars: readonly AxisBar[]; unit: string; title: string; label: (start: string) => string; format: (value: number, digits: number) => string; tone?: string }) {
  const titleId = useId()
  const ticks = axisTicks(Math.max(0, ...bars.map((b) => b.value)))
  const top = ticks[ticks.length - 1]
  const stride = labelStride(bars.length, 8)
  // One number of decimals for the whole axis ("0.50, 1.00, 1.50 kW", not "0.50, 1, 1.50").
  const digits = Math.min(2, Math.max(0, ...ticks.map((v) => (String(v).split('.')[1] ?? '').length)))
  return (
    <figure aria-labelledby={titleId} className="space-y-1">
      <figcaption id={titleId} className="text-sm font-medium text-slate-700">
        {title} ({unit})
      </figcaption>
      <div aria-hidden="true" data-testid="axis-bars">
        <div className="mt-2 flex">
          <div className="relative h-40 w-20 shrink-0 text-right text-[11px] tabular-nums text-slate-500">
            {ticks.map((v) => (
              <span key={v} className="absolute right-2 translate-y-1/2 whitespace-nowrap" style={{ bottom: `${(v / top) * 100}%` }}>
                {format(v, digits)} {unit}
              </span>
            ))}
          </div>
          <div className="relative h-40 flex-1 border-b border-l border-slate-300">
            {ticks.slice(1).map((v) => (
              <div key={v} className="absolute inset-x-0 border-t border-slate-100" style={{ bottom: `${(v / top) * 100}%` }} />
            ))}
            <div className="absolute inset-0 flex items-end gap-px px-px">
              {bars.map((b) => (
                <div key={b.start} className={`flex-1 rounded-t-sm ${tone}`} style={{ height: `${Math.max(0, (b.value / top) * 100)}%` }} title={`${label(b.start)}: ${format(b.value, 2)} ${unit}`} />
              ))}
            </div>
          </div>
        </div>
        <div className="ml-20 flex text-[11px] text-slate-500">
          {bars.map((b, i) => (
            <span key={b.start} className="min-w-0 flex-1 overflow-visible whitespace-nowrap text-left">
              {i % stride === 0 ? label(b.start) : ''}
            </span>
          ))}
        </div>
      </div>
    </figure>
  )
}
