import { z } from 'zod'
import { WEEKDAY_FIELDS } from './timer.ts'

/** The most kWh a plan may ask for (a larger figure is a typo: no car battery holds it). */
export const PLAN_MAX_KWH = 200
/** How far ahead a once-plan's deadline may lie, hours (a week). */
export const PLAN_MAX_AHEAD_H = 7 * 24
/**
 * The kWh a "full" plan is planned for: the car's battery is unknown, so the plan assumes a typical
 * 60 kWh need and ends when the car stops drawing (docs/decisions.md "Load management: charge plans").
 */
export const PLAN_FULL_KWH = 60

/** Where a planned slot's energy comes from: PV surplus, the low tariff, or the grid at any tariff. */
export const PlanSlot = z.object({
  start: z.string(),
  end: z.string(),
  /** kW the car is planned to charge at. */
  kw: z.number(),
  source: z.enum(['solar', 'low_tariff', 'grid']),
})
export type PlanSlot = z.infer<typeof PlanSlot>

const days = Object.fromEntries(WEEKDAY_FIELDS.map((d) => [d, z.boolean().default(false)])) as Record<(typeof WEEKDAY_FIELDS)[number], z.ZodDefault<z.ZodBoolean>>

/**
 * PUT …/charge_plan (SPEC §4 charging modes; docs/decisions.md "Load management: charge plans"):
 * `energy_kwh` (0 < kWh ≤ 200, or "full"); `deadline` "HH:mm" installation-local (the next such time for
 * a once-plan), or an ISO instant for a once-plan (in the future, at most a week ahead); `repeat` true
 * with at least one of `repeat_monday` … `repeat_sunday` repeats the plan on those weekdays.
 * Out-of-range values answer 400 naming the field, in the caller's language.
 */
export const ChargePlanPut = z.object({
  energy_kwh: z.union([z.number(), z.literal('full')]),
  deadline: z.string().trim().min(1).max(40),
  repeat: z.boolean().default(false),
  ...days,
})
export type ChargePlanPut = z.infer<typeof ChargePlanPut>

/**
 * A charge plan as the API answers it: what was asked (as PUT takes it, `deadline` as "HH:mm"), the next
 * deadline (ISO; null when a once-plan's deadline passed), whether a car charges under it now (`active`),
 * the kWh charged towards it and still missing, the planned slots, and `reachable` false with a
 * `warning` sentence (caller's language) when the target cannot be met by the deadline within the
 * limits. `reachable` is null while nothing was planned (no car, or load management off).
 */
export const ChargePlan = z.object({
  id: z.number().int(),
  station_id: z.number().int().nullable(),
  rfid_id: z.number().int().nullable(),
  energy_kwh: z.union([z.number(), z.literal('full')]),
  deadline: z.string(),
  repeat: z.boolean(),
  ...Object.fromEntries(WEEKDAY_FIELDS.map((d) => [d, z.boolean()])) as Record<(typeof WEEKDAY_FIELDS)[number], z.ZodBoolean>,
  next_deadline: z.string().nullable(),
  active: z.boolean(),
  charged_kwh: z.number(),
  remaining_kwh: z.number().nullable(),
  slots: z.array(PlanSlot),
  reachable: z.boolean().nullable(),
  warning: z.string().nullable(),
  planned_at: z.string().nullable(),
})
export type ChargePlan = z.infer<typeof ChargePlan>
