import { describe, expect, it } from 'vitest'
import { BATTERY_RESERVE_SOC, peakShaving } from './peak.ts'

// A 63 A connection is 43.47 kW at 3 × 230 V; the peak is 30 kW; the battery gives up to 10 kW.
const CONNECTION_KW = (63 * 3 * 230) / 1000
const base = { peak_kw: 30, grid_kw: 25, battery_kw: 0, battery_soc: 60, battery_max_kw: 10 }

describe('peak shaving with the battery', () => {
  it('does nothing under the peak, and lets the cars use the peak plus the battery', () => {
    expect(peakShaving(base, CONNECTION_KW)).toEqual({ import_without_battery_kw: 25, available_kw: 10, discharge_kw: 0, cars_limit_kw: 40, acting: false })
  })

  it('tells the battery to discharge what goes above the peak, counting what it already discharges', () => {
    // Grid 30 kW while the battery gives 6 kW: 36 kW without it, 6 kW above the peak.
    expect(peakShaving({ ...base, grid_kw: 30, battery_kw: -6 }, CONNECTION_KW)).toMatchObject({ import_without_battery_kw: 36, discharge_kw: 6, acting: true })
    // Charging from the grid counts too: 33 kW import of which 4 kW into the battery.
    expect(peakShaving({ ...base, grid_kw: 33, battery_kw: 4 }, CONNECTION_KW)).toMatchObject({ import_without_battery_kw: 29, discharge_kw: 0, acting: false })
  })

  it('discharges at most the battery\'s power; beyond it the cars are held (their share is the peak plus that power)', () => {
    expect(peakShaving({ ...base, grid_kw: 55 }, CONNECTION_KW)).toMatchObject({ discharge_kw: 10, cars_limit_kw: 40, acting: true })
  })

  it('an empty battery (at its reserve) or none gives nothing: the cars are held to the peak', () => {
    expect(peakShaving({ ...base, grid_kw: 45, battery_soc: BATTERY_RESERVE_SOC }, CONNECTION_KW)).toMatchObject({ available_kw: 0, discharge_kw: 0, cars_limit_kw: 30, acting: true })
    expect(peakShaving({ ...base, grid_kw: 45, battery_kw: null, battery_soc: null, battery_max_kw: null }, CONNECTION_KW)).toMatchObject({ import_without_battery_kw: 45, available_kw: 0, cars_limit_kw: 30 })
  })

  it('never gives the cars more than the connection, and without a grid reading commands nothing', () => {
    expect(peakShaving({ ...base, peak_kw: 40 }, CONNECTION_KW).cars_limit_kw).toBeCloseTo(CONNECTION_KW, 6)
    expect(peakShaving({ ...base, grid_kw: null }, CONNECTION_KW)).toMatchObject({ import_without_battery_kw: null, discharge_kw: 0, acting: false })
  })
})
