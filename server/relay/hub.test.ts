import { describe, expect, it, vi } from 'vitest'
import type { ServerResponse } from 'node:http'
import { createHub, type Subscriber } from './hub.ts'
import type { Access } from '../../shared/rules/permissions.ts'
import type { Topic } from '../../shared/live.ts'

const access = (user_id: number, stations: 'all' | number[] = 'all'): Access =>
  ({ user_id, installation_id: 1, role: stations === 'all' ? 'installation_admin' : 'installation_user', cost: false, overview: false, stations, rfids: [] })

function subscriber(userId: number, topics: Topic[] = ['stations']): Subscriber & { writes: Buffer[]; ended: () => boolean } {
  const writes: Buffer[] = []
  let ended = false
  const res = {
    destroyed: false, writableEnded: false, writableLength: 0,
    write: vi.fn((b: Buffer | string) => (writes.push(Buffer.isBuffer(b) ? b : Buffer.from(b)), true)),
    end: vi.fn(() => (ended = true)), once: vi.fn(), destroy: vi.fn(),
  } as unknown as ServerResponse
  return { res, installationId: 1, userId, connectedAt: Date.now(), topics: new Set(topics), lastWrite: 0, blockedSince: 0, writes, ended: () => ended }
}

const metrics = (kw: number) => ({ installation_id: 1, timestamp: `t${kw}`, charging_stations: { power_kw: kw, stations: { 1: kw } } })
const stations = { 1: { id: 1, name: 'A', rfid: null }, 2: { id: 2, name: 'B', rfid: null } }

