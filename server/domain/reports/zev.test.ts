import { describe, expect, it } from 'vitest'
import { allocateZev, type ZevInterval } from './zev.ts'

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

  it('counts consumption without measured supply as grid and skips idle units', () => {
    const r = allocateZev([{ start: new Date(0), pv: 0, batteryCharge: 0, batteryDischarge: 0, gridImport: 0, gridExport: 0, units: { a: 1, b: 0 } }], () => 10)
    expect(r).toEqual({ a: { consumption_kwh: 1, pv_kwh: 0, battery_kwh: 0, grid_kwh: 1, cost_rappen: 10 } })
  })
})
