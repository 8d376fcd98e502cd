import { describe, expect, it } from 'vitest'
import { allocate, type AllocationInput, type StationDemand } from './allocate.ts'

const station = (id: number, over: Partial<StationDemand> = {}): StationDemand => ({
  station_id: id, circuit_id: 'grid', phases: 3, min_a: 6, max_a: 16, mode: 'instant', charging: true, ...over,
})
const garage = (n: number, over: Partial<AllocationInput> = {}): AllocationInput => ({
  now: '2026-11-27T08:00:00.000Z',
  circuits: [{ id: 'grid', parent_id: null, limit_a: 63 }],
  stations: Array.from({ length: n }, (_, i) => station(i + 1)),
  grid_import_kw: 0,
  stations_power_kw: {},
  pv_surplus_kw: 0,
  ...over,
})

describe('allocate: a garage behind its connection', () => {
  it('six 11 kW stations behind 63 A share it equally (10.5 A each), the connection shared by 6', () => {
    const { limits } = allocate(garage(6))
    expect(limits.map((l) => l.limit_a)).toEqual([10.5, 10.5, 10.5, 10.5, 10.5, 10.5])
    expect(limits[0]).toMatchObject({ reason: 'grid_limit_shared', circuit_id: 'grid', shared_by: 6 })
  })

  it("the building's own load counts: 20 kW of house load leaves 34 A for the cars", () => {
    // 20 kW over 3 × 230 V = 28.99 A per phase; 63 − 28.99 = 34.01 A; 6 cars: 5.67 A < 6 A, so 5 charge.
    const { limits } = allocate(garage(6, { grid_import_kw: 20 }))
    expect(limits.filter((l) => l.limit_a > 0)).toHaveLength(5)
    expect(limits.filter((l) => l.limit_a === 0)[0].reason).toBe('waiting_for_turn')
  })

  it('a car not connected gets 0 A, no_car', () => {
    const input = garage(2)
    input.stations[1].charging = false
    const { limits } = allocate(input)
    expect(limits).toEqual([
      { station_id: 1, limit_a: 16, reason: 'ok' },
      { station_id: 2, limit_a: 0, reason: 'no_car' },
    ])
  })
})
