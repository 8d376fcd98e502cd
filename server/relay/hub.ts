import crypto from 'node:crypto'
import { parseEventId, type LiveState, type Topic } from '../../shared/live.ts'
import { accessProfileKey, type Access } from '../../shared/rules/permissions.ts'
import { RELAY } from '../../config/defaults.ts'
import type { RelayLimits } from '../../config/env.ts'
import { project } from './projection.ts'
import { encodeChange } from './encode.ts'

/**
 * Where a subscriber's bytes go: the stream's socket (shared fan-out writes the HTTP head itself and then
 * raw frames), or the plugin's response (naive fan-out). Both `net.Socket` and `ServerResponse` fit.
 */
export interface LiveOut {
  write(chunk: Buffer | string): boolean
  end(): unknown
  end(chunk: string): unknown
  destroy(): unknown
  readonly destroyed: boolean
  readonly writableEnded: boolean
  readonly writableLength: number
  once(event: 'drain', listener: () => void): unknown
}

/** One open stream. */
export interface Subscriber {
  res: LiveOut
  installationId: number
  userId: number
  /** When the stream opened (the process clock's ms): it closes if the user's sessions end after this. */
  connectedAt: number
  topics: ReadonlySet<Topic>
  profile?: Profile
  /** The hub's monotonic `now()` of the last write (set by `subscribe`). */
  lastWrite: number
  /** When the socket stopped accepting writes (0 = not blocked). */
  blockedSince: number
  /** Naive fan-out only: the plugin's per-subscriber send, which serializes the event itself. */
  send?: (msg: NaiveEvent) => Promise<void>
}

interface RingEntry {
  seq: number
  topic: Topic
  bytes: Buffer
  at: number
}

/** Subscribers who may see the same data share a profile: its state, its bytes and its replay ring. */
interface Profile {
  key: string
  access: Access
  /** Projected state per topic, as last sent. */
  states: Map<Topic, unknown>
  /** Installation seq when this profile began tracking; resumes from before it get snapshots. */
  since: number
  subscribers: Set<Subscriber>
  idleSince: number
  ring: RingEntry[]
  /** Highest seq dropped from the ring: a resume from before it cannot be exact. */
  trimmed: number
  /** Snapshot frames per topic for the installation seq they were built at: a connection burst serializes once. */
  snapshots: Map<Topic, { seq: number; bytes: Buffer }>
}

interface InstallationState {
  seq: number
  upstream: Map<Topic, { json: string; state: unknown }>
  status: Map<Topic, { state: LiveState; since: string }>
  profiles: Map<string, Profile>
  subscribers: number
  /** Subscribers per topic (for starting and stopping polls). */
  topicCount: Map<Topic, number>
}

export interface HubEvents {
  /** A topic of an installation gained its first subscriber, or lost its last one. */
  onWatch(installationId: number, topic: Topic, watched: boolean): void
}

/** Counters for /live/metrics, tests and benchmarks. */
export interface HubStats {
  subscribers: number
  installations: number
  profiles: number
  eventsSent: number
  bytesSent: number
  dropped: number
  replayHits: number
  replayMisses: number
  /** Upstream calls re-checking the rights of open streams. */
  accessChecks: number
  lastEvent: Map<string, { type: 'snapshot' | 'patch' | 'merge'; bytes: number }>
}

/** An event as the naive fan-out's plugin takes it (it serializes `data` itself). */
type NaiveEvent = { id?: string; event: string; data: unknown }

const frame = (id: string | null, event: string, data: string) => Buffer.from(`${id ? `id: ${id}\n` : ''}event: ${event}\ndata: ${data}\n\n`)
/**
 * The heartbeat after RELAY.heartbeatMs of silence (ARCHITECTURE §5) is an event, not an SSE comment:
 * EventSource never shows comments to the page, and a wall display must tell a quiet stream from a
 * stalled one (docs/decisions.md "Live: the heartbeat is an event").
 */
const HEARTBEAT = Buffer.from('event: heartbeat\ndata: {}\n\n')

