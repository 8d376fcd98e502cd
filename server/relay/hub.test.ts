import { describe, expect, it, vi } from 'vitest'
import type { ServerResponse } from 'node:http'
import { createHub, type Subscriber } from './hub.ts'
import type { Access } from '../../shared/rules/permissions.ts'

const access = (user_id: number, stations: 'all' | number[] = 'all'): Access =>
  ({ user_id, installation_id: 1, role: stations === 'all' ? 'installation_admin' : 'installation_user', cost: false, overview: false, stations, rfids: [] })

function subscriber(userId: number): Subscriber & { writes: Buffer[]; ended: () => boolean } {
  const writes: Buffer[] = []
  let ended = false
  const res = {
    destroyed: false, writableLength: 0,
    write: vi.fn((b: Buffer | string) => (writes.push(Buffer.isBuffer(b) ? b : Buffer.from(b)), true)),
    end: vi.fn(() => (ended = true)), once: vi.fn(), destroy: vi.fn(),
  } as unknown as ServerResponse
  return { res, installationId: 1, userId, connectedAt: Date.now(), topics: new Set(['stations'] as const), lastWrite: 0, blockedSince: 0, writes, ended: () => ended }
}

const stations = { 1: { id: 1, name: 'A', rfid: null }, 2: { id: 2, name: 'B', rfid: null } }

describe('hub', () => {
  it('serializes a snapshot once for every subscriber that joins at the same seq', () => {
    const hub = createHub({ events: { onWatch: () => {} } })
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
    const hub = createHub({ events: { onWatch: () => {} } })
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
    const hub = createHub({ events: { onWatch: () => {} } })
    hub.publish(1, 'stations', stations)
    const s = subscriber(7)
    hub.subscribe(s, access(7, [1]), null)
    expect(s.writes.map(String).join('')).not.toContain('"name":"B"')
    hub.reassign(1, [access(7, [1, 2])], new Set([7]))
    const last = s.writes.at(-1)!.toString()
    expect(last).toContain('event: snapshot')
    expect(last).toContain('"name":"B"')
  })
})
