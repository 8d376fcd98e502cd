import { describe, expect, it } from 'vitest'
import {
  accessProfileKey, combineLevels, mayReadRates, mayWriteRfid, mayWriteStation, normalizeLevel, objectLevel, resolveAccess, stationLevel,
  type Access, type PermissionEntry,
} from './permissions.ts'

const entry = (object_type: PermissionEntry['object_type'], object_id: number, level: PermissionEntry['level'], extra: Partial<PermissionEntry> = {}): PermissionEntry =>
  ({ object_type, object_id, level, cost: false, overview: false, ...extra })

// building 1 → apartment 2 → garage 3
const tree = new Map<number, number | null>([[1, null], [2, 1], [3, 2]])

describe('combineLevels (SPEC §5)', () => {
  it('prefers read_and_write, then read, then none, else inherit', () => {
    expect(combineLevels(['read', 'read_and_write', 'none'])).toBe('read_and_write')
    expect(combineLevels(['none', 'read', 'inherit'])).toBe('read')
    expect(combineLevels(['inherit', 'none'])).toBe('none')
    expect(combineLevels(['inherit'])).toBe('inherit')
    expect(combineLevels([])).toBe('inherit')
  })
})

describe('normalizeLevel (SPEC §6)', () => {
  it('reduces short forms and turns anything unknown into none', () => {
    expect(normalizeLevel('r')).toBe('read')
    expect(normalizeLevel('rw')).toBe('read_and_write')
    expect(normalizeLevel('admin')).toBe('none')
    expect(normalizeLevel(undefined)).toBe('none')
  })
})

describe('inheritance down the object hierarchy', () => {
  it('takes the nearest non-inherit level going up', () => {
    const entries = [entry('object', 1, 'read'), entry('object', 2, 'inherit')]
    expect(objectLevel(3, tree, entries)).toBe('read')
    expect(objectLevel(3, tree, [...entries, entry('object', 3, 'none')])).toBe('none')
  })
  it('is none when nothing up the tree grants anything', () => {
    expect(objectLevel(3, tree, [])).toBe('none')
  })
  it('a station entry beats its object; inherit on the station falls back to the object', () => {
    const station = { id: 7, object_id: 3 }
    expect(stationLevel(station, tree, [entry('object', 1, 'read'), entry('charging_station', 7, 'none')])).toBe('none')
    expect(stationLevel(station, tree, [entry('object', 2, 'read_and_write'), entry('charging_station', 7, 'inherit')])).toBe('read_and_write')
    expect(stationLevel(station, tree, [entry('charging_station', 0, 'read')])).toBe('read')
  })
})

describe('resolveAccess', () => {
  const stations = [{ id: 7, object_id: 3 }, { id: 8, object_id: 3 }, { id: 9, object_id: 1 }]
  const rfids = [{ id: 1, user_id: 5 }, { id: 2, user_id: 6 }]
  it('gives a user only the stations and RFIDs granted, plus their own RFID', () => {
    const a = resolveAccess({ user_id: 5, installation_id: 1, role: 'installation_user', tree, stations, rfids,
      entries: [entry('charging_station', 7, 'read'), entry('charging_station', 8, 'read')] })
    expect(a.stations).toEqual([7, 8])
    expect(a.rfids).toEqual([1])
    expect(a.cost).toBe(false)
    expect(a.overview).toBe(false)
  })
  it('gives admins everything, and one profile key for all admins', () => {
    const a = resolveAccess({ user_id: 2, installation_id: 1, role: 'installation_admin', tree, stations, rfids, entries: [] })
    const b = resolveAccess({ user_id: 3, installation_id: 1, role: 'superuser', tree, stations, rfids, entries: [] })
    expect(a.stations).toBe('all')
    expect(accessProfileKey(a)).toBe(accessProfileKey(b))
  })
  it('turns on cost and overview only through a granting entry', () => {
    const a = resolveAccess({ user_id: 5, installation_id: 1, role: 'installation_user', tree, stations, rfids,
      entries: [entry('object', 1, 'read', { overview: true }), entry('rfid', 2, 'none', { cost: true })] })
    expect(a.overview).toBe(true)
    expect(a.cost).toBe(false)
    expect(a.stations).toEqual([7, 8, 9])
  })
})

describe('write rights (what a form may offer)', () => {
  const stations = [{ id: 7, object_id: 3 }, { id: 8, object_id: 3 }, { id: 9, object_id: 1 }]
  const rfids = [{ id: 1, user_id: 5 }, { id: 2, user_id: 6 }, { id: 3, user_id: null }]
  it('a reader may read but not change a station or card; read_and_write and the own card may be changed', () => {
    const a = resolveAccess({ user_id: 5, installation_id: 1, role: 'installation_user', tree, stations, rfids,
      entries: [entry('charging_station', 7, 'read'), entry('object', 3, 'read_and_write'), entry('rfid', 2, 'read')] })
    expect(a.stations).toEqual([7, 8])
    expect(mayWriteStation(a, 7)).toBe(false)
    expect(mayWriteStation(a, 8)).toBe(true)
    expect(mayWriteStation(a, 9)).toBe(false)
    expect(a.rfids).toEqual([1, 2])
    expect(mayWriteRfid(a, 1)).toBe(true)
    expect(mayWriteRfid(a, 2)).toBe(false)
  })
  it('admins change every station and card', () => {
    const a = resolveAccess({ user_id: 2, installation_id: 1, role: 'installation_admin', tree, stations, rfids, entries: [] })
    expect(mayWriteStation(a, 9)).toBe(true)
    expect(mayWriteRfid(a, 2)).toBe(true)
  })
  it('an answer without write lists (an older API) grants no writes to a user', () => {
    const old: Access = { user_id: 5, installation_id: 1, role: 'installation_user', cost: true, overview: false, stations: [7], rfids: [1] }
    expect(mayWriteStation(old, 7)).toBe(false)
    expect(mayWriteRfid(old, 1)).toBe(false)
  })
  it('rates are read by admins and by users with the cost switch (docs/decisions.md "Energy: rates")', () => {
    const base = { user_id: 5, installation_id: 1, overview: false, stations: [] as number[], rfids: [] as number[] }
    expect(mayReadRates({ ...base, role: 'installation_user', cost: false })).toBe(false)
    expect(mayReadRates({ ...base, role: 'installation_user', cost: true })).toBe(true)
    expect(mayReadRates({ ...base, role: 'installation_admin', cost: false })).toBe(true)
  })
})
