import { proxy, ref } from 'valtio/vanilla'
import { applyPatch } from 'fast-json-patch/index.mjs'
import type { Operation } from 'fast-json-patch'
import applyMerge from 'json-merge-patch/lib/apply.js'
import { parseEventId } from '../../shared/live-protocol.ts'
import type { LiveState, Topic } from '../../shared/live-protocol.ts'
import type { Metrics } from '../../shared/schemas/metrics.ts'
import type { Station } from '../../shared/schemas/station.ts'
import type { ChargingSession } from '../../shared/schemas/session.ts'
import type { EnergyReturn, InstallationInfo } from '../../shared/schemas/installation.ts'
import { clientNow } from '../api/clock.ts'

/** How much metrics history the power chart keeps (the last hour). */
export const HISTORY_MS = 3600_000

/** Data of each live topic (ARCHITECTURE §5). Collections are keyed by record id. */
export interface TopicData {
  metrics: Metrics
  stations: Record<string, Station>
  sessions: Record<string, ChargingSession>
  info: InstallationInfo
  energy_return: EnergyReturn | null
}

/** One topic's state: its data (once a snapshot came), the relay's view of it, and when it changed. */
export interface TopicSlot<T> {
  /** True once a snapshot arrived; `data` may legitimately be null (energy_return). */
  loaded: boolean
  data: T | null
  /** Sequence number of the last applied snapshot or patch (-1: none). */
  seq: number
  /** Client time (ms) of the last applied snapshot or patch: the tile's data age. */
  updatedAt: number | null
  /** The relay's state of the topic (status events): live, stale or down. */
  state: LiveState
  /** Since when `state` holds (ISO), from the status event. */
  since: string | null
}

/** One point of the power chart: kW per series at time `t` (ms). Null where the caller may not see it. */
export interface MetricsSample {
  t: number
  grid: number | null
  pv: number | null
  battery: number | null
  building: number | null
  charging: number
}

export type ConnectionState = 'idle' | 'connecting' | 'open' | 'reconnecting' | 'paused' | 'failed'

/** Live data of one installation. */
export interface InstallationLive {
  installationId: number
  connection: ConnectionState
  /** Why the stream failed for good (403/404 ticket), as a message key or API text. */
  connectionError: string | null
  /** Last event id seen (`<epoch>.<seq>`), sent as lastEventId when resuming. */
  lastEventId: string | null
  /** Relay epoch of the events applied; a new epoch restarts sequence numbers. */
  epoch: string | null
  /** Set when a patch could not be applied: the stream must restart without lastEventId. */
  needsResync: boolean
  /** Client time (ms) the stream last delivered anything, a heartbeat included (client/live/freshness.ts). */
  lastSeen: number | null
  topics: { [K in Topic]: TopicSlot<TopicData[K]> }
  /** Metrics samples of the last hour, oldest first (not proxied: replaced on every append). */
  history: readonly MetricsSample[]
}

export interface LiveStore {
  installations: Record<string, InstallationLive>
}

/** The one live store (valtio). Components read it with useSnapshot; changes go through applyEvent. */
export const live = proxy<LiveStore>({ installations: {} })

function emptySlot<T>(): TopicSlot<T> {
  return { loaded: false, data: null, seq: -1, updatedAt: null, state: 'live', since: null }
}

function createInstallation(installationId: number): InstallationLive {
  return {
    installationId,
    connection: 'idle',
    connectionError: null,
    lastEventId: null,
    epoch: null,
    needsResync: false,
    lastSeen: null,
    topics: {
      metrics: emptySlot(),
      stations: emptySlot(),
      sessions: emptySlot(),
      info: emptySlot(),
      energy_return: emptySlot(),
    },
    history: ref([]),
  }
}

/** The live state of an installation, created on first use. */
export function ensureInstallation(installationId: number): InstallationLive {
  const key = String(installationId)
  live.installations[key] ??= createInstallation(installationId)
  return live.installations[key]
}

/** Drop the live data of every installation but `keep` (SPEC §4 installation change). */
export function resetLive(keep: number | null = null): void {
  for (const key of Object.keys(live.installations)) if (key !== String(keep)) delete live.installations[key]
}

/** Set the stream state shown by the tiles. */
export function setConnection(installationId: number, state: ConnectionState, error: string | null = null): void {
  const inst = ensureInstallation(installationId)
  inst.connection = state
  inst.connectionError = error
}

/** The stream delivered something (an event, a heartbeat, its opening) at client time `now`. */
export function markSeen(installationId: number, now: number = clientNow()): void {
  ensureInstallation(installationId).lastSeen = now
}

/** Forget the resume point (a resync needs fresh snapshots). */
export function clearResume(installationId: number): void {
  const inst = ensureInstallation(installationId)
  inst.lastEventId = null
  inst.needsResync = false
}

const TOPIC_SET: ReadonlySet<string> = new Set(['metrics', 'stations', 'sessions', 'info', 'energy_return'])
const STATES: ReadonlySet<string> = new Set(['live', 'stale', 'down'])

function isTopic(value: unknown): value is Topic {
  return typeof value === 'string' && TOPIC_SET.has(value)
}

