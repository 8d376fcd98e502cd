import { describe, expect, it } from 'vitest'
import { priceLines } from './price-lines.ts'

describe('priceLines', () => {
  it('rounds each line to the centime and makes the price their sum', () => {
    // 11.016 kWh at 29.5 Rp = 324.97 → 325 Rp; 11.904 kWh at 21 Rp = 249.98 → 250 Rp. One rounding of the
    // whole (574.96 → 575) happens to agree here; 3.25 + 2.50 must always give 5.75.
    const { lines, totalRappen } = priceLines(11.016, 11.904, { high: 29.5, low: 21, flat: null })
    expect(lines).toEqual([
      { label: 'high', kwh: 11.02, unit_price: 0.295, amount: 3.25 },
      { label: 'low', kwh: 11.9, unit_price: 0.21, amount: 2.5 },
    ])
    expect(totalRappen).toBe(575)
    expect(lines.reduce((s, l) => s + Math.round(l.amount * 100), 0)).toBe(totalRappen)
  })

  it('makes the total the sum of lines where one rounding of the whole would differ', () => {
    // 1.01 kWh × 0.215 = 0.21715 → 0.22 and 1.01 × 0.215 → 0.22: lines 0.44; the whole 0.4343 → 0.43.
    const { lines, totalRappen } = priceLines(1.01, 1.01, { high: 21.5, low: 21.5, flat: null })
    expect(lines.map((l) => l.amount)).toEqual([0.22, 0.22])
    expect(totalRappen).toBe(44)
  })

  it('bills a flat tariff as one line, leaves out empty lines, and gives nothing without a tariff', () => {
    expect(priceLines(1, 2, { high: 30, low: 20, flat: 25.5 }).lines).toEqual([{ label: 'flat', kwh: 3, unit_price: 0.255, amount: 0.77 }])
    expect(priceLines(0, 2, { high: 30, low: 20, flat: null }).lines.map((l) => l.label)).toEqual(['low'])
    expect(priceLines(1, 1, null)).toEqual({ lines: [], totalRappen: 0 })
  })
})
