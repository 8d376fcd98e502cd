import { z } from 'zod'
import { DayOrDateTime, ListQuery } from './common.ts'

/** Query of GET /api/rfids-charge/ (SPEC §7): ISO dates, limit, offset. */
export const SessionQuery = z.object({
  start__gte: DayOrDateTime.optional(),
  end__lte: DayOrDateTime.optional(),
  open: z.enum(['true', 'false']).optional(),
  /** With end__lte: also the sessions still charging that started by then. */
  running: z.enum(['true', 'false']).optional(),
  ...ListQuery.shape,
})

/**
 * A charging session (SPEC §3). Money in CHF with 2 decimals (`price` includes `transaction_fee`), energy
 * in kWh. `end` is null while charging. Prices are null when the caller may not see costs (SPEC §6).
 */
export const ChargingSession = z.object({
  id: z.number().int(),
  station_id: z.number().int(),
  station_name: z.string(),
  rfid_id: z.number().int().nullable(),
  rfid_tag: z.string().nullable(),
  user_id: z.number().int().nullable(),
  start: z.string(),
  end: z.string().nullable(),
  energy_kwh: z.number(),
  high_kwh: z.number(),
  low_kwh: z.number(),
  price: z.number().nullable(),
  transaction_fee: z.number().nullable(),
  status: z.enum(['charging', 'unpaid', 'paid']),
  paid_on: z.string().nullable(),
  /** Started by a timer (SPEC §3 journal set-by-timer flag). */
  set_by_timer: z.boolean().optional(),
  /**
   * The price as the invoice prints it (shared/rules/price-lines.ts): kWh, CHF per kWh and CHF
   * per line; `price` minus `transaction_fee` is their sum. Null when the caller may not see costs.
   */
  price_lines: z.array(z.object({ label: z.enum(['high', 'low', 'flat']), kwh: z.number(), unit_price: z.number(), amount: z.number() })).nullable().optional(),
  /** GET this (with the bearer token) for the PDF invoice once the session ended; null while charging. */
  invoice_url: z.string().nullable().optional(),
  /** Who charged (first and last name), in the list only; null unless the personal-data rule shows the person. */
  user_name: z.string().nullable().optional(),
})
export type ChargingSession = z.infer<typeof ChargingSession>

/** Sums of a period's sessions: kWh, and CHF of the prices the caller sees (null when none). */
export const SessionTotals = z.object({ energy_kwh: z.number(), price: z.number().nullable() })
export type SessionTotals = z.infer<typeof SessionTotals>
