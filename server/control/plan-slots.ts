/**
 * The charge-plan slot planner (SPEC §4 charging modes; docs/decisions.md "Load management: charge
 * plans"): a pure function that spreads the energy a plan still misses over the time to its deadline,
 * from solar first, then the low tariff, then whatever the grid gives within the limits. No clock and no
 * I/O: the controller passes `now`, the deadline, and per step what solar and tariff it expects.
 *
 * Units: kW and kWh; instants are ms since the epoch; a step is a span [start, end) of the plan window.
 */

/** Where a slot's energy comes from, in the order the planner uses them. */
export type SlotSource = 'solar' | 'low_tariff' | 'grid'
export const SLOT_SOURCES: readonly SlotSource[] = ['solar', 'low_tariff', 'grid']

/** One span of the plan window as the controller expects it. */
export interface PlanStep {
  /** ms since the epoch; steps are consecutive and do not overlap. */
  start: number
  end: number
  /** kW of PV surplus expected for this car in the step (0 when none). */
  solar_kw: number
  /** Whether the low tariff applies in the step. */
  low_tariff: boolean
}

/** A planned slot: charge at `kw` from `start` to `end` (ms), fed by `source`. */
export interface PlannedSlot {
  start: number
  end: number
  kw: number
  source: SlotSource
}

/** The plan: its slots in time order, the kWh they give, and whether that meets the need. */
export interface SlotPlan {
  slots: PlannedSlot[]
  planned_kwh: number
  reachable: boolean
}

const EPS = 1e-9

/**
 * Plan `energy_kwh` over `steps` (cut to [`now`, `deadline`)) at no more than `max_kw` in any step (the
 * station's maximum within the circuits' and the connection's limits). Sources in order: the solar
 * each step expects (up to `max_kw`), then the low-tariff steps, then the others ("grid"); within a
 * source the earliest steps first, so a delay later still leaves room. A step may hold two sources
 * (solar and grid on top); their sum never exceeds `max_kw`.
 * @returns the slots (consecutive slots of the same source and kW merged), the kWh planned (≤ the need)
 *   and `reachable` (the need is met by the deadline).
 */
export function planSlots(input: { now: number; deadline: number; energy_kwh: number; max_kw: number; steps: PlanStep[] }): SlotPlan {
  const { now, deadline } = input
  const maxKw = Math.max(0, input.max_kw)
  const need = Math.max(0, input.energy_kwh)
  const steps = input.steps
    .map((s) => ({ ...s, start: Math.max(s.start, now), end: Math.min(s.end, deadline) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start)
  const hours = steps.map((s) => (s.end - s.start) / 3_600_000)
  const used = steps.map(() => 0)
  const planned: Array<{ step: number; kw: number; source: SlotSource }> = []
  let left = need
  const take = (source: SlotSource, kwOf: (i: number) => number) => {
    for (let i = 0; i < steps.length && left > EPS; i++) {
      const kw = Math.min(kwOf(i), maxKw - used[i])
      if (!(kw > EPS)) continue
      const energy = Math.min(kw * hours[i], left)
      const at = energy / hours[i]
      used[i] += at
      left -= energy
      planned.push({ step: i, kw: at, source })
    }
  }
  take('solar', (i) => Math.max(0, steps[i].solar_kw))
  take('low_tariff', (i) => (steps[i].low_tariff ? maxKw : 0))
  take('grid', (i) => (steps[i].low_tariff ? 0 : maxKw))

  planned.sort((a, b) => a.step - b.step || SLOT_SOURCES.indexOf(a.source) - SLOT_SOURCES.indexOf(b.source))
  const slots: PlannedSlot[] = []
  // Consecutive steps of the same source at the same kW merge into one slot.
  const open = new Map<SlotSource, PlannedSlot>()
  for (const p of planned) {
    const kw = Math.round(p.kw * 100) / 100
    // Under 5 W: nothing a screen could show (and at most a Wh or so).
    if (kw === 0) continue
    const step = steps[p.step]
    const o = open.get(p.source)
    if (o && o.end === step.start && o.kw === kw) o.end = step.end
    else {
      const slot = { start: step.start, end: step.end, kw, source: p.source }
      slots.push(slot)
      open.set(p.source, slot)
    }
  }
  const plannedKwh = need - Math.max(0, left)
  return { slots, planned_kwh: plannedKwh, reachable: left <= 1e-6 }
}

/** The slot of `plan` that covers instant `at` and draws from the grid (low tariff or not), or null. */
export function gridSlotAt(plan: SlotPlan, at: number): PlannedSlot | null {
  let kw = 0
  let found: PlannedSlot | null = null
  for (const s of plan.slots) {
    if (s.source === 'solar' || s.start > at || s.end <= at) continue
    kw += s.kw
    found = { ...s, kw }
  }
  return found
}