/**
 * The relay's fan-out (ARCHITECTURE §5): keeps each installation's upstream state, projects it
 * once per permission profile, encodes each change in its smallest exact form (encode.ts), serializes
 * each event once per profile and writes the same bytes to every subscriber of that profile; a poll
 * round's events go out as one write per subscriber (`batch`). Each profile keeps a replay ring
 * (`replayMs`) for exact Last-Event-ID resumes; outside it a resume gets fresh snapshots. Event ids are
 * `<epoch>.<seq>`; the epoch is the start time plus randomness, because relays behind one proxy (started
 * together by compose.yaml) must never take each other's ids for their own after a failover. A subscriber
 * whose socket stays blocked past `maxBlockedMs` or `maxBufferedBytes` is dropped without delaying the
 * others (writes never wait). `fanout: 'naive'` serializes per subscriber instead (benchmark only).
 *
 * Two times (docs/decisions.md "One clock: jobs and the relay's polls"): `clockMs` is the process clock
 * (ARCHITECTURE §1 "Time"), for what is a time of day (a status's `since`, the epoch's start time);
 * `now` is a monotonic real-time ms count for delivery (writes, heartbeats, blocked subscribers, the
 * replay window, idle profiles), which follows the browsers' connections, not CLOCK_SPEED.
 */
