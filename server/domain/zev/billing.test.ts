import { describe, expect, it } from 'vitest'
import { billZev, type ZevPrices } from './billing.ts'
import type { ZevInterval } from '../reports/zev.ts'

/**
 * Hand-computed ZEV bills (EnV Art. 16). One interval: PV 10 kWh, 2 kWh fed in, 2 kWh bought;
 * flat A uses 6 kWh, flat B 4 kWh. Locally used PV 8 of a supply of 10: each unit's energy is 80 % PV,
 * 20 % grid — A: 4.8 kWh PV + 1.2 kWh grid, B: 3.2 kWh PV + 0.8 kWh grid.
 */
const interval: ZevInterval = { start: new Date('2025-06-10T08:00:00Z'), pv: 10, batteryCharge: 0, batteryDischarge: 0, gridImport: 2, gridExport: 2, units: { a: 6, b: 4 } }
// Rappen/kWh: grid bought at 24, the external standard product at 25, own energy costs 27, feed-in pays 12.
const prices: ZevPrices = { purchase: 24, standard: 25, internal: 27, feedIn: 12 }

describe('billZev', () => {
  it('flat rate: internal energy at 80 % of the standard product, grid at the purchase price', () => {
    const bill = billZev([interval], () => prices, 'flat_rate', 80)
    // A: grid 1.2 × 24 = 28.8 → 29; standard 4.8 × 25 = 120; 80 % = 96.
    expect(bill.rows.a).toMatchObject({ grid_rappen: 29, standard_rappen: 120, internal_rappen: 96, cost_rappen: 125, capped: false })
    // B: grid 0.8 × 24 = 19.2 → 19; standard 3.2 × 25 = 80; 80 % = 64.
    expect(bill.rows.b).toMatchObject({ grid_rappen: 19, standard_rappen: 80, internal_rappen: 64, cost_rappen: 83, capped: false })
    expect(bill.capPercent).toBe(80)
    // A lower flat rate is allowed; above 80 % it is held at 80 % (the cap).
    expect(billZev([interval], () => prices, 'flat_rate', 50).rows.a.internal_rappen).toBe(60)
    expect(billZev([interval], () => prices, 'flat_rate', 95).rows.a.internal_rappen).toBe(96)
  })

  it('actual costs: internal costs less the feed-in revenue shared by internal kWh, under the cap', () => {
    const bill = billZev([interval], () => prices, 'actual_costs', 80)
    // Feed-in revenue 2 × 12 = 24 Rp, shared 4.8 : 3.2 → A 14.4, B 9.6.
    expect(bill.feedInRappen).toBe(24)
    // A: 4.8 × 27 = 129.6 − 14.4 = 115.2 ≤ 120 (the standard product) → 115.
    expect(bill.rows.a).toMatchObject({ internal_rappen: 115, standard_rappen: 120, capped: false, cost_rappen: 29 + 115 })
    // B: 3.2 × 27 = 86.4 − 9.6 = 76.8 ≤ 80 → 77.
    expect(bill.rows.b).toMatchObject({ internal_rappen: 77, capped: false, cost_rappen: 19 + 77 })
    expect(bill.capPercent).toBe(100)
  })

  it('actual costs above the standard product are capped at it', () => {
    // Nothing fed in: no deduction, and 27 Rp/kWh of own energy exceeds the standard product's 25.
    const noExport = { ...interval, gridExport: 0, gridImport: 2, pv: 8 }
    const bill = billZev([noExport], () => prices, 'actual_costs', 80)
    // A: 4.8 × 27 = 129.6 > 120 → 120 (capped); B: 86.4 > 80 → 80.
    expect(bill.rows.a).toMatchObject({ internal_rappen: 120, capped: true })
    expect(bill.rows.b).toMatchObject({ internal_rappen: 80, capped: true })
  })

  it('never bills internal energy above the cap, whatever the prices (both models)', () => {
    for (let i = 0; i < 200; i++) {
      const p: ZevPrices = { purchase: (i * 7) % 40, standard: (i * 13) % 35, internal: (i * 17) % 50, feedIn: (i * 3) % 15 }
      const iv: ZevInterval = { ...interval, pv: (i % 9) + 1, gridExport: i % 3, gridImport: i % 4, units: { a: (i % 5) + 1, b: i % 2 } }
      for (const model of ['flat_rate', 'actual_costs'] as const) {
        const bill = billZev([iv], () => p, model, 80)
        for (const r of Object.values(bill.rows)) {
          expect(r.internal_rappen).toBeGreaterThanOrEqual(0)
          expect(r.internal_rappen).toBeLessThanOrEqual(Math.round((r.standard_rappen * bill.capPercent) / 100) + 1)
        }
      }
    }
  })
})
