import { z } from 'zod'
import type { ScheduleEntry } from '../rules/tariff.ts'
import { Day } from './common.ts'

/**
 * GET /api/electricity-tariff/ (SPEC §7): the tariff in force today for the Pricing screen. Prices in
 * CHF: basic_tariff per month, high/low/flat per kWh (4 decimals); validity "YYYY-MM-DD"; `schedule`
 * lists the high-tariff spans per weekday (installation-local), low tariff is the rest of the day.
 * `editable` says whether this version has not started yet, so an admin may still change it.
 */
export interface Pricing {
  id: number
  name: string
  basic_tariff: number
  high_tariff: number
  low_tariff: number
  flat_tariff: number | null
  flat: boolean
  valid_from: string
  valid_to: string | null
  schedule: ScheduleEntry[]
  editable: boolean
}

const Flag = z.union([z.literal(0), z.literal(1)])
const Chf = z.number().finite()

/** One high-tariff span of the weekly grid: installation-local "HH:mm" and a 0/1 flag per weekday (SPEC §3). */
export const ScheduleEntrySchema = z.object({
  start: z.string().max(5),
  end: z.string().max(5),
  monday: Flag, tuesday: Flag, wednesday: Flag, thursday: Flag, friday: Flag, saturday: Flag, sunday: Flag,
})

/**
 * PUT /api/electricity-tariff/?installation={id}: the charging tariff from `valid_from` on,
 * the same shape as the GET (id, valid_to and editable are ignored). Prices in CHF (energy per kWh,
 * basic per month; null, as a form sends an unreadable number, is refused by field). The ranges and the rule that a version starts after today are checked by
 * server/domain/tariffs/pricing.ts with the SPEC §5 rate messages.
 */
export const PricingUpdate = z.object({
  id: z.number().optional(),
  name: z.string().trim().min(1).max(255),
  basic_tariff: Chf.nullable(),
  high_tariff: Chf.nullable(),
  low_tariff: Chf.nullable(),
  flat_tariff: Chf.nullable().optional(),
  flat: z.boolean().default(false),
  valid_from: Day,
  valid_to: z.string().nullable().optional(),
  schedule: z.array(ScheduleEntrySchema).max(50),
  editable: z.boolean().optional(),
})
export type PricingUpdate = z.infer<typeof PricingUpdate>

/** The zod form of {@link Pricing} (the API's answer; OpenAPI). */
export const PricingSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  basic_tariff: z.number(),
  high_tariff: z.number(),
  low_tariff: z.number(),
  flat_tariff: z.number().nullable(),
  flat: z.boolean(),
  valid_from: z.string(),
  valid_to: z.string().nullable(),
  schedule: z.array(ScheduleEntrySchema),
  editable: z.boolean(),
})
