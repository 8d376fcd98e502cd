import { describe, expect, it } from 'vitest'
import { confirmedAt } from '../../live/freshness.ts'
import { baseStatus, flowBreakdown, stationCounts, statusAt, totalsDue, TOTALS_REFRESH_MS, type AgeView } from './live-tiles.ts'

// A winter night in Zürich, client time (the server's clock as the browser knows it).
const NIGHT = Date.parse('2026-03-04T01:00:00+01:00')
const MIN = 60_000
const HOUR = 60 * MIN

const slot = (updatedAt: number | null, state: 'live' | 'stale' | 'down' = 'live', data: unknown = {}) => ({ loaded: updatedAt !== null, updatedAt, state, data: updatedAt === null ? null : data })
function view(over: Partial<AgeView> & { stations?: ReturnType<typeof slot>; online?: boolean } = {}): AgeView {
  return {
    connection: over.connection ?? 'open',
    lastSeen: over.lastSeen ?? null,
    topics: {
      metrics: slot(NIGHT),
      stations: over.stations ?? slot(NIGHT),
      sessions: slot(null),
      info: slot(NIGHT, 'live', { online: over.online ?? true }),
      energy_return: slot(null),
    },
  }
}

describe("a tile's data age on a quiet night (stations unchanged for hours)", () => {
  it('counts from the last confirmation while the stream is open and the topic live, not from the last change', () => {
    // The stations last changed at 01:00; at 04:00 the relay's heartbeat 10 s ago confirmed them.
    const now = NIGHT + 3 * HOUR
    const inst = view({ lastSeen: now - 10_000 })
    const at = confirmedAt(inst, 'stations')
    expect(now - at!).toBe(10_000)
    expect(statusAt(baseStatus(inst, 'stations'), at, now)).toBe('live')
  })
  it('counts from the last change once the stream is not open, and says stale', () => {
    const now = NIGHT + 3 * HOUR
    const inst = view({ connection: 'reconnecting', lastSeen: now - 10_000 })
    expect(now - confirmedAt(inst, 'stations')!).toBe(3 * HOUR)
    expect(baseStatus(inst, 'stations')).toBe('stale')
  })
  it('counts from the last change when the relay reports the topic stale (its polls fail), and says so', () => {
    const now = NIGHT + HOUR
    const inst = view({ lastSeen: now - 5_000, stations: slot(NIGHT, 'stale') })
    expect(now - confirmedAt(inst, 'stations')!).toBe(HOUR)
    expect(baseStatus(inst, 'stations')).toBe('stale')
  })
  it('turns stale 45 s after the last confirmation on an open but silent stream', () => {
    const inst = view({ lastSeen: NIGHT })
    const at = confirmedAt(inst, 'stations')
    expect(statusAt(baseStatus(inst, 'stations'), at, NIGHT + 45_000)).toBe('live')
    expect(statusAt(baseStatus(inst, 'stations'), at, NIGHT + 46_000)).toBe('stale')
  })
  it('is offline when the relay reports the topic down or the facility is offline', () => {
    expect(baseStatus(view({ lastSeen: NIGHT, stations: slot(NIGHT, 'down') }), 'stations')).toBe('offline')
    expect(baseStatus(view({ lastSeen: NIGHT, online: false }), 'metrics')).toBe('offline')
    expect(statusAt('offline', NIGHT, NIGHT)).toBe('offline')
  })
  it('has no age before the first data', () => {
    expect(confirmedAt(view({ lastSeen: NIGHT, stations: slot(null) }), 'stations')).toBeNull()
    expect(statusAt('live', null, NIGHT + HOUR)).toBe('live')
  })
})

describe("today's totals follow the live stream", () => {
  const read = { fetchedAt: NIGHT, reading: '2026-03-04T00:00:00.000Z', dayEnd: '2026-03-04T23:00:00.000Z' }
  it('are not read again while no newer reading arrived, however long', () => {
    expect(totalsDue(read, read.reading, NIGHT + 5 * HOUR)).toBe(false)
    expect(totalsDue(read, null, NIGHT + 5 * HOUR)).toBe(false)
  })
  it('are read again after a newer reading, at most once a minute', () => {
    const newer = '2026-03-04T00:00:05.000Z'
    expect(totalsDue(read, newer, NIGHT + 5_000)).toBe(false)
    expect(totalsDue(read, newer, NIGHT + TOTALS_REFRESH_MS)).toBe(true)
  })
  it('are read again at once when their day has ended (midnight in Zürich)', () => {
    expect(totalsDue({ ...read, fetchedAt: Date.parse(read.dayEnd) - 1_000 }, read.reading, Date.parse(read.dayEnd))).toBe(true)
  })
})

describe('the flow meter', () => {
  const m = (grid: number, pv: number, battery: number, building: number, stations: number) => ({
    grid: { power_kw: grid, import_kw: Math.max(0, grid), export_kw: Math.max(0, -grid) },
    pv: { power_kw: pv, peak_kw: 30 },
    battery: { power_kw: battery, soc: 50, capacity_kwh: 20 },
    building: { power_kw: building },
    charging_stations: { power_kw: stations, stations: {} },
  })
  it('splits a sunny noon into sources and uses with their shares', () => {
    // 6 kW PV: 2 kW to the building, 1 kW to the battery, 3 kW fed in.
    const f = flowBreakdown(m(-3, 6, 1, 2, 0))!
    expect(f.total_kw).toBe(6)
    expect(f.sources).toEqual([{ key: 'pv', kw: 6, share: 1 }])
    expect(f.uses).toEqual([{ key: 'building', kw: 2, share: 2 / 6 }, { key: 'battery', kw: 1, share: 1 / 6 }, { key: 'grid', kw: 3, share: 0.5 }])
    expect(f.self_sufficiency).toBe(1)
  })
  it('counts a discharging battery as a source and purchases against self-sufficiency', () => {
    const f = flowBreakdown(m(3, 0, -1, 1, 3))!
    expect(f.sources.map((s) => [s.key, s.kw])).toEqual([['grid', 3], ['battery', 1]])
    expect(f.uses.map((s) => [s.key, s.kw])).toEqual([['building', 1], ['stations', 3]])
    expect(f.self_sufficiency).toBe(0.25)
  })
  it('has no self-sufficiency without consumption, and nothing without the overview permission', () => {
    expect(flowBreakdown(m(0, 0, 0, 0, 0))).toEqual({ sources: [], uses: [], total_kw: 0, self_sufficiency: null })
    expect(flowBreakdown({ grid: null, pv: null, battery: null, building: null, charging_stations: { power_kw: 7, stations: {} } })).toBeNull()
  })
})

describe('the stations tile', () => {
  it('counts stations by display state (SPEC §4) and sums their power', () => {
    const c = stationCounts({
      1: { status: 'charging', power_kw: 7.2 },
      2: { status: 'carPluggedIn', power_kw: 0 },
      3: { status: 'noCar', power_kw: 0 },
      4: { status: 'failure', power_kw: 0 },
      5: { status: 'off', power_kw: 0 },
      6: { status: 'charging', power_kw: 3.61 },
    })
    expect(c).toEqual({ count: 6, power_kw: 10.81, ready: 2, running: 2, error: 1, disabled: 1 })
  })
})
