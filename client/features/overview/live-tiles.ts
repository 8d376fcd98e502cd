import type { Topic } from '../../../shared/live-protocol.ts'
import type { Metrics } from '../../../shared/schemas/metrics.ts'
import type { Station } from '../../../shared/schemas/station.ts'
import { displayStatus, type StatusDisplay } from '../../../shared/rules/status.ts'
import { STALL_MS } from '../../live/freshness.ts'
import type { ConnectionState, TopicSlot } from '../../live/store.ts'

/** What a tile says about its data: live, stale (not updating) or offline (ARCHITECTURE §5). */
export type TileStatus = 'live' | 'stale' | 'offline'

/** The parts of an installation's live state a tile's age and status are read from (client/live/store.ts). */
export interface AgeView {
  connection: ConnectionState
  lastSeen: number | null
  topics: Record<Topic, Pick<TopicSlot<unknown>, 'loaded' | 'updatedAt' | 'state' | 'data'>>
}

/**
 * A tile's status before the clock is read: offline when the relay reports the topic down or the
 * facility offline (the info topic), stale when the relay reports it stale or our stream is not open
 * while we show data; else live.
 */
export function baseStatus(inst: AgeView, topic: Topic): TileStatus {
  const slot = inst.topics[topic]
  const info = inst.topics.info.data as { online?: boolean } | null
  if (slot.state === 'down' || info?.online === false) return 'offline'
  if (slot.state === 'stale') return 'stale'
  if (slot.loaded && inst.connection !== 'open') return 'stale'
  return 'live'
}

/**
 * A tile's status at client time `now` (ms): its {@link baseStatus}, but stale as well when its data was
 * last confirmed (`at`: client/live/freshness.ts confirmedAt, the last event or relay heartbeat while
 * the stream is open and the topic live, else the last change) more than STALL_MS (45 s) ago: figures that stopped
 * moving on a stalled stream are never shown as live.
 */
export function statusAt(base: TileStatus, at: number | null, now: number): TileStatus {
  if (base !== 'live') return base
  return at !== null && now - at > STALL_MS ? 'stale' : 'live'
}

/** Today's totals are read again at most this often while new readings arrive (ms). */
export const TOTALS_REFRESH_MS = 60_000

/** Today's totals as read from GET …/overview: when, the live reading they match, the day they cover. */
export interface TotalsRead {
  /** Client time (ms) of the read. */
  fetchedAt: number
  /** The live metrics' `timestamp` (the newest reading, ISO) when they were read; null: none yet. */
  reading: string | null
  /** End of the installation-local day they cover (ISO, `today.end` of the answer). */
  dayEnd: string
}

/**
 * Whether today's totals (quarter-hour aggregates on the server, the same readings the live stream
 * shows) should be read again at client time `now`, given the newest live reading `reading` (metrics
 * `timestamp`): at once when their day has ended (else "today" shows yesterday); otherwise only when a
 * newer reading arrived since they were read (no new reading, no new total: a quiet stream costs no
 * calls), and then at most every {@link TOTALS_REFRESH_MS}. Driven by the live stream, not a timer.
 */
export function totalsDue(read: TotalsRead, reading: string | null, now: number): boolean {
  const end = Date.parse(read.dayEnd)
  if (Number.isFinite(end) && now >= end) return true
  if (reading === null || reading === read.reading) return false
  return now - read.fetchedAt >= TOTALS_REFRESH_MS
}

/** One flow of the flow meter: where power comes from or goes to, in kW (≥ 0), and its share of the total (0–1). */
export interface Flow {
  key: 'grid' | 'pv' | 'battery' | 'building' | 'stations'
  kw: number
  share: number
}

/** The flow meter's present state: sources and uses of power, each ≥ 0 kW with its share, and the total. */
export interface FlowBreakdown {
  /** Grid purchase, PV production, battery discharge. */
  sources: Flow[]
  /** Building, charging stations, battery charging, grid feed-in. */
  uses: Flow[]
  /** kW through the installation: the larger of the sources' and the uses' sums (they differ by rounding). */
  total_kw: number
  /** Share of the on-site consumption (building and stations) not bought from the grid, 0–1; null without consumption. */
  self_sufficiency: number | null
}

const IDLE_KW = 0.005

/**
 * The flow meter (SPEC §2 "flow meter with details"): the live metrics split into where the power comes
 * from and where it goes. Signs of GET /api/metrics/ (shared/schemas/metrics.ts): grid > 0 purchases,
 * < 0 feeds in; battery > 0 charges, < 0 discharges. Flows under 5 W are left out. Null without the
 * overview permission (grid, PV, battery and building are null then).
 */
export function flowBreakdown(m: Pick<Metrics, 'grid' | 'pv' | 'battery' | 'building' | 'charging_stations'>): FlowBreakdown | null {
  if (!m.grid) return null
  const grid = m.grid.power_kw
  const battery = m.battery?.power_kw ?? 0
  const sources: Omit<Flow, 'share'>[] = [
    { key: 'grid', kw: Math.max(0, grid) },
    { key: 'pv', kw: Math.max(0, m.pv?.power_kw ?? 0) },
    { key: 'battery', kw: Math.max(0, -battery) },
  ]
  const uses: Omit<Flow, 'share'>[] = [
    { key: 'building', kw: Math.max(0, m.building?.power_kw ?? 0) },
    { key: 'stations', kw: Math.max(0, m.charging_stations.power_kw) },
    { key: 'battery', kw: Math.max(0, battery) },
    { key: 'grid', kw: Math.max(0, -grid) },
  ]
  const sum = (l: Omit<Flow, 'share'>[]) => l.reduce((a, f) => a + f.kw, 0)
  const total = Math.max(sum(sources), sum(uses))
  const withShare = (l: Omit<Flow, 'share'>[]) => l.filter((f) => f.kw >= IDLE_KW).map((f) => ({ ...f, share: total > 0 ? f.kw / total : 0 }))
  const consumption = uses[0].kw + uses[1].kw
  const bought = sources[0].kw
  return {
    sources: withShare(sources),
    uses: withShare(uses),
    total_kw: total,
    self_sufficiency: consumption >= IDLE_KW ? Math.min(1, Math.max(0, (consumption - bought) / consumption)) : null,
  }
}

/** The stations tile: how many readable stations are in each display state (SPEC §4), and their power (kW). */
export function stationCounts(stations: Record<string, Pick<Station, 'status' | 'power_kw'>>): { count: number; power_kw: number } & Record<StatusDisplay, number> {
  const out = { count: 0, power_kw: 0, ready: 0, running: 0, error: 0, disabled: 0 }
  for (const s of Object.values(stations)) {
    out.count++
    out.power_kw += s.power_kw
    const d = displayStatus(s.status)
    if (d) out[d]++
  }
  out.power_kw = Math.round(out.power_kw * 100) / 100
  return out
}
