import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { asPercent, bucketSolarKwh, percentChange, pointsChange, pricePerKwh, remainingSeconds, selfConsumption, selfSufficiency, solarShare, type SessionBucket } from './energy-insights.ts'

const bucket = (b: Partial<SessionBucket>): SessionBucket => ({ station: 0, stations: 0, pv: 0, gridIn: 0, gridOut: 0, batteryIn: 0, batteryOut: 0, ...b })

describe('solar share of a charging session', () => {
  it('is 0 without PV: everything the car took came from the grid', () => {
    expect(solarShare([bucket({ station: 2, stations: 2, gridIn: 2.5 })])).toBe(0)
  })

  it('is null when nothing was measured at the station (no share to give)', () => {
    expect(solarShare([])).toBeNull()
    expect(solarShare([bucket({ pv: 3, gridOut: 3 })])).toBeNull()
  })

  it('gives the car the PV left after the building: min(PV surplus, charging)', () => {
    // PV 3 kWh, building 1 kWh, car 2.5 kWh: surplus 2 → 2 of 2.5 solar, 0.5 from the grid.
    const b = bucket({ station: 2.5, stations: 2.5, pv: 3, gridIn: 0.5 })
    expect(bucketSolarKwh(b)).toBeCloseTo(2)
    expect(solarShare([b])).toBeCloseTo(0.8)
  })

  it('is 100 % when the surplus exceeds the charging (the rest is exported)', () => {
    expect(solarShare([bucket({ station: 2, stations: 2, pv: 5, gridOut: 2.5 })])).toBe(1)
  })

  it('counts no battery discharge and no grid import as solar', () => {
    // No PV in the evening: the battery feeds the car, still 0 % solar.
    expect(solarShare([bucket({ station: 2, stations: 2, batteryOut: 2 })])).toBe(0)
  })

  it('shares the surplus among several stations by their energy', () => {
    // Surplus 3 kWh, stations 2 + 4 = 6 kWh: this station (2) gets a third of 3 = 1 kWh.
    const b = bucket({ station: 2, stations: 6, pv: 3, gridIn: 3 })
    expect(bucketSolarKwh(b)).toBeCloseTo(1)
  })

  it('weights partial buckets by what the station drew in them', () => {
    // First quarter hour partly covered (0.5 kWh, all solar), then 1.5 kWh without sun.
    const share = solarShare([bucket({ station: 0.5, stations: 0.5, pv: 2, gridOut: 1.5 }), bucket({ station: 1.5, stations: 1.5, gridIn: 1.6 })])
    expect(share).toBeCloseTo(0.25)
  })

  it('stays within 0–1 and never gives more solar kWh than PV or the station took', () => {
    const kwh = fc.double({ min: 0, max: 50, noNaN: true })
    fc.assert(
      fc.property(fc.record({ station: kwh, stations: kwh, pv: kwh, gridIn: kwh, gridOut: kwh, batteryIn: kwh, batteryOut: kwh }), (b) => {
        const solar = bucketSolarKwh(b)
        expect(solar).toBeGreaterThanOrEqual(0)
        expect(solar).toBeLessThanOrEqual(b.station + 1e-9)
        expect(solar).toBeLessThanOrEqual(b.pv + 1e-9)
        const share = solarShare([b])
        if (share !== null) expect(share).toBeLessThanOrEqual(1)
      }),
    )
  })
})

describe('price per kWh', () => {
  it('divides the energy price by the kWh, to 4 decimals', () => {
    expect(pricePerKwh(5.75, 22.92, 0.005)).toBe(0.2509)
  })
  it('is null for a hidden price and for a session without energy', () => {
    expect(pricePerKwh(null, 10, 0.005)).toBeNull()
    expect(pricePerKwh(0, 0, 0.005)).toBeNull()
    expect(pricePerKwh(0.01, 0.001, 0.005)).toBeNull()
  })
})

describe('self-sufficiency and self-consumption (Home Assistant)', () => {
  it('self-sufficiency = 1 − grid import / consumption', () => {
    expect(selfSufficiency(25, 100)).toBe(0.75)
    expect(asPercent(selfSufficiency(1, 3))).toBe(66.7)
  })
  it('self-consumption = 1 − export / PV production', () => {
    expect(selfConsumption(30, 120)).toBe(0.75)
  })
  it('is null without consumption or without PV (no ratio to give, not 0 % or 100 %)', () => {
    expect(selfSufficiency(0, 0)).toBeNull()
    expect(selfConsumption(0, 0)).toBeNull()
  })
  it('stays within 0–100 % when the import exceeds the consumption (battery charged from the grid)', () => {
    expect(selfSufficiency(12, 10)).toBe(0)
    expect(selfConsumption(0, 10)).toBe(1)
  })
})

describe('comparison with the previous period', () => {
  it('gives ratios in points and totals in percent', () => {
    expect(pointsChange(72.4, 68.1)).toBe(4.3)
    expect(pointsChange(null, 68.1)).toBeNull()
    expect(percentChange(110, 100)).toBe(10)
    expect(percentChange(80, 100)).toBe(-20)
  })
  it('has no percent change from a previous total of 0', () => {
    expect(percentChange(5, 0)).toBeNull()
  })
})

describe('remaining charging time', () => {
  it('is hidden (null) without a target', () => {
    expect(remainingSeconds(null, 5, 11)).toBeNull()
  })
  it('is the kWh still wanted at the current power', () => {
    expect(remainingSeconds(30, 19, 11)).toBe(3600)
    expect(remainingSeconds(30, 31, 11)).toBe(0)
    expect(remainingSeconds(30, 10, 0)).toBeNull()
  })
})
