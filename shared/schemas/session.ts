import { z } from 'zod'
import { DayOrDateTime, Id, ListQuery } from './common.ts'

/** The statuses of a charging session (SPEC §3 and migration 0171). */
export const SESSION_STATUSES = ['charging', 'unpaid', 'paid', 'held', 'void', 'empty'] as const

/** Query of GET /api/rfids-charge/ (SPEC §7): ISO dates, limit, offset. */
export const SessionQuery = z.object({
  start__gte: DayOrDateTime.optional(),
  end__lte: DayOrDateTime.optional(),
  open: z.enum(['true', 'false']).optional(),
  /** With end__lte: also the sessions still charging that started by then. */
  running: z.enum(['true', 'false']).optional(),
  /** Only the sessions of this charging station of the installation (404 when it is not one of its stations, 403 when not readable). */
  station_id: Id.optional(),
  /** Only the sessions of this person (404 when not a user of the installation; others than admins may ask only for themselves, else 403). */
  user_id: Id.optional(),
  ...ListQuery.shape,
})

/**
 * A charging session (SPEC §3). Money in CHF with 2 decimals as the invoice prints it: `price` is the
 * energy (the sum of `price_lines`), `transaction_fee` the card fee (SPEC §9, 0 until paid) and `total` =
 * price + transaction_fee, what is billed. Energy in kWh. `end` is null while charging. Prices are null when the caller may not see costs (SPEC §6).
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
  total: z.number().nullable(),
  /**
   * charging (open), unpaid, paid; held: a charger figure or a debit ceiling put it on hold for an admin's
   * review (`hold_reason`), never debited automatically; void: set aside by an admin; empty: ended with
   * 0 kWh, never billed (docs/decisions.md "Charging: plausible charger figures and debit ceilings").
   */
  status: z.enum(SESSION_STATUSES),
  paid_on: z.string().nullable(),
  /** Started by a timer (SPEC §3 journal set-by-timer flag). */
  set_by_timer: z.boolean().optional(),
  /**
   * The price as the invoice prints it (shared/rules/price-lines.ts): kWh, CHF per kWh and CHF
   * per line; `price` is their sum. Null when the caller may not see costs.
   */
  price_lines: z.array(z.object({ label: z.enum(['high', 'low', 'flat']), kwh: z.number(), unit_price: z.number(), amount: z.number() })).nullable().optional(),
  /** GET this (with the bearer token) for the PDF invoice once the session ended; null while charging. */
  invoice_url: z.string().nullable().optional(),
  /** Who charged (first and last name), in the list only; null unless the personal-data rule shows the person. */
  user_name: z.string().nullable().optional(),
  /** Open, but no energy came in for a while: "plugged in, not charging". */
  idle: z.boolean().optional(),
  /** Why it is held (energyImplausible, powerImplausible, registerBackwards, sessionCeiling, monthCeiling); null when not. */
  hold_reason: z.string().nullable().optional(),
  /** Why it ended other than by its charger: newTransaction, reboot (OCPP 1.6 §4.2, §5.x) or admin. */
  end_reason: z.string().nullable().optional(),
  /** What was corrected or found: clockCorrected (the charger's time replaced by the server's) and hold reasons. */
  flags: z.array(z.string()).optional(),
  /**
   * Percent (0–100, 1 decimal) of the session's kWh that came from the installation's PV, from its
   * 15-minute buckets: min(PV surplus, charging) shared among the stations (shared/rules/energy-insights.ts,
   * docs/decisions.md "Screens: solar share, ratios, comparisons"). Null without a PV meter or measured energy.
   */
  solar_share: z.number().nullable().optional(),
  /** kWh from PV (solar_share of energy_kwh); null as solar_share. */
  solar_kwh: z.number().nullable().optional(),
  /** Average energy price in CHF per kWh (price / energy_kwh, 4 decimals; the card fee not included); null when the price is hidden or without energy. */
  price_per_kwh: z.number().nullable().optional(),
  /** Running sessions: seconds the car actually drew power (its station's readings above 0.05 kW); null once ended. */
  effective_s: z.number().int().nullable().optional(),
  /** Running sessions with a known target (a charge plan): seconds still needed at the current power; null (hidden) when none is known. */
  remaining_s: z.number().int().nullable().optional(),
})
export type ChargingSession = z.infer<typeof ChargingSession>

/**
 * Sums of a period's sessions: kWh, and CHF of the sessions whose money the caller sees: `price`,
 * `transaction_fee` and `total` as on each session (null when the caller sees none).
 */
export const SessionTotals = z.object({ energy_kwh: z.number(), price: z.number().nullable(), transaction_fee: z.number().nullable(), total: z.number().nullable() })
export type SessionTotals = z.infer<typeof SessionTotals>

/** A reason an admin gives for a review or a manual end: recorded with the action (session_reviews). */
const ReviewReason = z.string().trim().min(3).max(500)

/**
 * POST …/charging_sessions/{id}/review (admins of its installation): `correct` sets the session's energy
 * (kWh, split between high and low tariff in the proportion measured) and releases it; `approve` releases it
 * as it is (the debit ceilings no longer hold it); `void` sets it aside (0 kWh, CHF 0, never billed).
 */
export const SessionReviewInput = z.discriminatedUnion('action', [
  z.object({ action: z.literal('correct'), energy_kwh: z.number().min(0).max(100_000), reason: ReviewReason }),
  z.object({ action: z.literal('approve'), reason: ReviewReason }),
  z.object({ action: z.literal('void'), reason: ReviewReason }),
])
export type SessionReviewInput = z.infer<typeof SessionReviewInput>

/** POST …/charging_sessions/{id}/end (admins of its installation): end an open session by hand. */
export const SessionEndInput = z.object({ reason: ReviewReason })
