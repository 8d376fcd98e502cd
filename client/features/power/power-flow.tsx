import type { ReactNode, RefObject } from 'react'
import { useId, useLayoutEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { Formats } from '../../components/use-formats.ts'
import { cx } from '../../components/ui.tsx'

type NodeKey = 'pv' | 'grid' | 'building' | 'battery' | 'charging'
/** Which way energy moves on a node's line: into the hub, out of it, or not at all. */
type Direction = 'in' | 'out' | 'none'

interface FlowNode {
  key: NodeKey
  label: string
  kw: number
  detail: string | null
  extra: string | null
  direction: Direction
}

// The diagram lives in a box of fixed aspect ratio; the HTML nodes sit on the same grid
// (percentages), so the lines meet the nodes at any width. Narrow containers (phones) get a taller
// box so that three nodes fit side by side.
interface Layout {
  w: number
  h: number
  hub: { x: number; y: number }
  pos: Record<NodeKey, { x: number; y: number }>
}
const WIDE: Layout = {
  w: 100,
  h: 72,
  hub: { x: 50, y: 36 },
  pos: { pv: { x: 50, y: 10 }, grid: { x: 15, y: 36 }, building: { x: 85, y: 36 }, battery: { x: 28, y: 62 }, charging: { x: 72, y: 62 } },
}
const COMPACT: Layout = {
  w: 100,
  h: 128,
  hub: { x: 50, y: 62 },
  pos: { pv: { x: 50, y: 16 }, grid: { x: 19, y: 62 }, building: { x: 81, y: 62 }, battery: { x: 24, y: 110 }, charging: { x: 76, y: 110 } },
}
/** Below this container width (px) the compact layout is used. */
const COMPACT_BELOW = 520

const COLOR: Record<NodeKey, string> = {
  pv: '#f59e0b',
  grid: '#6366f1',
  building: '#0ea5e9',
  battery: '#10b981',
  charging: '#187560',
}
const IDLE_KW = 0.005

function dir(kw: number, positiveMeans: Direction): Direction {
  if (Math.abs(kw) < IDLE_KW) return 'none'
  if (kw > 0) return positiveMeans
  return positiveMeans === 'in' ? 'out' : 'in'
}

/** The nodes metrics allow; grid/PV/battery/building are null without the overview permission. */
export function flowNodes(m: Metrics, t: (key: string, o?: Record<string, unknown>) => string, f: Formats): FlowNode[] {
  const nodes: FlowNode[] = []
  if (m.pv) {
    nodes.push({ key: 'pv', label: t('flow.pv'), kw: m.pv.power_kw, detail: null, extra: null, direction: dir(m.pv.power_kw, 'in') })
  }
  if (m.grid) {
    const d = dir(m.grid.power_kw, 'in')
    nodes.push({
      key: 'grid',
      label: t('flow.grid'),
      kw: Math.abs(m.grid.power_kw),
      detail: d === 'in' ? t('flow.import') : d === 'out' ? t('flow.export') : t('flow.idle'),
      extra: null,
      direction: d,
    })
  }
  if (m.building) {
    nodes.push({ key: 'building', label: t('flow.building'), kw: m.building.power_kw, detail: null, extra: null, direction: dir(m.building.power_kw, 'out') })
  }
  if (m.battery) {
    const d = dir(m.battery.power_kw, 'out')
    nodes.push({
      key: 'battery',
      label: t('flow.battery'),
      kw: Math.abs(m.battery.power_kw),
      detail: d === 'out' ? t('flow.charging') : d === 'in' ? t('flow.discharging') : t('flow.idle'),
      extra: t('flow.soc', { soc: f.percent(m.battery.soc) }),
      direction: d,
    })
  }
  nodes.push({
    key: 'charging',
    label: t('flow.chargingStations'),
    kw: m.charging_stations.power_kw,
    detail: null,
    extra: null,
    direction: dir(m.charging_stations.power_kw, 'out'),
  })
  return nodes
}

const ICONS: Record<NodeKey, ReactNode> = {
  pv: <path d="M12 3v2M12 19v2M5 12H3M21 12h-2M6.3 6.3 4.9 4.9M19.1 19.1l-1.4-1.4M6.3 17.7l-1.4 1.4M19.1 4.9l-1.4 1.4M16 12a4 4 0 1 1-8 0 4 4 0 0 1 8 0z" />,
  grid: <path d="M12 2 7 22M12 2l5 20M8.5 9h7M7.5 14h9M5 6h14" />,
  building: <path d="M3 11 12 4l9 7M5 10v10h14V10M10 20v-6h4v6" />,
  battery: <path d="M6 7h11a2 2 0 0 1 2 2v6a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V9a2 2 0 0 1 2-2zM21 10v4M8 10v4M11 10v4" />,
  charging: <path d="M5 20V6a2 2 0 0 1 2-2h6a2 2 0 0 1 2 2v14M3 20h14M15 10h2a2 2 0 0 1 2 2v3a1.5 1.5 0 0 0 3 0V8l-3-3M10 8l-2 4h4l-2 4" />,
}

function NodeIcon({ node }: { node: NodeKey }) {
  return (
    <span aria-hidden="true" className="grid h-8 w-8 shrink-0 place-items-center rounded-full" style={{ background: `${COLOR[node]}1f`, color: COLOR[node] }}>
      <svg viewBox="0 0 24 24" className="h-[18px] w-[18px]" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {ICONS[node]}
      </svg>
    </span>
  )
}

function FlowValue({ node, f, compact = false, className }: { node: FlowNode; f: Formats; compact?: boolean; className?: string }) {
  const id = useId()
  const details = [node.detail, node.extra].filter(Boolean)
  if (compact) {
    return (
      <div role="group" aria-labelledby={id} className={cx('flex flex-col items-center rounded-xl border border-slate-200 bg-white px-1.5 py-1.5 text-center shadow-sm', className)}>
        <NodeIcon node={node.key} />
        <p id={id} className="mt-0.5 text-[11px] font-medium leading-tight text-slate-500">
          {node.label}
        </p>
        <p className="whitespace-nowrap text-sm font-semibold tabular-nums text-slate-900">{f.kw(node.kw)}</p>
        {details.map((d) => (
          <p key={d} className="text-[10px] leading-tight text-slate-500">
            {d}
          </p>
        ))}
      </div>
    )
  }
  return (
    <div role="group" aria-labelledby={id} className={cx('rounded-xl border border-slate-200 bg-white px-3 py-2 shadow-sm', className)}>
      <div className="flex items-center gap-2.5">
        <NodeIcon node={node.key} />
        <div className="min-w-0">
          <p id={id} className="text-xs font-medium leading-tight text-slate-500">
            {node.label}
          </p>
          <p className="whitespace-nowrap text-lg font-semibold tabular-nums text-slate-900">{f.kw(node.kw)}</p>
        </div>
      </div>
      {details.length > 0 ? <p className="mt-0.5 text-xs text-slate-500">{details.join(' · ')}</p> : null}
    </div>
  )
}

/**
 * Width of an element's content box in px, following resizes (0 until the first observation), from
 * ResizeObserver entries only: reading getBoundingClientRect in a layout effect forced the browser to
 * lay the whole new page out in the middle of React's commit. The first entry comes after
 * the browser's own layout; it is rendered as an ordinary update, in a task of its own, so the page's
 * first layout and the diagram's are not one long task.
 */
export function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0)
  // Observed from the commit (observing reads nothing), so the first entry is not a frame late.
  useLayoutEffect(() => {
    const el = ref.current
    if (!el || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver((entries) => {
      const next = entries[entries.length - 1]?.contentRect.width ?? 0
      setWidth(next)
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref])
  return width
}

/**
 * Current power flow (SPEC §2 Power): grid, PV, battery (SoC), building and charging stations
 * around a hub; dashes run along each line in the direction energy flows (import vs export,
 * charge vs discharge), and every node says it in words too.
 */
export function PowerFlow({ metrics, f }: { metrics: Metrics; f: Formats }) {
  const { t } = useTranslation('power')
  const nodes = flowNodes(metrics, t, f)
  const outer = useRef<HTMLDivElement>(null)
  const width = useWidth(outer)
  const compact = width > 0 && width < COMPACT_BELOW
  const L = compact ? COMPACT : WIDE
  const measured = width > 0 || typeof ResizeObserver === 'undefined'
  return (
    <div ref={outer} className="flow-frame w-full">
    {/* Until the first measurement the box has its height (CSS) and nothing in it: nodes first drawn in
        the wide layout would jump (a layout shift) on a phone. */}
    {measured ? (
    <div className="flow-box relative mx-auto w-full max-w-2xl" style={{ containerType: 'inline-size' }}>
      <svg aria-hidden="true" viewBox={`0 0 ${L.w} ${L.h}`} className="absolute inset-0 h-full w-full">
        {nodes.map((n) => {
          const p = L.pos[n.key]
          return <line key={n.key} x1={p.x} y1={p.y} x2={L.hub.x} y2={L.hub.y} stroke="#e2e8f0" strokeWidth={1.6} strokeLinecap="round" />
        })}
        <circle cx={L.hub.x} cy={L.hub.y} r={2.6} fill="#fff" stroke="#94a3b8" strokeWidth={0.8} />
      </svg>
      {nodes.map((n) => {
        if (n.direction === 'none') return null
        // The moving dashes are HTML strips animated by `transform` (client/styles.css .flow-line), not
        // an SVG stroke-dashoffset: the compositor runs them, so the main thread does not repaint every
        // frame (that repaint was most of Power's blocking time on a phone).
        const p = L.pos[n.key]
        const dx = L.hub.x - p.x
        const dy = L.hub.y - p.y
        const seconds = Math.min(2.4, Math.max(0.5, 2.4 / (1 + n.kw / 4)))
        return (
          <div
            key={`line-${n.key}`}
            aria-hidden="true"
            className="flow-line"
            data-direction={n.direction}
            style={{
              left: `${p.x}%`,
              top: `${(p.y / L.h) * 100}%`,
              // Ends at the hub circle's edge (r 2.6), which the SVG below cannot draw over.
              width: `${Math.hypot(dx, dy) - 2.6}cqw`,
              transform: `rotate(${(Math.atan2(dy, dx) * 180) / Math.PI}deg)`,
            }}
          >
            <span className={cx('flow-dashes', n.direction === 'out' && 'flow-reverse')} style={{ color: COLOR[n.key], animationDuration: `${seconds}s` }} />
          </div>
        )
      })}
      {nodes.map((n) => {
        const p = L.pos[n.key]
        return (
          <div
            key={n.key}
            className={cx('absolute -translate-x-1/2 -translate-y-1/2', compact ? 'w-[34%]' : 'w-[31%] max-w-[12rem]')}
            style={{ left: `${p.x}%`, top: `${(p.y / L.h) * 100}%` }}
          >
            <FlowValue node={n} f={f} compact={compact} />
          </div>
        )
      })}
    </div>
    ) : (
      <div className="flow-box mx-auto w-full max-w-2xl" />
    )}
    </div>
  )
}

/** Without the overview permission only the stations' total is shown, with a short note. */
export function StationsOnlyFlow({ metrics, f }: { metrics: Metrics; f: Formats }) {
  const { t } = useTranslation('power')
  const node = flowNodes(metrics, t, f).find((n) => n.key === 'charging')
  return (
    <div className="space-y-3">
      {node ? <FlowValue node={node} f={f} className="max-w-xs" /> : null}
      <p className="text-sm text-slate-500">{t('flow.stationsOnly')}</p>
    </div>
  )
}

/** True when the caller sees the facility's power flow (any of grid, PV, battery, building). */
export function hasOverview(m: Metrics): boolean {
  return Boolean(m.grid || m.pv || m.battery || m.building)
}