/** One metrics reading as a chart sample. */
export function sampleOf(m: Metrics, now: number): MetricsSample {
  const parsed = m.timestamp ? Date.parse(m.timestamp) : NaN
  return {
    t: Number.isFinite(parsed) ? parsed : now,
    grid: m.grid?.power_kw ?? null,
    pv: m.pv?.power_kw ?? null,
    battery: m.battery?.power_kw ?? null,
    building: m.building?.power_kw ?? null,
    charging: m.charging_stations?.power_kw ?? 0,
  }
}

/**
 * Add a sample keeping time order (a sample at or before existing ones replaces them) and only the
 * last hour before the newest sample.
 */
export function appendSample(history: readonly MetricsSample[], sample: MetricsSample): MetricsSample[] {
  const from = sample.t - HISTORY_MS
  const kept = history.filter((s) => s.t >= from && s.t < sample.t)
  kept.push(sample)
  return kept
}

/**
 * Put earlier samples (stored history: the statistics API or this tab's saved state) before the
 * live ones: only samples older than the first live one and within the hour before the newest are
 * kept, so live samples always win. `samples` need not be sorted.
 */
export function seedHistory(installationId: number, samples: readonly MetricsSample[]): void {
  const inst = ensureInstallation(installationId)
  const first = inst.history[0]?.t ?? Infinity
  const newest = Math.max(inst.history[inst.history.length - 1]?.t ?? -Infinity, ...samples.map((s) => s.t))
  const older = samples.filter((s) => s.t < first && s.t >= newest - HISTORY_MS).sort((a, b) => a.t - b.t)
  if (older.length > 0) inst.history = ref([...older, ...inst.history])
}

export type ApplyResult = 'applied' | 'ignored' | 'resync'

/**
 * Apply one relay event to the store: the only way live data changes (ARCHITECTURE §5/§6).
 *
 * - `snapshot` {topic, seq, data}: replaces the topic's data.
 * - `patch` {topic, seq, ops}: RFC 6902 ops applied to a copy of the topic's data, then assigned.
 *   A patch before any snapshot, or one that fails, answers 'resync' (restart without lastEventId).
 * - `merge` {topic, seq, merge}: an RFC 7396 merge patch, applied the same way (the relay sends it
 *   instead of ops when it is smaller and exact).
 * - `status` {topic, state, since}: the relay's live/stale/down state of the topic.
 *
 * Events with a sequence number not above the topic's last one (replays after a resume) are
 * ignored. A new relay epoch in `lastEventId` restarts sequence numbers. Every metrics change
 * appends a chart sample; the history keeps one hour. `payload` may be the raw JSON text.
 */
export function applyEvent(
  installationId: number,
  type: string,
  payload: unknown,
  lastEventId?: string | null,
  now: number = clientNow(),
): ApplyResult {
  let data: unknown = payload
  if (typeof payload === 'string') {
    try {
      data = JSON.parse(payload)
    } catch {
      return 'ignored'
    }
  }
  if (!data || typeof data !== 'object') return 'ignored'
  const event = data as Record<string, unknown>
  if (!isTopic(event.topic)) return 'ignored'
  const topic = event.topic
  const inst = ensureInstallation(installationId)

  const id = parseEventId(lastEventId)
  if (id && inst.epoch !== id.epoch) {
    if (inst.epoch !== null) for (const t of Object.values(inst.topics)) t.seq = -1
    inst.epoch = id.epoch
  }
  if (lastEventId) inst.lastEventId = lastEventId

  const slot = inst.topics[topic] as TopicSlot<unknown>
  switch (type) {
    case 'status': {
      if (typeof event.state !== 'string' || !STATES.has(event.state)) return 'ignored'
      slot.state = event.state as LiveState
      slot.since = typeof event.since === 'string' ? event.since : null
      return 'applied'
    }
    case 'snapshot': {
      const seq = typeof event.seq === 'number' ? event.seq : null
      if (seq !== null && seq <= slot.seq) return 'ignored'
      setData(inst, topic, event.data ?? null, seq ?? slot.seq, now)
      return 'applied'
    }
    case 'patch':
    case 'merge': {
      const seq = typeof event.seq === 'number' ? event.seq : null
      if (seq !== null && seq <= slot.seq) return 'ignored'
      const change = type === 'patch' ? event.ops : event.merge
      const valid = type === 'patch' ? Array.isArray(change) : !!change && typeof change === 'object' && !Array.isArray(change)
      if (!slot.loaded || !valid) {
        inst.needsResync = true
        return 'resync'
      }
      try {
        // Both work on a copy; the store gets the result. A merge onto data that is not an object
        // (a topic whose data is null) cannot be what the relay meant: resync.
        let next: unknown
        if (type === 'patch') next = applyPatch(slot.data, change as Operation[], true, false).newDocument
        else {
          if (!slot.data || typeof slot.data !== 'object') throw new Error('merge onto no data')
          next = applyMerge(JSON.parse(JSON.stringify(slot.data)), change)
        }
        setData(inst, topic, next, seq ?? slot.seq, now)
        return 'applied'
      } catch {
        inst.needsResync = true
        return 'resync'
      }
    }
    default:
      return 'ignored'
  }
}

function setData(inst: InstallationLive, topic: Topic, data: unknown, seq: number, now: number): void {
  const slot = inst.topics[topic] as TopicSlot<unknown>
  slot.data = data
  slot.loaded = true
  slot.seq = seq
  slot.updatedAt = now
  if (topic === 'metrics' && data) inst.history = ref(appendSample(inst.history, sampleOf(data as Metrics, now)))
}
