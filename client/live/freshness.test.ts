import { describe, expect, it } from 'vitest'
import { confirmedAt, isStalled, STALL_MS } from './freshness.ts'

const T0 = 1_800_000_000_000
const slot = (updatedAt: number | null, state: 'live' | 'stale' | 'down' = 'live') => ({ loaded: updatedAt !== null, updatedAt, state })
const inst = (connection: 'open' | 'reconnecting', lastSeen: number | null, stations = slot(T0)) => ({
  connection,
  lastSeen,
  topics: { metrics: slot(T0), stations, sessions: slot(null), info: slot(T0), energy_return: slot(null) },
})

describe('a stalled stream (no event or heartbeat for three heartbeat intervals)', () => {
  it('is live while heartbeats arrive, stalled 45 s after the last one', () => {
    expect(STALL_MS).toBe(45_000)
    expect(isStalled(T0, T0 + 20_000)).toBe(false)
    expect(isStalled(T0, T0 + 45_000)).toBe(false)
    expect(isStalled(T0, T0 + 150_000)).toBe(true)
  })
  it('is not called stalled before anything was heard', () => {
    expect(isStalled(null, T0 + 150_000)).toBe(false)
  })
})

describe('data age counts from the last confirmation, not the last change', () => {
  it('a quiet night: stations unchanged for hours, heartbeats confirm them', () => {
    const lastSeen = T0 + 3 * 3600_000
    expect(confirmedAt(inst('open', lastSeen), 'stations')).toBe(lastSeen)
  })
  it('a later change wins over an earlier heartbeat', () => {
    expect(confirmedAt(inst('open', T0 - 1000), 'stations')).toBe(T0)
  })
  it('no confirmation while the stream is down or the relay reports the topic stale', () => {
    expect(confirmedAt(inst('reconnecting', T0 + 60_000), 'stations')).toBe(T0)
    expect(confirmedAt(inst('open', T0 + 60_000, slot(T0, 'stale')), 'stations')).toBe(T0)
  })
  it('no age before any data', () => {
    expect(confirmedAt(inst('open', T0), 'sessions')).toBeNull()
  })
})
