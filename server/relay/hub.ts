import type { ServerResponse } from 'node:http'
import jsonpatch from 'fast-json-patch'
import { parseEventId, type LiveState, type Topic } from '../../shared/live.ts'
import { accessProfileKey, type Access } from '../../shared/rules/permissions.ts'
import { RELAY } from '../../config/defaults.ts'
import { project } from './projection.ts'

/** One open stream. */
export interface Subscriber {
  res: ServerResponse
  installationId: number
  topics: ReadonlySet<Topic>
  profile?: Profile
  lastWrite: number
}

/** Subscribers who may see the same data share a profile: its state and its serialized bytes. */
interface Profile {
  key: string
  access: Access
  /** Projected state per topic, as last sent. */
  states: Map<Topic, unknown>
  /** Installation seq when this profile began tracking; resumes from before it get snapshots. */
  since: number
  subscribers: Set<Subscriber>
  idleSince: number
}

interface RingEntry {
  seq: number
  profile: string
  topic: Topic
  bytes: Buffer
  at: number
}

interface InstallationState {
  seq: number
  upstream: Map<Topic, { json: string; state: unknown }>
  status: Map<Topic, { state: LiveState; since: string }>
  profiles: Map<string, Profile>
  ring: RingEntry[]
  /** Highest seq dropped from the ring: a resume from before it cannot be exact. */
  trimmed: number
  subscribers: number
  /** Subscribers per topic (for starting and stopping polls). */
  topicCount: Map<Topic, number>
}

export interface HubEvents {
  /** A topic of an installation gained its first subscriber, or lost its last one. */
  onWatch(installationId: number, topic: Topic, watched: boolean): void
}

/** Figures for tests, benchmarks and /live/metrics later. */
export interface HubStats {
  subscribers: number
  installations: number
  eventsSent: number
  bytesSent: number
  dropped: number
  replayHits: number
  lastEvent: Map<string, { type: 'snapshot' | 'patch'; bytes: number }>
}

