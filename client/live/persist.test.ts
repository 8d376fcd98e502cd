import { beforeEach, describe, expect, it, vi } from 'vitest'

/** Web Storage over a Map (node has no sessionStorage). */
class MemoryStorage {
  private data = new Map<string, string>()
  get length() {
    return this.data.size
  }
  key(i: number) {
    return [...this.data.keys()][i] ?? null
  }
  getItem(k: string) {
    return this.data.get(k) ?? null
  }
  setItem(k: string, v: string) {
    this.data.set(k, String(v))
  }
  removeItem(k: string) {
    this.data.delete(k)
  }
}
const local = new MemoryStorage()
const storage = new MemoryStorage()
vi.stubGlobal('localStorage', local)
vi.stubGlobal('sessionStorage', storage)

const { applyEvent, ensureInstallation, live, resetLive } = await import('./store.ts')
const { clearSavedLive, restoreLive, saveLive, SAVED_MAX_AGE_MS } = await import('./persist.ts')

const T0 = Date.parse('2026-03-02T10:00:00Z')
const metrics = (at: number, grid: number) => ({
  installation_id: 1,
  timestamp: new Date(at).toISOString(),
  grid: { power_kw: grid, import_kw: grid, export_kw: 0 },
  pv: { power_kw: 3, peak_kw: 10 },
  battery: null,
  building: { power_kw: 2 },
  charging_stations: { power_kw: 7.4, stations: {} },
  e_sourced_today: 12.5,
  consumption_today: 20,
  water: null,
})

function asUser(id: number) {
  local.setItem('cockpit.userId', String(id))
}

describe('saved live state (Power paints before the stream connects)', () => {
  beforeEach(() => {
    resetLive()
    clearSavedLive()
    asUser(5)
  })

  it('comes back after a reload with its figures, its age and the chart history, marked not live', () => {
    applyEvent(1, 'snapshot', { topic: 'metrics', seq: 3, data: metrics(T0 - 10_000, 4) }, '1.3', T0 - 10_000)
    applyEvent(1, 'snapshot', { topic: 'metrics', seq: 4, data: metrics(T0 - 5_000, 4.5) }, '1.4', T0 - 5_000)
    applyEvent(1, 'snapshot', { topic: 'stations', seq: 5, data: { 7: { id: 7, name: 'A' } } }, '1.5', T0 - 5_000)
    saveLive(1, T0)
    resetLive() // the page is reloaded: the store starts empty

    expect(restoreLive(1, T0 + 60_000)).toBe(true)
    const inst = live.installations['1']
    expect(inst.topics.metrics.loaded).toBe(true)
    expect((inst.topics.metrics.data as { grid: { power_kw: number } }).grid.power_kw).toBe(4.5)
    expect(inst.topics.metrics.updatedAt).toBe(T0 - 5_000) // the tiles show the data's real age
    expect(inst.topics.stations.data).toEqual({ 7: { id: 7, name: 'A' } })
    expect(inst.history.map((s) => s.grid)).toEqual([4, 4.5])
    expect(inst.connection).toBe('idle') // not open: the tiles read "stale" until the stream's snapshot
    expect(inst.lastEventId).toBeNull() // the stream starts with fresh snapshots
  })

  it('is replaced by the stream\'s first snapshot', () => {
    applyEvent(1, 'snapshot', { topic: 'metrics', seq: 40, data: metrics(T0, 4) }, '9.40', T0)
    saveLive(1, T0)
    resetLive()
    restoreLive(1, T0 + 1000)
    expect(applyEvent(1, 'snapshot', { topic: 'metrics', seq: 0, data: metrics(T0 + 2000, 6) }, '10.0', T0 + 2000)).toBe('applied')
    expect(live.installations['1'].topics.metrics.updatedAt).toBe(T0 + 2000)
  })

  it('is not shown when older than an hour, to another user, or after logout', () => {
    applyEvent(1, 'snapshot', { topic: 'metrics', seq: 1, data: metrics(T0, 4) }, '1.1', T0)
    saveLive(1, T0)
    resetLive()
    expect(restoreLive(1, T0 + SAVED_MAX_AGE_MS)).toBe(false)
    asUser(6)
    expect(restoreLive(1, T0 + 1000)).toBe(false)
    asUser(5)
    clearSavedLive()
    expect(restoreLive(1, T0 + 1000)).toBe(false)
    expect(ensureInstallation(1).topics.metrics.loaded).toBe(false)
  })

  it('does not overwrite live data already in the store', () => {
    applyEvent(1, 'snapshot', { topic: 'metrics', seq: 1, data: metrics(T0, 4) }, '1.1', T0)
    saveLive(1, T0)
    applyEvent(1, 'snapshot', { topic: 'metrics', seq: 2, data: metrics(T0 + 5000, 9) }, '1.2', T0 + 5000)
    expect(restoreLive(1, T0 + 6000)).toBe(false)
    expect((live.installations['1'].topics.metrics.data as { grid: { power_kw: number } }).grid.power_kw).toBe(9)
  })
})
