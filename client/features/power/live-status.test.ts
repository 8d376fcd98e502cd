import { describe, expect, it } from 'vitest'
import { tileStatus } from './live-status.ts'

const T0 = 1_800_000_000_000

function view(over: { connection?: 'open' | 'reconnecting'; state?: 'live' | 'stale' | 'down'; online?: boolean | null; loaded?: boolean; lastSeen?: number }) {
  const slot = { state: over.state ?? 'live', loaded: over.loaded ?? true, updatedAt: T0 }
  const live = { state: 'live' as const, loaded: true }
  return {
    connection: over.connection ?? 'open',
    lastSeen: over.lastSeen ?? null,
    topics: {
      metrics: slot,
      stations: live,
      sessions: live,
      energy_return: live,
      info: { ...live, data: over.online === null || over.online === undefined ? null : { online: over.online } },
    },
  } as Parameters<typeof tileStatus>[0]
}

describe('tileStatus', () => {
  it('is live on an open stream with live data', () => expect(tileStatus(view({}), 'metrics')).toBe('live'))
  it('follows the relay status', () => {
    expect(tileStatus(view({ state: 'stale' }), 'metrics')).toBe('stale')
    expect(tileStatus(view({ state: 'down' }), 'metrics')).toBe('offline')
  })
  it('is offline when the facility is', () => expect(tileStatus(view({ online: false }), 'metrics')).toBe('offline'))
  it('is stale while the stream reconnects', () => {
    expect(tileStatus(view({ connection: 'reconnecting' }), 'metrics')).toBe('stale')
    expect(tileStatus(view({ connection: 'reconnecting', loaded: false }), 'metrics')).toBe('live')
  })
  it('follows the data\'s age: an open stream silent for 150 s (frozen figures) is stale, a heartbeat keeps it live', () => {
    expect(tileStatus(view({ lastSeen: T0 }), 'metrics', T0 + 20_000)).toBe('live')
    expect(tileStatus(view({ lastSeen: T0 }), 'metrics', T0 + 150_000)).toBe('stale')
    expect(tileStatus(view({ lastSeen: T0 + 140_000 }), 'metrics', T0 + 150_000)).toBe('live')
  })
})