export function createHub({ events, limits = {}, clockMs, epoch = `${clockMs().toString(36)}${crypto.randomBytes(4).toString('hex')}`, now = () => performance.now() }: {
  events: HubEvents
  limits?: Partial<RelayLimits>
  /** The process clock's now, ms since the epoch. */
  clockMs: () => number
  epoch?: string
  /** Monotonic real-time ms (delivery timing); performance.now() by default. */
  now?: () => number
}) {
  const L = { fanout: 'shared', maxBufferedBytes: RELAY.maxBufferedBytes, maxBlockedMs: RELAY.maxBlockedMs, replayMs: RELAY.replayMs, ...limits }
  const installations = new Map<number, InstallationState>()
  /** Users who opened a stream since the last re-check, per installation (their rights came from a ticket). */
  let joined = new Map<number, Set<number>>()
  const stats: HubStats = { subscribers: 0, installations: 0, profiles: 0, eventsSent: 0, bytesSent: 0, dropped: 0, replayHits: 0, replayMisses: 0, accessChecks: 0, lastEvent: new Map() }

  const inst = (id: number): InstallationState => {
    let s = installations.get(id)
    if (!s) {
      s = { seq: 0, upstream: new Map(), status: new Map(), profiles: new Map(), subscribers: 0, topicCount: new Map() }
      installations.set(id, s)
      stats.installations = installations.size
    }
    return s
  }

  function drop(sub: Subscriber): void {
    if (sub.res.destroyed) return
    stats.dropped++
    sub.res.destroy()
  }

  /**
   * End streams (with a last chunk per stream, e.g. a retry hint) and destroy those whose client has not
   * closed its side after RELAY.endGraceMs: a half-open socket must not keep a subscriber or a shutdown.
   */
  function endStreams(subs: Iterable<Subscriber>, last: () => string | undefined = () => undefined): void {
    const ended: Subscriber[] = []
    for (const sub of subs) {
      if (sub.res.destroyed || sub.res.writableEnded) continue
      const chunk = last()
      if (chunk) sub.res.end(chunk)
      else sub.res.end()
      ended.push(sub)
    }
    if (ended.length) setTimeout(() => ended.forEach((sub) => sub.res.destroyed || sub.res.destroy()), RELAY.endGraceMs).unref()
  }

  /** Frames held back per profile while a batch runs (see `batch`); null outside a batch. */
  let pending: Map<Profile, { topic: Topic; bytes: Buffer }[]> | null = null

  function write(sub: Subscriber, bytes: Buffer): void {
    if (sub.res.destroyed || sub.res.writableEnded) return
    stats.eventsSent++
    stats.bytesSent += bytes.length
    writeNow(sub, bytes)
  }

  function writeNow(sub: Subscriber, bytes: Buffer): void {
    const ok = sub.res.write(bytes)
    sub.lastWrite = now()
    if (!ok) {
      if (sub.res.writableLength > L.maxBufferedBytes) return drop(sub)
      if (!sub.blockedSince) {
        sub.blockedSince = sub.lastWrite
        sub.res.once('drain', () => (sub.blockedSince = 0))
      }
    }
  }

  /**
   * A profile's frame of `topic` to every subscriber of it who asked for the topic: at the batch's end
   * when a batch runs, else now. Naive fan-out hands update events to each subscriber's plugin at once.
   */
  function fanOut(profile: Profile, topic: Topic, bytes: Buffer, naive?: () => NaiveEvent): void {
    if (naive && L.fanout === 'naive') {
      for (const sub of profile.subscribers) if (sub.topics.has(topic)) deliver(sub, bytes, naive)
    } else if (pending) {
      const list = pending.get(profile)
      if (list) list.push({ topic, bytes })
      else pending.set(profile, [{ topic, bytes }])
    } else for (const sub of profile.subscribers) if (sub.topics.has(topic)) write(sub, bytes)
  }

  /**
   * Write what a batch held back: one write per subscriber, of the frames of its profile for the topics
   * it asked for, in order. Subscribers with the same topics share one joined buffer (keyed by the set of
   * frames that apply, as a bit mask), so the per-subscriber work is a few set lookups and one write.
   */
  function flush(held: Map<Profile, { topic: Topic; bytes: Buffer }[]>): void {
    for (const [profile, frames] of held) {
      if (frames.length > 30) {
        for (const f of frames) for (const sub of profile.subscribers) if (sub.topics.has(f.topic)) write(sub, f.bytes)
        continue
      }
      const joined = new Map<number, { bytes: Buffer; count: number }>()
      for (const sub of profile.subscribers) {
        if (sub.res.destroyed || sub.res.writableEnded) continue
        let mask = 0
        for (let i = 0; i < frames.length; i++) if (sub.topics.has(frames[i].topic)) mask |= 1 << i
        if (!mask) continue
        let j = joined.get(mask)
        if (!j) {
          const parts = frames.filter((_, i) => mask & (1 << i)).map((f) => f.bytes)
          joined.set(mask, (j = { bytes: parts.length === 1 ? parts[0] : Buffer.concat(parts), count: parts.length }))
        }
        stats.eventsSent += j.count
        stats.bytesSent += j.bytes.length
        writeNow(sub, j.bytes)
      }
    }
  }

  /** Naive fan-out: the plugin serializes the event for this subscriber (falls back to the shared bytes). */
  function deliver(sub: Subscriber, bytes: Buffer, naive: () => NaiveEvent): void {
    if (!sub.send) return write(sub, bytes)
    if (sub.res.destroyed || sub.res.writableEnded) return
    stats.eventsSent++
    sub.lastWrite = now()
    void sub.send(naive()).catch(() => drop(sub))
  }

  function pushRing(p: Profile, entry: RingEntry): void {
    p.ring.push(entry)
    const cutoff = now() - L.replayMs
    let n = 0
    while (n < p.ring.length && (p.ring.length - n > RELAY.replayEvents || p.ring[n].at < cutoff)) n++
    if (n) {
      p.trimmed = Math.max(p.trimmed, p.ring[n - 1].seq)
      p.ring.splice(0, n)
    }
  }

  function newProfile(s: InstallationState, access: Access, key: string): Profile {
    const p: Profile = { key, access, states: new Map(), since: s.seq, subscribers: new Set(), idleSince: now(), ring: [], trimmed: 0, snapshots: new Map() }
    for (const [topic, u] of s.upstream) p.states.set(topic, project(topic, u.state, access))
    s.profiles.set(key, p)
    stats.profiles++
    return p
  }

  const statusData = (topic: Topic, st: { state: LiveState; since: string }) => ({ topic, state: st.state, since: st.since })

  /** The snapshot frame of a profile's topic as of now, built once per installation seq. */
  function snapshotOf(s: InstallationState, p: Profile, topic: Topic): Buffer | null {
    const state = p.states.get(topic)
    if (state === undefined) return null
    const cached = p.snapshots.get(topic)
    if (cached && cached.seq === s.seq) return cached.bytes
    const bytes = frame(`${epoch}.${s.seq}`, 'snapshot', JSON.stringify({ topic, seq: s.seq, data: state }))
    p.snapshots.set(topic, { seq: s.seq, bytes })
    return bytes
  }

  return {
    epoch,
    stats,

    /**
     * Attach a subscriber: resume from `lastEventId` when its profile's ring covers it (exactly the
     * missed events), else fresh snapshots of every topic with data; then the current statuses.
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
      const resumable = last && last.epoch === epoch && last.seq >= profile.since && last.seq >= profile.trimmed && last.seq <= s.seq
      if (resumable) {
        stats.replayHits++
        for (const e of profile.ring) if (e.seq > last.seq && sub.topics.has(e.topic)) write(sub, e.bytes)
      } else {
        if (last) stats.replayMisses++
        for (const topic of sub.topics) {
          const bytes = snapshotOf(s, profile, topic)
          if (bytes) write(sub, bytes)
        }
      }
      for (const topic of sub.topics) {
        const st = s.status.get(topic)
        if (st) write(sub, frame(null, 'status', JSON.stringify(statusData(topic, st))))
      }
      profile.subscribers.add(sub)
      s.subscribers++
      stats.subscribers++
      let users = joined.get(sub.installationId)
      if (!users) joined.set(sub.installationId, (users = new Set()))
      users.add(sub.userId)
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
     * New upstream data for a topic. Each profile gets the change of its projection in its smallest exact
     * form (encode.ts: merge patch, RFC 6902 ops, a merge patch followed by ops, or a snapshot; always a
     * snapshot when it has none yet); unchanged projections send nothing.
     */
    publish(installationId: number, topic: Topic, state: unknown): void {
      const s = inst(installationId)
      const json = JSON.stringify(state)
      if (s.upstream.get(topic)?.json === json) return
      s.upstream.set(topic, { json, state })
      const seqs: number[] = []
      for (const profile of s.profiles.values()) {
        const next = project(topic, state, profile.access)
        const prev = profile.states.get(topic)
        profile.states.set(topic, next)
        const changes = encodeChange(prev, next, next === state ? json : JSON.stringify(next))
        if (!changes) continue
        // A change may travel as two events (merge patch, then ops): each gets its own seq, shared by
        // the profiles that send an event at that position.
        changes.forEach((change, i) => {
          const type = change.type
          const seq = (seqs[i] ??= ++s.seq)
          const id = `${epoch}.${seq}`
          const key = type === 'snapshot' ? 'data' : type === 'patch' ? 'ops' : 'merge'
          const bytes = frame(id, type, `{"topic":"${topic}","seq":${seq},"${key}":${change.json}}`)
          stats.lastEvent.set(`${topic}:${type}`, { type, bytes: bytes.length })
          pushRing(profile, { seq, topic, bytes, at: now() })
          const naive = () => ({ id, event: type, data: { topic, seq, [key]: change.type === 'patch' ? change.ops : change.type === 'merge' ? change.merge : next } })
          fanOut(profile, topic, bytes, naive)
        })
      }
    },

    /**
     * Run `fn` (publish and setStatus calls of one poll round) and write what it produced afterwards,
     * one write per subscriber: N subscribers cost N writes per round, not N per topic. Nested calls
     * join the outer batch. (Naive fan-out sends its events at once, as it would without batching.)
     */
    batch(fn: () => void): void {
      if (pending) return fn()
      const held = new Map<Profile, { topic: Topic; bytes: Buffer }[]>()
      pending = held
      try {
        fn()
      } finally {
        pending = null
        flush(held)
      }
    },

    /** Installations with subscribers, and the distinct users watching each (for the access re-check). */
    watchers(): Map<number, number[]> {
      const out = new Map<number, number[]>()
      for (const [id, s] of installations) {
        if (!s.subscribers) continue
        const users = new Set<number>()
        for (const p of s.profiles.values()) for (const sub of p.subscribers) users.add(sub.userId)
        out.set(id, [...users])
      }
      return out
    },

    /**
     * Apply re-checked rights (a permission change reaches the stream within one poll). A
     * subscriber whose profile changed moves to its new profile and gets fresh snapshots; one whose user
     * lost access (no entry in `accesses`) is closed: its reconnect is refused by the API.
     */
    /** Users who joined since the last call, per installation (and forget them). */
    takeJoined(): Map<number, Set<number>> {
      const out = joined
      joined = new Map()
      return out
    },

    reassign(installationId: number, accesses: Access[], only?: ReadonlySet<number>): { moved: number; closed: number } {
      const s = installations.get(installationId)
      let moved = 0
      let closed = 0
      if (!s) return { moved, closed }
      const byUser = new Map(accesses.map((a) => [a.user_id, a]))
      const ending: Subscriber[] = []
      for (const profile of [...s.profiles.values()]) {
        for (const sub of [...profile.subscribers]) {
          if (only && !only.has(sub.userId)) continue
          const access = byUser.get(sub.userId)
          const ended = access?.sessions_valid_after ? Date.parse(access.sessions_valid_after) : 0
          if (!access || sub.connectedAt < ended) {
            closed++
            ending.push(sub)
            continue
          }
          const key = accessProfileKey(access)
          if (key === profile.key) continue
          profile.subscribers.delete(sub)
          if (!profile.subscribers.size) profile.idleSince = now()
          const next = s.profiles.get(key) ?? newProfile(s, access, key)
          sub.profile = next
          next.subscribers.add(sub)
          moved++
          for (const topic of sub.topics) {
            const bytes = snapshotOf(s, next, topic)
            if (bytes) write(sub, bytes)
          }
        }
      }
      endStreams(ending)
      return { moved, closed }
    },

    /** A topic's upstream health changed: tell its subscribers (status events carry no id). */
    setStatus(installationId: number, topic: Topic, state: LiveState): void {
      const s = inst(installationId)
      if (s.status.get(topic)?.state === state) return
      const st = { state, since: new Date(clockMs()).toISOString() }
      s.status.set(topic, st)
      const bytes = frame(null, 'status', JSON.stringify(statusData(topic, st)))
      for (const profile of s.profiles.values()) fanOut(profile, topic, bytes)
    },

    /**
     * The one shared timer's work: a heartbeat event to every subscriber silent for RELAY.heartbeatMs,
     * drop subscribers blocked past maxBlockedMs, forget profiles idle longer than the replay window.
     */
    sweep(): void {
      const t = now()
      for (const [id, s] of installations) {
        for (const [key, profile] of s.profiles) {
          for (const sub of profile.subscribers) {
            if (sub.blockedSince && t - sub.blockedSince > L.maxBlockedMs) drop(sub)
            else if (t - sub.lastWrite >= RELAY.heartbeatMs) write(sub, HEARTBEAT)
          }
          if (!profile.subscribers.size && t - profile.idleSince > L.replayMs) {
            s.profiles.delete(key)
            stats.profiles--
          }
        }
        if (!s.profiles.size && !s.subscribers) {
          installations.delete(id)
          stats.installations = installations.size
        }
      }
    },

    /**
     * Close every stream (shutdown). Each client is told to retry after a short random delay, so a
     * fleet of clients does not reconnect to the next relay all at once; they resume with Last-Event-ID.
     */
    closeAll(): void {
      const all: Subscriber[] = []
      for (const s of installations.values()) for (const p of s.profiles.values()) all.push(...p.subscribers)
      endStreams(all, () => `retry: ${500 + Math.floor(Math.random() * 2500)}\n\n`)
    },
  }
}
export type Hub = ReturnType<typeof createHub>
