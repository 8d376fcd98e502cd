import { describe, expect, it } from 'vitest'
import { allocateZev, zevSupply, zevUnbalancedKwh, type ZevInterval } from './zev.ts'

// A fixed seed: a small linear congruential generator, so the data is the same on every run.
function lcg(seed: number) {
  let s = seed
  return () => (s = (s * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31
}

describe('allocateZev', () => {
  it('matches an allocation computed independently, unit by unit and interval by interval', () => {
    const rnd = lcg(42)
    const intervals: ZevInterval[] = []
    for (let i = 0; i < 96 * 3; i++) {
      const units = { a: rnd() * 0.5, b: rnd() * 0.3, c: i % 7 === 0 ? 0 : rnd() * 0.8 }
      const total = units.a + units.b + units.c
      const pv = i % 96 > 28 && i % 96 < 72 ? rnd() * 2 : 0
      const batteryCharge = pv > total ? (pv - total) * 0.5 : 0
      const gridExport = Math.max(0, pv - total - batteryCharge)
      const pvLocal = pv - gridExport - batteryCharge
      const batteryDischarge = pv === 0 ? Math.min(total, rnd() * 0.3) : 0
      const gridImport = Math.max(0, total - pvLocal - batteryDischarge)
      intervals.push({ start: new Date(Date.UTC(2026, 0, 1) + i * 900_000), pv, batteryCharge, batteryDischarge, gridImport, gridExport, units })
    }
    const high = (d: Date) => d.getUTCHours() >= 6 && d.getUTCHours() < 19
    const price = (d: Date, source: string) => (source === 'grid' ? (high(d) ? 29.5 : 21) : 20)
    const got = allocateZev(intervals, price)

    // Independently: per interval, each unit's part of every source is its consumption share of that source.
    for (const unit of ['a', 'b', 'c'] as const) {
      let cons = 0, pvU = 0, batU = 0, gridU = 0, cost = 0
      for (const iv of intervals) {
        const total = iv.units.a + iv.units.b + iv.units.c
        if (iv.units[unit] === 0) continue
        const share = iv.units[unit] / total
        const pvLocal = iv.pv - iv.gridExport - iv.batteryCharge
        cons += iv.units[unit]
        pvU += share * pvLocal
        batU += share * iv.batteryDischarge
        gridU += share * iv.gridImport
        cost += share * (pvLocal * 20 + iv.batteryDischarge * 20 + iv.gridImport * (high(iv.start) ? 29.5 : 21))
      }
      expect(got[unit].consumption_kwh).toBeCloseTo(cons, 9)
      expect(got[unit].pv_kwh).toBeCloseTo(pvU, 9)
      expect(got[unit].battery_kwh).toBeCloseTo(batU, 9)
      expect(got[unit].grid_kwh).toBeCloseTo(gridU, 9)
      expect(got[unit].cost_rappen).toBeCloseTo(cost, 6)
      // A unit's sources add up to its consumption.
      expect(got[unit].pv_kwh + got[unit].battery_kwh + got[unit].grid_kwh).toBeCloseTo(got[unit].consumption_kwh, 9)
    }
    // All allocated PV equals the facility's locally used PV.
    const pvUsed = intervals.reduce((a, iv) => a + (iv.pv - iv.gridExport - iv.batteryCharge), 0)
    expect(got.a.pv_kwh + got.b.pv_kwh + got.c.pv_kwh).toBeCloseTo(pvUsed, 9)
  })

  it('bills no grid energy the main meter did not import: consumption without measured supply gets no source', () => {
    const r = allocateZev([{ start: new Date(0), pv: 0, batteryCharge: 0, batteryDischarge: 0, gridImport: 0, gridExport: 0, units: { a: 1, b: 0 } }], () => 10)
    expect(r).toEqual({ a: { consumption_kwh: 1, pv_kwh: 0, battery_kwh: 0, grid_kwh: 0, cost_rappen: 0 } })
    expect(zevUnbalancedKwh({ start: new Date(0), pv: 0, batteryCharge: 0, batteryDischarge: 0, gridImport: 0, gridExport: 0, units: { a: 1, b: 0 } })).toBe(1)
  })

  it('shares out exactly the grid import when the meters measured more than the main meters supplied, and says how much more', () => {
    // A charger's 3 kWh the main meter never saw: import 2 kWh, PV 1 kWh, participants' meters 1 + 3 kWh.
    const iv: ZevInterval = { start: new Date(0), pv: 1, batteryCharge: 0, batteryDischarge: 0, gridImport: 2, gridExport: 0, units: { flat: 1, station: 3 } }
    const r = allocateZev([iv], (_d, s) => (s === 'grid' ? 30 : 0))
    expect(r.flat.grid_kwh + r.station.grid_kwh).toBeCloseTo(2, 12)
    expect(r.flat.pv_kwh + r.station.pv_kwh).toBeCloseTo(1, 12)
    expect(r.station).toMatchObject({ consumption_kwh: 3, grid_kwh: 1.5, pv_kwh: 0.75, cost_rappen: 45 })
    expect(zevUnbalancedKwh(iv)).toBeCloseTo(1, 12)
  })

  it('feeds export and battery charge from PV first, then from the battery, so the grid import reaches the participants whole', () => {
    // PV 1, battery both charged 2 and discharged 1.5 within the quarter hour, import 3, nothing exported:
    // consumption 3 + 1 + 1.5 − 2 = 3.5 kWh, all of the import reaches it, PV and battery none of theirs.
    const iv: ZevInterval = { start: new Date(0), pv: 1, batteryCharge: 2, batteryDischarge: 1.5, gridImport: 3, gridExport: 0, units: { a: 2.5, b: 1 } }
    expect(zevSupply(iv)).toEqual({ pv: 0, battery: 0.5, grid: 3, total: 3.5 })
    const r = allocateZev([iv], () => 1)
    expect(r.a.grid_kwh + r.b.grid_kwh).toBeCloseTo(3, 12)
    expect(r.a.battery_kwh + r.b.battery_kwh).toBeCloseTo(0.5, 12)
    expect(zevUnbalancedKwh(iv)).toBe(0)
    // Only grid energy that itself went into the battery (sinks beyond PV and discharge) is not a participant's.
    expect(zevSupply({ ...iv, batteryDischarge: 0, units: { a: 2 } })).toEqual({ pv: 0, battery: 0, grid: 2, total: 2 })
  })

  it('allocates each interval\'s whole import to the participants whenever their consumption is the balance (random intervals)', () => {
    const rnd = lcg(7)
    for (let i = 0; i < 500; i++) {
      const iv: ZevInterval = { start: new Date(i * 900_000), pv: rnd() * 3, batteryCharge: rnd() < 0.5 ? rnd() : 0, batteryDischarge: rnd() < 0.5 ? rnd() : 0, gridImport: rnd() * 4, gridExport: rnd() < 0.3 ? rnd() * 0.5 : 0, units: { a: rnd(), b: rnd() * 2 } }
      const supply = zevSupply(iv)
      // The building's remainder, as the service adds it: the balance minus what the meters measured.
      iv.units.building = Math.max(0, supply.total - iv.units.a - iv.units.b)
      const r = allocateZev([iv], () => 0)
      const grid = Object.values(r).reduce((a, x) => a + x.grid_kwh, 0)
      expect(grid).toBeCloseTo(supply.grid, 9)
      if (iv.gridExport + iv.batteryCharge <= iv.pv + iv.batteryDischarge) expect(supply.grid).toBeCloseTo(iv.gridImport, 12)
    }
  })
})
