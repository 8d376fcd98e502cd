import { describe, expect, it } from 'vitest'
import jsonpatch from 'fast-json-patch'
import { encodeChange, mergeIsExact } from './encode.ts'
import { applyUpdate } from '../../tests/live-updates.ts'

const station = (id: number, power: number, extra: Record<string, unknown> = {}) => ({ id, name: `P-${id}`, status: 'charging', power_kw: power, energy_kwh: 3.2, session_start: '2026-11-22T06:00:00.000Z', rfid: { id: 4, tag: '04AB' }, ...extra })
const stations = (n: number, power = (i: number) => i) => Object.fromEntries(Array.from({ length: n }, (_, i) => [String(i + 1), station(i + 1, power(i + 1))]))

/** What a client holds after applying the change's events to `prev`, in order. */
function applied(prev: unknown, changes: NonNullable<ReturnType<typeof encodeChange>>): unknown {
  let state = prev
  for (const c of changes) state = c.type === 'snapshot' ? JSON.parse(c.json) : applyUpdate(state, c.type, { ops: c.type === 'patch' ? c.ops : undefined, merge: c.type === 'merge' ? c.merge : undefined })
  return state
}

/** Encode and check that the events rebuild `next` exactly; returns the single event (or the list). */
function encodeAll(prev: unknown, next: unknown) {
  const changes = encodeChange(prev, next, JSON.stringify(next))
  if (changes) expect(applied(prev, changes)).toEqual(next)
  return changes
}
function encode(prev: unknown, next: unknown) {
  const changes = encodeAll(prev, next)
  if (!changes) return changes
  expect(changes).toHaveLength(1)
  return changes[0]
}

describe('encodeChange', () => {
  it('sends a merge patch when many leaves move (metrics-like), smaller than the RFC 6902 ops', () => {
    const prev = { timestamp: 'a', grid: { power_kw: 1, import_kw: 1, export_kw: 0 }, pv: { power_kw: 3, peak_kw: 60 }, stations: { 1: 7.1, 2: 0, 3: 0 } }
    const next = { timestamp: 'b', grid: { power_kw: 2, import_kw: 2, export_kw: 0 }, pv: { power_kw: 4, peak_kw: 60 }, stations: { 1: 7.3, 2: 0, 3: 0 } }
    const change = encode(prev, next)!
    expect(change.type).toBe('merge')
    expect(JSON.parse(change.json)).toEqual({ timestamp: 'b', grid: { power_kw: 2, import_kw: 2 }, pv: { power_kw: 4 }, stations: { 1: 7.3 } })
    expect(change.json.length).toBeLessThan(JSON.stringify(jsonpatch.compare(prev, next)).length)
  })

  it('keys a collection change by record id and stays far below the snapshot', () => {
    const prev = stations(50)
    const next = { ...prev, 7: { ...prev[7], power_kw: 9.9, energy_kwh: 4 } }
    const change = encode(prev, next)!
    expect(change.type).toBe('merge')
    expect(JSON.parse(change.json)).toEqual({ 7: { power_kw: 9.9, energy_kwh: 4 } })
    expect(change.json.length / JSON.stringify(next).length).toBeLessThan(0.01)
  })

  it('uses RFC 6902 ops when a value becomes null (a merge patch would delete the key)', () => {
    const prev = stations(3)
    const next = { ...prev, 2: { ...prev[2], status: 'noCar', session_start: null, rfid: null } }
    const change = encode(prev, next)!
    expect(change.type).toBe('patch')
    expect((next[2] as Record<string, unknown>).rfid).toBeNull()
  })

  it('uses RFC 6902 ops when a new record has null members (merging it in would drop them)', () => {
    const prev = stations(3)
    const next = { ...prev, 4: station(4, 0, { session_start: null }) }
    expect(encode(prev, next)!.type).toBe('patch')
  })

  it('splits a change: a merge patch for the records it can express, then ops for one with a null', () => {
    const prev = stations(30)
    const next: Record<string, unknown> = {}
    for (const [id, st] of Object.entries(prev)) next[id] = { ...st, power_kw: st.power_kw + 0.5, energy_kwh: st.energy_kwh + 0.01 }
    next[31] = station(31, 0, { session_start: null, rfid: null })
    const changes = encodeAll(prev, next)!
    expect(changes.map((c) => c.type)).toEqual(['merge', 'patch'])
    expect(Object.keys(JSON.parse(changes[0].json))).toHaveLength(30)
    expect(JSON.parse(changes[1].json)).toEqual([{ op: 'add', path: '/31', value: next[31] }])
    const single = JSON.stringify(jsonpatch.compare(prev, next)).length
    expect(changes[0].json.length + changes[1].json.length).toBeLessThan(single / 2)
  })

  it('removes a record with a merge null, and replaces arrays whole', () => {
    const prev = { ...stations(3), list: [1, 2, 3] }
    const next: Record<string, unknown> = { ...prev, list: [1, 2] }
    delete next[3]
    const change = encode(prev, next)!
    expect(change.type).toBe('merge')
    expect(JSON.parse(change.json)).toEqual({ 3: null, list: [1, 2] })
  })

  it('sends a snapshot when there is no previous state or it is smaller than any patch', () => {
    expect(encode(undefined, { a: 1 })!.type).toBe('snapshot')
    expect(encode(null, { a: 1 })!.type).toBe('snapshot')
    expect(encode({ a: 1, b: 2 }, { c: 3 })!.type).toBe('snapshot')
    expect(encode({ a: 1 }, null)!.type).toBe('snapshot')
  })

  it('sends nothing when nothing changed', () => {
    expect(encode(stations(5), stations(5))).toBeNull()
    expect(encodeChange(null, null, 'null')).toBeNull()
  })
})

describe('mergeIsExact', () => {
  it('accepts deletions and rejects nulls the target keeps', () => {
    expect(mergeIsExact({ a: null }, { b: 1 })).toBe(true)
    expect(mergeIsExact({ a: null }, { a: null })).toBe(false)
    expect(mergeIsExact({ a: { b: null } }, { a: { b: null } })).toBe(false)
    expect(mergeIsExact({ a: [null] }, { a: [null] })).toBe(true)
  })
})
