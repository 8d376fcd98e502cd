import { describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import type { Access } from '../../shared/rules/permissions.ts'
import { accessKey, accessQuery, rightsOf, roleAccess } from './rights.ts'

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

describe('accessQuery', () => {
  const deferred = () => {
    let resolve!: (a: Access) => void
    const promise = new Promise<Access>((res) => (resolve = res))
    return { promise, resolve }
  }
  const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } })

  it('asks the API once per installation, whatever the number of callers, and not again later', async () => {
    const calls: number[] = []
    const qc = client()
    const load = async (id: number) => (calls.push(id), { ...resident, installation_id: id })
    await Promise.all([qc.fetchQuery(accessQuery(1, load)), qc.fetchQuery(accessQuery(1, load)), qc.fetchQuery(accessQuery(2, load))])
    await qc.fetchQuery(accessQuery(1, load))
    expect(calls).toEqual([1, 2])
    expect(qc.getQueryData<Access>(accessKey(2))?.installation_id).toBe(2)
  })

  it('keeps the answer while no screen reads it (until logout)', async () => {
    vi.useFakeTimers()
    try {
      const qc = client()
      await qc.fetchQuery(accessQuery(1, async () => resident))
      await vi.advanceTimersByTimeAsync(60 * 60_000)
      expect(qc.getQueryData(accessKey(1))).toEqual(resident)
    } finally {
      vi.useRealTimers()
    }
  })

  it("drops an answer that arrives after logout (it was the previous user's)", async () => {
    const pending = deferred()
    const qc = client()
    const p = qc.fetchQuery(accessQuery(1, () => pending.promise)).catch(() => undefined)
    qc.clear()
    pending.resolve({ ...resident, role: 'installation_admin' })
    await p
    expect(qc.getQueryData(accessKey(1))).toBeUndefined()
  })
})
