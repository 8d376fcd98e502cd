import { beforeEach, describe, expect, it } from 'vitest'
import { applyEvent, resetLive, setConnection } from './store.ts'
import { readLive, watchLive } from './use-live.ts'
import type { LiveView } from './use-live.ts'
import { tileStatus } from '../features/power/live-status.ts'
import { T0, testMetrics, testStation } from './test-data.ts'

// valtio tells subscribers after the current task's changes, in a microtask.
const settled = () => new Promise((r) => setTimeout(r, 0))

const metrics = (gridKw: number) =>
  testMetrics(T0, gridKw, { water: null, charging_stations: { power_kw: 7.4, stations: { '1': 7.4 } } })
const station = (id: number) => testStation(id, { status: 'charging', power_kw: 7.4, energy_kwh: 1 })

/** The five snapshots a stream sends as it opens (ARCHITECTURE §5). */
function openStream(id: number): void {
  setConnection(id, 'open')
  applyEvent(id, 'snapshot', { topic: 'metrics', seq: 1, data: metrics(1) }, 'e.1', T0)
  applyEvent(id, 'snapshot', { topic: 'stations', seq: 2, data: { '1': station(1), '2': station(2) } }, 'e.2', T0)
  applyEvent(id, 'snapshot', { topic: 'sessions', seq: 3, data: {} }, 'e.3', T0)
  applyEvent(id, 'snapshot', { topic: 'info', seq: 4, data: { online: true, offline_since: null, alerts: [] } }, 'e.4', T0)
  applyEvent(id, 'snapshot', { topic: 'energy_return', seq: 5, data: null }, 'e.5', T0)
}

/** Count the calls a watcher of `select` gets, as a tile using that selector would re-render. */
function count<T>(id: number, select: (inst: LiveView | undefined) => T) {
  const calls: T[] = []
  const stop = watchLive(id, select, (v) => calls.push(v))
  return { calls, stop }
}

describe('watchLive (the tiles of Power)', () => {
  beforeEach(() => resetLive())

  it('tells a tile once for the burst of snapshots a stream opens with', async () => {
    const metricsTile = count(1, (inst) => inst?.topics.metrics.data)
    const stationsTile = count(1, (inst) => inst?.topics.stations.data)
    openStream(1)
    await settled()
    expect(metricsTile.calls).toHaveLength(1)
    expect(stationsTile.calls).toHaveLength(1)
    expect(Object.keys(stationsTile.calls[0] ?? {})).toEqual(['1', '2'])
  })

  it('a metrics patch reaches the metrics tiles only, not the stations list or the notices', async () => {
    openStream(1)
    await settled()
    const stationsBefore = readLive(1, (inst) => inst?.topics.stations.data)
    const metricsTile = count(1, (inst) => inst?.topics.metrics.data)
    const stationsTile = count(1, (inst) => inst?.topics.stations.data)
    const notices = count(1, (inst) => inst?.topics.info.data)
    const stationsStatus = count(1, (inst) => (inst ? tileStatus(inst, 'stations') : 'live'))

    applyEvent(1, 'patch', { topic: 'metrics', seq: 6, ops: [{ op: 'replace', path: '/grid/power_kw', value: 4 }] }, 'e.6', T0 + 5000)
    await settled()
    expect(metricsTile.calls.map((m) => m?.grid?.power_kw)).toEqual([4])
    expect(stationsTile.calls).toEqual([])
    expect(notices.calls).toEqual([])
    expect(stationsStatus.calls).toEqual([])
    // The list's data is the very same object: a component holding it has nothing to redo.
    expect(readLive(1, (inst) => inst?.topics.stations.data)).toBe(stationsBefore)

    applyEvent(1, 'patch', { topic: 'stations', seq: 7, ops: [{ op: 'replace', path: '/1/power_kw', value: 3 }] }, 'e.7', T0 + 6000)
    await settled()
    expect(stationsTile.calls).toHaveLength(1)
    expect(metricsTile.calls).toHaveLength(1)
  })

  it('a status selector is told when the status changes, not on every event', async () => {
    openStream(1)
    await settled()
    const status = count(1, (inst) => (inst ? tileStatus(inst, 'metrics') : 'live'))
    applyEvent(1, 'patch', { topic: 'metrics', seq: 6, ops: [{ op: 'replace', path: '/grid/power_kw', value: 4 }] }, 'e.6', T0 + 5000)
    await settled()
    expect(status.calls).toEqual([])
    setConnection(1, 'reconnecting')
    await settled()
    setConnection(1, 'open')
    await settled()
    applyEvent(1, 'status', { topic: 'metrics', state: 'down', since: '2026-03-02T10:01:00Z' }, 'e.8', T0 + 7000)
    await settled()
    expect(status.calls).toEqual(['stale', 'live', 'offline'])
  })

  it('follows an installation dropped and loaded again, and stops when told', async () => {
    openStream(1)
    await settled()
    const metricsTile = count(1, (inst) => inst?.topics.metrics.loaded ?? false)
    resetLive()
    await settled()
    openStream(1)
    await settled()
    expect(metricsTile.calls).toEqual([false, true])
    metricsTile.stop()
    resetLive()
    await settled()
    expect(metricsTile.calls).toEqual([false, true])
  })
})