const frame = (id: string | null, event: string, data: string) => Buffer.from(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${data}\n\n`)

/**
 * The relay's fan-out (ARCHITECTURE §5): keeps each installation's upstream state, projects it once per
 * permission profile, diffs it into RFC 6902 patches, serializes each event once per profile and writes
 * the same bytes to every subscriber of that profile. A ring of recent events per installation serves
 * Last-Event-ID resumes; outside the ring a resume gets fresh snapshots.
 */
export function createHub({ events, epoch = Date.now().toString(36), now = Date.now }: { events: HubEvents; epoch?: string; now?: () => number }) {
  const installations = new Map<number, InstallationState>()
  const stats: HubStats = { subscribers: 0, installations: 0, eventsSent: 0, bytesSent: 0, dropped: 0, replayHits: 0, lastEvent: new Map() }

  const inst = (id: number): InstallationState => {
    let s = installations.get(id)
    if (!s) {
      s = { seq: 0, upstream: new Map(), status: new Map(), profiles: new Map(), ring: [], trimmed: 0, subscribers: 0, topicCount: new Map() }
      installations.set(id, s)
      stats.installations = installations.size
    }
    return s
  }

  function write(sub: Subscriber, bytes: Buffer): void {
    if (sub.res.destroyed) return
    const ok = sub.res.write(bytes)
    sub.lastWrite = now()
    stats.eventsSent++
    stats.bytesSent += bytes.length
    // A subscriber that cannot keep up is dropped; its EventSource resumes with Last-Event-ID.
    if (!ok && sub.res.writableLength > RELAY.maxBufferedBytes) {
      stats.dropped++
      sub.res.destroy()
    }
  }

  function pushRing(s: InstallationState, entry: RingEntry): void {
    s.ring.push(entry)
    const cutoff = now() - RELAY.replayMs
    let drop = 0
    while (drop < s.ring.length && (s.ring.length - drop > RELAY.replayEvents || s.ring[drop].at < cutoff)) drop++
    if (drop) {
      s.trimmed = Math.max(s.trimmed, s.ring[drop - 1].seq)
      s.ring.splice(0, drop)
    }
  }

  function snapshotFrame(s: InstallationState, topic: Topic, data: unknown): Buffer {
    return frame(`${epoch}.${s.seq}`, 'snapshot', JSON.stringify({ topic, seq: s.seq, data }))
  }

  function newProfile(s: InstallationState, access: Access, key: string): Profile {
    const p: Profile = { key, access, states: new Map(), since: s.seq, subscribers: new Set(), idleSince: now() }
    for (const [topic, u] of s.upstream) p.states.set(topic, project(topic, u.state, access))
    s.profiles.set(key, p)
    return p
  }

  function statusFrame(topic: Topic, st: { state: LiveState; since: string }): Buffer {
    return frame(null, 'status', JSON.stringify({ topic, state: st.state, since: st.since }))
  }

  return {
    epoch,
    stats,

    /**
     * Attach a subscriber: resume from `lastEventId` when the ring covers it (exactly the missed events
     * of its profile), else fresh snapshots of every topic with data; then the current statuses.
     */
    subscribe(sub: Subscriber, access: Access, lastEventId: string | null): void {
      const s = inst(sub.installationId)
      const key = accessProfileKey(access)
      const existing = s.profiles.get(key)
      const profile = existing ?? newProfile(s, access, key)
      if (existing) profile.access = access
      sub.profile = profile
      sub.res.write(`retry: ${RELAY.retryMs}\n\n`)
      sub.lastWrite = now()
      const last = parseEventId(lastEventId)
      const resumable = last && last.epoch === epoch && last.seq >= profile.since && last.seq >= s.trimmed && last.seq <= s.seq
      if (resumable) {
        stats.replayHits++
        for (const e of s.ring) if (e.seq > last.seq && e.profile === key && sub.topics.has(e.topic)) write(sub, e.bytes)
      } else {
        for (const topic of sub.topics) {
          const state = profile.states.get(topic)
          if (state !== undefined) write(sub, snapshotFrame(s, topic, state))
        }
      }
      for (const topic of sub.topics) {
        const st = s.status.get(topic)
        if (st) write(sub, statusFrame(topic, st))
      }
      profile.subscribers.add(sub)
      s.subscribers++
      stats.subscribers++
      for (const topic of sub.topics) {
        const n = (s.topicCount.get(topic) ?? 0) + 1
        s.topicCount.set(topic, n)
        if (n === 1) events.onWatch(sub.installationId, topic, true)
      }
    },

    unsubscribe(sub: Subscriber): void {
      const s = installations.get(sub.installationId)
      const profile = sub.profile
      if (!s || !profile || !profile.subscribers.delete(sub)) return
      s.subscribers--
      stats.subscribers--
      if (!profile.subscribers.size) profile.idleSince = now()
      for (const topic of sub.topics) {
        const n = (s.topicCount.get(topic) ?? 1) - 1
        s.topicCount.set(topic, n)
        if (n === 0) events.onWatch(sub.installationId, topic, false)
      }
    },

    /**
     * New upstream data for a topic. Each profile gets a patch of its projection (or a snapshot when it
     * has none yet, or when the patch would be larger than the snapshot); unchanged projections send nothing.
     */
    publish(installationId: number, topic: Topic, state: unknown): void {
      const s = inst(installationId)
      const json = JSON.stringify(state)
      if (s.upstream.get(topic)?.json === json) return
      s.upstream.set(topic, { json, state })
      let seq = 0
      for (const profile of s.profiles.values()) {
        const next = project(topic, state, profile.access)
        const prev = profile.states.get(topic)
        profile.states.set(topic, next)
        let type: 'snapshot' | 'patch' = 'snapshot'
        let payload: string
        const snapshotData = JSON.stringify(next)
        if (prev === undefined || prev === null || next === null) {
          if (prev !== undefined && JSON.stringify(prev) === snapshotData) continue
          payload = snapshotData
        } else {
          const ops = jsonpatch.compare(prev as object, next as object)
          if (!ops.length) continue
          const opsJson = JSON.stringify(ops)
          if (opsJson.length < snapshotData.length) {
            type = 'patch'
            payload = opsJson
          } else payload = snapshotData
        }
        if (!seq) seq = ++s.seq
        const body = type === 'patch' ? `{"topic":"${topic}","seq":${seq},"ops":${payload}}` : `{"topic":"${topic}","seq":${seq},"data":${payload}}`
        const bytes = frame(`${epoch}.${seq}`, type, body)
        stats.lastEvent.set(`${topic}:${type}`, { type, bytes: bytes.length })
        pushRing(s, { seq, profile: profile.key, topic, bytes, at: now() })
        for (const sub of profile.subscribers) if (sub.topics.has(topic)) write(sub, bytes)
      }
    },

    /** A topic's upstream health changed: tell its subscribers (status events carry no id). */
    setStatus(installationId: number, topic: Topic, state: LiveState): void {
      const s = inst(installationId)
      if (s.status.get(topic)?.state === state) return
      const st = { state, since: new Date(now()).toISOString() }
      s.status.set(topic, st)
      const bytes = statusFrame(topic, st)
      for (const profile of s.profiles.values()) for (const sub of profile.subscribers) if (sub.topics.has(topic)) write(sub, bytes)
    },

    /** Write a comment to every subscriber silent for `heartbeatMs`; forget long-idle profiles. */
    sweep(): void {
      const t = now()
      for (const [id, s] of installations) {
        for (const [key, profile] of s.profiles) {
          for (const sub of profile.subscribers) if (t - sub.lastWrite >= RELAY.heartbeatMs) write(sub, Buffer.from(': keep-alive\n\n'))
          if (!profile.subscribers.size && t - profile.idleSince > RELAY.replayMs) s.profiles.delete(key)
        }
        if (!s.profiles.size && !s.subscribers) {
          installations.delete(id)
          stats.installations = installations.size
        }
      }
    },

    /** Close every stream (shutdown): clients reconnect elsewhere with Last-Event-ID. */
    closeAll(): void {
      for (const s of installations.values()) for (const p of s.profiles.values()) for (const sub of p.subscribers) sub.res.end()
    },
  }
}
export type Hub = ReturnType<typeof createHub>
