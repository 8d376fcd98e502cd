import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SLOT_SOURCES, gridSlotAt, planSlots, type PlanStep } from './plan-slots.ts'

/**
 * The charge-plan slot planner (docs/decisions.md "Load management: charge plans"): examples a resident
 * would recognise (30 kWh by 07:00 with a low tariff from 22:00) and properties over random windows:
 * never above the station's limit, a feasible plan reaches its energy by the deadline, solar before low
 * tariff before grid. FUZZ_RUNS raises the number of cases (npm run test:fuzz).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 100)
if (!process.env.FUZZ_RUNS) fc.configureGlobal({ seed: 20261128 })
const H = 3_600_000
const Q = 15 * 60_000
const T0 = Date.parse('2026-11-27T20:00:00.000Z')

/** Quarter-hour steps from `from` to `to`, with solar and low tariff chosen per step. */
const steps = (from: number, to: number, f: (t: number) => Omit<PlanStep, 'start' | 'end'>): PlanStep[] => {
  const out: PlanStep[] = []
  for (let t = from; t < to; t += Q) out.push({ start: t, end: t + Q, ...f(t) })
  return out
}
const kwh = (slots: { start: number; end: number; kw: number }[]) => slots.reduce((sum, s) => sum + (s.kw * (s.end - s.start)) / H, 0)

describe('planSlots', () => {
  it('fills 30 kWh by 07:00 from the low tariff from 22:00, not from the high tariff before it', () => {
    // 20:00 to 07:00 (UTC here), low tariff from 22:00; 11 kW station: 30 kWh fit into the low tariff.
    const deadline = T0 + 11 * H
    const plan = planSlots({ now: T0, deadline, energy_kwh: 30, max_kw: 11, steps: steps(T0, deadline, (t) => ({ solar_kw: 0, low_tariff: t >= T0 + 2 * H })) })
    expect(plan.reachable).toBe(true)
    expect(plan.slots.every((s) => s.source === 'low_tariff' && s.start >= T0 + 2 * H)).toBe(true)
    expect(kwh(plan.slots)).toBeCloseTo(30, 1)
    expect(gridSlotAt(plan, T0)).toBeNull()
    expect(gridSlotAt(plan, T0 + 2 * H)?.kw).toBe(11)
  })

  it('takes the grid for what solar and the low tariff cannot give, and says when even that is not enough', () => {
    const deadline = T0 + 2 * H
    const plan = planSlots({ now: T0, deadline, energy_kwh: 20, max_kw: 7.36, steps: steps(T0, deadline, (t) => ({ solar_kw: t < T0 + H ? 2 : 0, low_tariff: false })) })
    expect(plan.reachable).toBe(false)
    expect(plan.planned_kwh).toBeCloseTo(14.72, 2)
    // Solar's 2 kW in the first hour with 5.36 kW from the grid on top, then 7.36 kW from the grid.
    expect(plan.slots.map((s) => [s.source, s.kw, (s.end - s.start) / H])).toEqual([['solar', 2, 1], ['grid', 5.36, 1], ['grid', 7.36, 1]])
  })

  it('plans nothing for a need of 0 or a deadline that passed', () => {
    expect(planSlots({ now: T0, deadline: T0 + H, energy_kwh: 0, max_kw: 11, steps: steps(T0, T0 + H, () => ({ solar_kw: 5, low_tariff: true })) })).toEqual({ slots: [], planned_kwh: 0, reachable: true })
    expect(planSlots({ now: T0, deadline: T0 - H, energy_kwh: 5, max_kw: 11, steps: steps(T0 - 2 * H, T0, () => ({ solar_kw: 5, low_tariff: true })) }).reachable).toBe(false)
  })

  const caseArb = fc.record({
    quarters: fc.integer({ min: 1, max: 60 }),
    offset: fc.integer({ min: 0, max: Q - 1 }),
    energy: fc.double({ min: 0.1, max: 200, noNaN: true }),
    max_kw: fc.constantFrom(1.38, 3.68, 4.14, 7.36, 11.04, 22.08),
    solar: fc.array(fc.double({ min: 0, max: 15, noNaN: true }), { minLength: 60, maxLength: 60 }),
    low: fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
  })
  const build = (c: { quarters: number; offset: number; energy: number; max_kw: number; solar: number[]; low: boolean[] }) => {
    const now = T0 + c.offset
    const deadline = T0 + c.quarters * Q
    const st = steps(T0, deadline, (t) => ({ solar_kw: c.solar[(t - T0) / Q], low_tariff: c.low[(t - T0) / Q] }))
    return { now, deadline, st, plan: planSlots({ now, deadline, energy_kwh: c.energy, max_kw: c.max_kw, steps: st }) }
  }

  it('never plans above the station limit, nor outside the window', () => {
    fc.assert(fc.property(caseArb, (c) => {
      const { now, deadline, plan } = build(c)
      for (const s of plan.slots) {
        expect(s.start).toBeGreaterThanOrEqual(now)
        expect(s.end).toBeLessThanOrEqual(deadline)
        expect(s.kw).toBeGreaterThan(0)
      }
      // At every step's middle, the planned sources together stay within the limit (kW shown to 0.01).
      for (let t = T0 + Q / 2; t < deadline; t += Q) {
        const at = Math.max(t, now)
        const sum = plan.slots.filter((s) => s.start <= at && s.end > at).reduce((a, s) => a + s.kw, 0)
        expect(sum).toBeLessThanOrEqual(c.max_kw + 0.02)
      }
      expect(plan.planned_kwh).toBeLessThanOrEqual(c.energy + 1e-6)
    }), { numRuns: RUNS })
  })

  it('a feasible plan reaches its energy by the deadline; an infeasible one plans the most the window holds', () => {
    fc.assert(fc.property(caseArb, (c) => {
      const { now, deadline, plan } = build(c)
      const window = (c.max_kw * (deadline - now)) / H
      if (c.energy <= window - 1e-6) {
        expect(plan.reachable).toBe(true)
        expect(kwh(plan.slots)).toBeCloseTo(c.energy, 1)
      } else {
        expect(plan.reachable).toBe(c.energy <= window + 1e-6)
        expect(plan.planned_kwh).toBeCloseTo(Math.min(c.energy, window), 4)
      }
    }), { numRuns: RUNS })
  })

  it('uses solar before the low tariff and the low tariff before the grid', () => {
    fc.assert(fc.property(caseArb, (c) => {
      const { now, st, plan } = build(c)
      const bySource = Object.fromEntries(SLOT_SOURCES.map((src) => [src, kwh(plan.slots.filter((s) => s.source === src))]))
      const stepH = (s: PlanStep) => (s.end - Math.max(s.start, now)) / H
      const solarAvail = st.reduce((a, s) => a + Math.min(s.solar_kw, c.max_kw) * Math.max(0, stepH(s)), 0)
      // Low tariff or grid only once every bit of solar is taken (or the need is met).
      if (bySource.low_tariff + bySource.grid > 0.01) expect(bySource.solar).toBeGreaterThan(solarAvail - 0.05)
      // Grid only once every low-tariff step is full.
      if (bySource.grid > 0.01) {
        for (const s of st.filter((x) => x.low_tariff && x.end > now)) {
          const at = Math.max(s.start, now) + 1
          const sum = plan.slots.filter((p) => p.start <= at && p.end > at).reduce((a, p) => a + p.kw, 0)
          expect(sum).toBeGreaterThan(c.max_kw - 0.03)
        }
      }
    }), { numRuns: RUNS })
  })
})