describe('hub', () => {
  it('gives relays started in the same millisecond different epochs, so one never replays the other\'s ids', () => {
    vi.useFakeTimers({ now: new Date('2026-05-01T10:00:00Z'), toFake: ['Date'] })
    try {
      const a = createHub({ clockMs: Date.now, events: { onWatch: () => {} } })
      const b = createHub({ clockMs: Date.now, events: { onWatch: () => {} } })
      expect(a.epoch).not.toBe(b.epoch)
      // A's id taken to B (failover behind the proxy) is not resumed there: B sends a snapshot.
      for (const hub of [a, b]) hub.publish(1, 'stations', stations)
      b.publish(1, 'stations', { ...stations, 3: { id: 3, name: 'C', rfid: null } })
      const sub = subscriber(1)
      b.subscribe(sub, access(1), `${a.epoch}.1`)
      expect(sub.writes.map(String).join('')).toContain('event: snapshot')
    } finally {
      vi.useRealTimers()
    }
  })

  it('writes a heartbeat the browser can see (an event, not a comment) after 15 s of silence', () => {
    let t = 0
    const hub = createHub({ clockMs: Date.now, now: () => t, events: { onWatch: () => {} } })
    hub.publish(1, 'stations', stations)
    const sub = subscriber(1)
    hub.subscribe(sub, access(1), null)
    sub.lastWrite = 0
    const before = sub.writes.length
    t = 10_000
    hub.sweep()
    expect(sub.writes.length).toBe(before)
    t = 15_000
    hub.sweep()
    expect(sub.writes.slice(before).map(String)).toEqual(['event: heartbeat\ndata: {}\n\n'])
  })

  it('serializes a snapshot once for every subscriber that joins at the same seq', () => {
    const hub = createHub({ clockMs: Date.now, events: { onWatch: () => {} } })
    hub.publish(1, 'stations', stations)
    const a = subscriber(1)
    const b = subscriber(2)
    hub.subscribe(a, access(1), null)
    hub.subscribe(b, access(2), null)
    const snapA = a.writes.find((w) => w.toString().includes('event: snapshot'))!
    const snapB = b.writes.find((w) => w.toString().includes('event: snapshot'))!
    expect(snapA).toBe(snapB)
  })

  it('judges only the users it asked about: a stream that joined meanwhile is not closed', () => {
    const hub = createHub({ clockMs: Date.now, events: { onWatch: () => {} } })
    hub.publish(1, 'stations', stations)
    const early = subscriber(1)
    const late = subscriber(2)
    hub.subscribe(early, access(1), null)
    hub.subscribe(late, access(2), null)
    // The re-check asked for user 1 only (user 2 joined while it was in flight).
    hub.reassign(1, [access(1)], new Set([1]))
    expect(late.ended()).toBe(false)
    expect(early.ended()).toBe(false)
    // User 1 lost access: only their stream ends.
    hub.reassign(1, [], new Set([1]))
    expect(early.ended()).toBe(true)
    expect(late.ended()).toBe(false)
  })

  it('moves a subscriber whose rights changed to its new profile with a fresh snapshot', () => {
    const hub = createHub({ clockMs: Date.now, events: { onWatch: () => {} } })
    hub.publish(1, 'stations', stations)
    const s = subscriber(7)
    hub.subscribe(s, access(7, [1]), null)
    expect(s.writes.map(String).join('')).not.toContain('"name":"B"')
    hub.reassign(1, [access(7, [1, 2])], new Set([7]))
    const last = s.writes.at(-1)!.toString()
    expect(last).toContain('event: snapshot')
    expect(last).toContain('"name":"B"')
  })

  it('writes the events of one batch (a poll round) to each subscriber in one write, joined once per profile', () => {
    const hub = createHub({ clockMs: Date.now, events: { onWatch: () => {} } })
    hub.publish(1, 'stations', stations)
    hub.publish(1, 'metrics', metrics(1))
    const both = [subscriber(1, ['stations', 'metrics']), subscriber(2, ['stations', 'metrics'])]
    const one = subscriber(3, ['metrics'])
    for (const s of [...both, one]) hub.subscribe(s, access(s.userId), null)
    const before = [...both, one].map((s) => s.writes.length)
    hub.batch(() => {
      hub.publish(1, 'stations', { ...stations, 2: { id: 2, name: 'B2', rfid: null } })
      hub.publish(1, 'metrics', metrics(2))
    })
    const added = [...both, one].map((s, i) => s.writes.slice(before[i]))
    expect(added.map((w) => w.length)).toEqual([1, 1, 1])
    const text = added[0][0].toString()
    expect(text.indexOf('"topic":"stations"')).toBeGreaterThan(-1)
    expect(text.indexOf('"topic":"metrics"')).toBeGreaterThan(text.indexOf('"topic":"stations"'))
    expect(text.split('\n\n').filter(Boolean)).toHaveLength(2)
    // Same profile, same topics: the very same joined bytes.
    expect(added[1][0]).toBe(added[0][0])
    expect(added[2][0].toString()).not.toContain('"topic":"stations"')
    expect(hub.stats.eventsSent).toBeGreaterThanOrEqual(5)
  })

  it('sends a change that needs two events (merge, then ops) with consecutive seqs, and replays the second alone', () => {
    const hub = createHub({ clockMs: Date.now, events: { onWatch: () => {} } })
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [i + 1, { id: i + 1, name: `S${i + 1}`, power_kw: i, rfid: null }]))
    hub.publish(1, 'stations', many)
    const s = subscriber(1)
    hub.subscribe(s, access(1), null)
    const mark = s.writes.length
    const next: Record<string, unknown> = Object.fromEntries(Object.entries(many).map(([k, v]) => [k, { ...v, power_kw: v.power_kw + 1 }]))
    next[21] = { id: 21, name: 'S21', power_kw: 0, rfid: null }
    hub.publish(1, 'stations', next)
    const text = s.writes.slice(mark).map(String).join('')
    const events = [...text.matchAll(/id: (\S+)\nevent: (\w+)\n/g)].map((m) => [m[1], m[2]])
    expect(events.map((e) => e[1])).toEqual(['merge', 'patch'])
    const [a, b] = events.map((e) => Number(e[0].split('.')[1]))
    expect(b).toBe(a + 1)
    // A stream that saw the merge resumes with exactly the ops.
    const r = subscriber(2)
    hub.subscribe(r, access(2), events[0][0])
    const replay = r.writes.map(String).join('')
    expect(replay).toContain('event: patch')
    expect(replay).not.toContain('event: merge')
    expect(replay).not.toContain('event: snapshot')
  })
})
