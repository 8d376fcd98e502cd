import { describe, expect, it } from 'vitest'
import type { Access } from '../../shared/rules/permissions.ts'
import { createAccessCache, rightsOf, roleAccess } from './rights.ts'

/** The demo resident: read on stations 1 and 2, owner of RFID 1 (server/db/demo-seed.ts). */
const resident: Access = {
  user_id: 3, installation_id: 1, role: 'installation_user', cost: false, overview: false,
  stations: [1, 2], rfids: [1], writable_stations: [], writable_rfids: [1],
}

describe('rightsOf', () => {
  it('a resident opens no management screen and may only read stations they were given read on', () => {
    const r = rightsOf(resident)
    expect(r.admin).toBe(false)
    expect(r.mayOpen('users')).toBe(false)
    expect(r.mayOpen('reports')).toBe(false)
    expect(r.mayOpen('rates')).toBe(false)
    expect(r.readStation(1)).toBe(true)
    expect(r.writeStation(1)).toBe(false)
    expect(r.readStation(3)).toBe(false)
    expect(r.writeRfid(1)).toBe(true)
    expect(r.manageRfids || r.manageTimers || r.manageRates || r.managePricing || r.unlockStations).toBe(false)
  })

  it('the cost switch opens Rates for reading only', () => {
    const r = rightsOf({ ...resident, cost: true })
    expect(r.mayOpen('rates')).toBe(true)
    expect(r.manageRates).toBe(false)
    expect(r.mayOpen('users')).toBe(false)
  })

  it('read_and_write on a station allows its form but not unlocking', () => {
    const r = rightsOf({ ...resident, writable_stations: [2] })
    expect(r.writeStation(2)).toBe(true)
    expect(r.writeStation(1)).toBe(false)
    expect(r.unlockStations).toBe(false)
  })

  it('admins (from the role alone, without asking the API) have every right', () => {
    for (const role of ['installation_admin', 'superuser'] as const) {
      const access = roleAccess(2, 1, role)
      expect(access).not.toBeNull()
      const r = rightsOf(access!)
      expect(['users', 'rates', 'reports'].every((s) => r.mayOpen(s as 'users'))).toBe(true)
      expect(r.writeStation(99) && r.writeRfid(99) && r.manageRates && r.managePricing && r.manageTimers && r.unlockStations).toBe(true)
    }
    expect(roleAccess(3, 1, 'installation_user')).toBeNull()
  })
})

describe('createAccessCache', () => {
  const deferred = () => {
    let resolve!: (a: Access) => void
    let reject!: (e: unknown) => void
    const promise = new Promise<Access>((res, rej) => ((resolve = res), (reject = rej)))
    return { promise, resolve, reject }
  }

  it('asks the API once per installation, whatever the number of callers', async () => {
    const calls: number[] = []
    const cache = createAccessCache(async (id) => (calls.push(id), { ...resident, installation_id: id }))
    await Promise.all([cache.ensure(1), cache.ensure(1), cache.ensure(2)])
    await cache.ensure(1)
    expect(calls).toEqual([1, 2])
    expect(cache.state.entries['1'].access?.installation_id).toBe(1)
    expect(cache.state.entries['2'].access?.installation_id).toBe(2)
  })

  it('keeps a failure for display until retried', async () => {
    let fail = true
    const cache = createAccessCache(async () => {
      if (fail) throw new Error('offline')
      return resident
    })
    await cache.ensure(1)
    expect(cache.state.entries['1']).toMatchObject({ access: null, error: new Error('offline') })
    await cache.ensure(1)
    expect(cache.state.entries['1'].access).toBeNull()
    fail = false
    await cache.retry(1)
    expect(cache.state.entries['1'].access).toEqual(resident)
  })

  it('drops an answer that arrives after logout (it was the previous user\'s)', async () => {
    const pending = deferred()
    const cache = createAccessCache(() => pending.promise)
    const p = cache.ensure(1)
    cache.clear()
    pending.resolve({ ...resident, role: 'installation_admin' })
    await p
    expect(cache.state.entries['1']).toBeUndefined()
  })
})
