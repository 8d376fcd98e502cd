import { describe, expect, it } from 'vitest'
import { availableKinds, chartPoints, timeWeightedAverage, withBreaks } from './kinds.ts'

describe('chartPoints', () => {
  it('puts buckets on the local wall clock and keeps the repeated autumn hour strictly increasing', () => {
    const p = chartPoints([
      { start: '2025-10-26T01:00:00+02:00', value: 1 },
      { start: '2025-10-26T02:00:00+02:00', value: 2 },
      { start: '2025-10-26T02:00:00+01:00', value: 3 },
      { start: '2025-10-26T03:00:00+01:00', value: 4 },
    ])
    expect(p.map((x) => new Date(x.time * 1000).toISOString().slice(11, 19))).toEqual(['01:00:00', '02:00:00', '02:00:01', '03:00:00'])
    expect(p.map((x) => x.value)).toEqual([1, 2, 3, 4])
  })
})

describe('availableKinds', () => {
  it('offers only charging stations to a user without the overview switch, cost only with it', () => {
    expect(availableKinds({ charging_stations: 'kWh' })).toEqual(['chargingStations'])
    const admin = { consumption: 'kWh', grid_import: 'kWh', grid_export: 'kWh', pv_production: 'kWh', own_consumption: 'kWh', battery_charge: 'kWh', battery_discharge: 'kWh', charging_stations: 'kWh', heat: 'kWh', cold_water: 'm3', hot_water: 'm3', cost: 'CHF' }
    expect(availableKinds(admin)).toContain('cost')
    const { cost: _c, ...noCost } = admin
    expect(availableKinds(noCost)).not.toContain('cost')
  })
})

describe('timeWeightedAverage', () => {
  it('weighs each bucket by its length: a 31-day month counts more than February, the 25-hour DST day more than a normal one', () => {
    const months = [
      { start: '2025-02-01T00:00:00+01:00', value: 10 },
      { start: '2025-03-01T00:00:00+01:00', value: 40 },
    ]
    // (28 days × 10 + 31 days × 40) / 59 days, not (10 + 40) / 2.
    expect(timeWeightedAverage(months, '2025-04-01T00:00:00+02:00')).toBeCloseTo((28 * 24 * 10 + (31 * 24 - 1) * 40) / (28 * 24 + 31 * 24 - 1), 9)
    const days = [
      { start: '2025-10-26T00:00:00+02:00', value: 5 },
      { start: '2025-10-27T00:00:00+01:00', value: 1 },
    ]
    expect(timeWeightedAverage(days, '2025-10-28T00:00:00+01:00')).toBeCloseTo((25 * 5 + 24 * 1) / 49, 9)
    expect(timeWeightedAverage([], '2025-10-28T00:00:00+01:00')).toBe(0)
  })
})

describe('withBreaks', () => {
  it('breaks a kW line where hours without readings are missing, and nowhere else', () => {
    const p = chartPoints(['08:00', '09:00', '12:00', '13:00'].map((h) => ({ start: `2026-03-04T${h}:00+01:00`, value: 1 })))
    const out = withBreaks(p, 'hour')
    expect(out.map((x) => ('value' in x ? 'point' : 'break'))).toEqual(['point', 'point', 'break', 'point', 'point'])
    expect(out[2].time).toBe(p[1].time + 3600)
    // Days across the spring change (23 h) and months of 28 to 31 days are no gap.
    const days = chartPoints([{ start: '2026-03-28T00:00:00+01:00', value: 1 }, { start: '2026-03-29T00:00:00+01:00', value: 1 }, { start: '2026-03-30T00:00:00+02:00', value: 1 }])
    expect(withBreaks(days, 'day')).toHaveLength(3)
  })
})
