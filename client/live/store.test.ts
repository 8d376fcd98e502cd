import { beforeEach, describe, expect, it } from 'vitest'
import { applyEvent, appendSample, ensureInstallation, HISTORY_MS, live, resetLive } from './store.ts'
import type { Station } from '../../shared/schemas/station.ts'
import { T0, testMetrics, testStation } from './test-data.ts'

const metrics = (at: number, gridKw: number, pvKw = 3) => testMetrics(at, gridKw, { pv: { power_kw: pvKw, peak_kw: 10 } })
const station = (id: number, status: Station['status']) => testStation(id, { status })

const slot = (id: number) => live.installations[String(id)]

describe('applyEvent', () => {
  beforeEach(() => resetLive())

  it('rebuilds topic data from a snapshot and later patches', () => {
    expect(applyEvent(7, 'snapshot', { topic: 'stations', seq: 1, data: { '1': station(1, 'noCar'), '2': station(2, 'off') } }, 'e1.1', T0)).toBe('applied')
    expect(applyEvent(7, 'patch', JSON.stringify({ topic: 'stations', seq: 2, ops: [{ op: 'replace', path: '/1/status', value: 'charging' }, { op: 'replace', path: '/1/power_kw', value: 7.2 }] }), 'e1.2', T0 + 5000)).toBe('applied')
    expect(applyEvent(7, 'patch', { topic: 'stations', seq: 3, ops: [{ op: 'add', path: '/3', value: station(3, 'failure') }, { op: 'remove', path: '/2' }] }, 'e1.3', T0 + 10_000)).toBe('applied')

    const s = slot(7).topics.stations
    expect(Object.keys(s.data ?? {})).toEqual(['1', '3'])
    expect(s.data?.['1'].status).toBe('charging')
    expect(s.data?.['1'].power_kw).toBe(7.2)
    expect(s.data?.['3'].status).toBe('failure')
    expect(s.seq).toBe(3)
    expect(s.updatedAt).toBe(T0 + 10_000)
    expect(slot(7).lastEventId).toBe('e1.3')
  })

  it('applies RFC 7396 merge patches: changed fields, removed records, untouched neighbours', () => {
    applyEvent(8, 'snapshot', { topic: 'stations', seq: 1, data: { '1': station(1, 'charging'), '2': station(2, 'off'), '3': station(3, 'noCar') } }, 'e1.1', T0)
    expect(applyEvent(8, 'merge', JSON.stringify({ topic: 'stations', seq: 2, merge: { '1': { power_kw: 10.5, energy_kwh: 3.1 }, '3': null } }), 'e1.2', T0 + 5000)).toBe('applied')
    const s = slot(8).topics.stations
    expect(Object.keys(s.data ?? {})).toEqual(['1', '2'])
    expect(s.data?.['1'].power_kw).toBe(10.5)
    expect(s.data?.['1'].energy_kwh).toBe(3.1)
    expect(s.data?.['1'].rfid).toBeNull()
    expect(s.data?.['2'].status).toBe('off')
    expect(s.seq).toBe(2)
    expect(s.updatedAt).toBe(T0 + 5000)
    // Metrics merges feed the chart history like patches do.
    applyEvent(8, 'snapshot', { topic: 'metrics', seq: 3, data: metrics(T0, 1) }, 'e1.3', T0)
    applyEvent(8, 'merge', { topic: 'metrics', seq: 4, merge: { timestamp: new Date(T0 + 5000).toISOString(), grid: { power_kw: 4 } } }, 'e1.4', T0 + 5000)
    expect(slot(8).topics.metrics.data?.grid?.power_kw).toBe(4)
    expect(slot(8).history.map((h) => h.grid)).toEqual([1, 4])
  })

  it('asks for a resync when a merge comes before any snapshot or is not an object', () => {
    expect(applyEvent(9, 'merge', { topic: 'info', seq: 1, merge: { online: false } }, 'e.1', T0)).toBe('resync')
    applyEvent(9, 'snapshot', { topic: 'info', seq: 2, data: { online: true, offline_since: null, alerts: [] } }, 'e.2', T0)
    expect(applyEvent(9, 'merge', { topic: 'info', seq: 3, merge: [1] }, 'e.3', T0)).toBe('resync')
    expect(applyEvent(9, 'merge', { topic: 'info', seq: 4, merge: { online: false } }, 'e.4', T0)).toBe('applied')
    expect(slot(9).topics.info.data?.online).toBe(false)
    expect(applyEvent(9, 'merge', { topic: 'info', seq: 4, merge: { online: true } }, 'e.4', T0)).toBe('ignored')
  })

  it('does not mutate the snapshot object it was given', () => {
    const data = { '1': station(1, 'noCar') }
    applyEvent(1, 'snapshot', { topic: 'stations', seq: 1, data }, 'e.1', T0)
    applyEvent(1, 'patch', { topic: 'stations', seq: 2, ops: [{ op: 'replace', path: '/1/status', value: 'charging' }] }, 'e.2', T0)
    expect(data['1'].status).toBe('noCar')
    expect(slot(1).topics.stations.data?.['1'].status).toBe('charging')
  })

  it('ignores replayed events and restarts sequence numbers on a new relay epoch', () => {
    applyEvent(1, 'snapshot', { topic: 'metrics', seq: 10, data: metrics(T0, 1) }, 'a.10', T0)
    expect(applyEvent(1, 'patch', { topic: 'metrics', seq: 9, ops: [{ op: 'replace', path: '/grid/power_kw', value: 5 }] }, 'a.9', T0)).toBe('ignored')
    expect(slot(1).topics.metrics.data?.grid?.power_kw).toBe(1)
    expect(applyEvent(1, 'snapshot', { topic: 'metrics', seq: 1, data: metrics(T0 + 5000, 2) }, 'b.1', T0 + 5000)).toBe('applied')
    expect(slot(1).topics.metrics.data?.grid?.power_kw).toBe(2)
    expect(slot(1).epoch).toBe('b')
  })

  it('asks for a resync when a patch comes before any snapshot or does not apply', () => {
    expect(applyEvent(2, 'patch', { topic: 'info', seq: 1, ops: [{ op: 'replace', path: '/online', value: false }] }, 'e.1', T0)).toBe('resync')
    expect(slot(2).needsResync).toBe(true)
    applyEvent(2, 'snapshot', { topic: 'info', seq: 2, data: { online: true, offline_since: null, alerts: [] } }, 'e.2', T0)
    expect(applyEvent(2, 'patch', { topic: 'info', seq: 3, ops: [{ op: 'replace', path: '/nope/deeper', value: 1 }] }, 'e.3', T0)).toBe('resync')
    expect(slot(2).topics.info.data?.online).toBe(true)
  })

  it('applies status events per topic', () => {
    applyEvent(3, 'status', { topic: 'metrics', state: 'stale', since: '2026-03-02T10:00:00Z' }, 'e.4', T0)
    expect(slot(3).topics.metrics.state).toBe('stale')
    expect(slot(3).topics.metrics.since).toBe('2026-03-02T10:00:00Z')
    expect(slot(3).topics.stations.state).toBe('live')
    applyEvent(3, 'status', { topic: 'metrics', state: 'down', since: '2026-03-02T10:01:00Z' }, 'e.5', T0)
    expect(slot(3).topics.metrics.state).toBe('down')
    applyEvent(3, 'status', { topic: 'metrics', state: 'live', since: '2026-03-02T10:02:00Z' }, 'e.6', T0)
    expect(slot(3).topics.metrics.state).toBe('live')
    expect(applyEvent(3, 'status', { topic: 'metrics', state: 'weird', since: '' }, 'e.7', T0)).toBe('ignored')
    expect(applyEvent(3, 'status', { topic: 'nope', state: 'live', since: '' }, 'e.8', T0)).toBe('ignored')
  })

  it('keeps energy_return null data apart from "not loaded"', () => {
    applyEvent(4, 'snapshot', { topic: 'energy_return', seq: 1, data: null }, 'e.1', T0)
    expect(slot(4).topics.energy_return.loaded).toBe(true)
    expect(slot(4).topics.energy_return.data).toBeNull()
  })

  it('appends a history sample on every metrics change and keeps one hour', () => {
    applyEvent(5, 'snapshot', { topic: 'metrics', seq: 1, data: metrics(T0, 1) }, 'e.1', T0)
    let seq = 1
    // 80 minutes of 5-second patches: grid power and timestamp change.
    for (let i = 1; i <= 960; i++) {
      const at = T0 + i * 5000
      applyEvent(5, 'patch', { topic: 'metrics', seq: ++seq, ops: [
        { op: 'replace', path: '/timestamp', value: new Date(at).toISOString() },
        { op: 'replace', path: '/grid/power_kw', value: i / 100 },
      ] }, `e.${seq}`, at)
    }
    const history = slot(5).history
    const last = history[history.length - 1]
    expect(last.t).toBe(T0 + 960 * 5000)
    expect(last.grid).toBe(9.6)
    expect(last.charging).toBe(7.4)
    expect(history[0].t).toBeGreaterThanOrEqual(last.t - HISTORY_MS)
    expect(history.length).toBe(721)
    for (let i = 1; i < history.length; i++) expect(history[i].t).toBeGreaterThan(history[i - 1].t)
  })

  it('records nulls in the history for a caller without the overview permission', () => {
    const m = { ...metrics(T0, 1), grid: null, pv: null, battery: null, building: null, water: null }
    applyEvent(6, 'snapshot', { topic: 'metrics', seq: 1, data: m }, 'e.1', T0)
    expect(slot(6).history).toEqual([{ t: T0, grid: null, pv: null, battery: null, building: null, charging: 7.4 }])
  })

  it('resetLive keeps only the installation asked for', () => {
    ensureInstallation(1)
    ensureInstallation(2)
    resetLive(2)
    expect(Object.keys(live.installations)).toEqual(['2'])
  })
})

describe('appendSample', () => {
  it('replaces samples at or after the new time', () => {
    const s = (t: number) => ({ t, grid: 1, pv: 1, battery: 1, building: 1, charging: 1 })
    expect(appendSample([s(1), s(2), s(3)], s(2)).map((x) => x.t)).toEqual([1, 2])
  })
})
