import { z } from 'zod'
import { ZEV_FLAT_MAX_PERCENT } from '../rules/choices.ts'

/**
 * ZEV billing (docs/zev-method.md): the model an admin picks per installation under the
 * Energy Ordinance (EnV, SR 730.01) Art. 16, and the report's shape. Shared by server/domain/zev and the
 * client's ZEV screens.
 *
 * - `flat_rate`: internal energy at `flat_percent` % (at most 80, Art. 16 para. 1 let. b) of what the
 *   external standard electricity product would cost for the same kWh;
 * - `actual_costs`: the internal costs actually incurred less the feed-in revenue (para. 2), never more
 *   than the external standard product for the same kWh (para. 3).
 */
export const ZEV_MODELS = ['flat_rate', 'actual_costs'] as const
export type ZevModel = (typeof ZEV_MODELS)[number]
/** Highest flat rate, % of the external standard product (EnV Art. 16 para. 1 let. b; shared/rules/choices.ts). */
export { ZEV_FLAT_MAX_PERCENT }

/** GET/PUT /api/zev/settings/?installation={id}: the model and the flat rate's percentage (0–80). */
export const ZevSettingsSchema = z.object({
  model: z.enum(ZEV_MODELS),
  flat_percent: z.number().describe('Flat rate, % of the external standard product (0–80; used by the flat_rate model)'),
})
export type ZevSettings = z.infer<typeof ZevSettingsSchema>

/**
 * One participant row of the ZEV report: kWh by source, then CHF: grid energy at the purchase price
 * (passed on at cost), internal energy (PV + battery) by the model, and their sum. Charging stations are
 * listed with their energy but `billed_by_sessions`: their energy is billed per charging session at the
 * charging tariff, so the ZEV bill leaves their money out (costs 0).
 */
export const ZevRowSchema = z.object({
  unit: z.string(),
  name: z.string(),
  kind: z.enum(['apartment', 'building', 'station']),
  billed_by_sessions: z.boolean(),
  consumption_kwh: z.number(),
  pv_kwh: z.number(),
  battery_kwh: z.number(),
  grid_kwh: z.number(),
  grid_chf: z.number().optional(),
  internal_chf: z.number().optional(),
  /** What the external standard product would cost for this row's internal kWh (CHF): the cap's base. */
  standard_chf: z.number().optional(),
  /** True when the model's own price was above the cap and the cap applied. */
  capped: z.boolean().optional(),
  cost_chf: z.number().optional(),
})
export type ZevRow = z.infer<typeof ZevRowSchema>

/** The report's header facts and its total row (same columns as a row, summed over the rows). */
export const ZevSummarySchema = z.object({
  model: z.enum(ZEV_MODELS),
  flat_percent: z.number(),
  /** % of the external standard product internal energy may cost at most under the model (80 or 100). */
  cap_percent: z.number(),
  /** Average external standard product price over the period's internal kWh (CHF/kWh, 4 decimals). */
  standard_chf_per_kwh: z.number(),
  /** The cap as a price: standard × cap_percent (CHF/kWh, 4 decimals). */
  cap_chf_per_kwh: z.number(),
  /** Feed-in revenue of the period (CHF); deducted from internal costs under actual_costs only. */
  feed_in_revenue_chf: z.number().optional(),
  feed_in_deducted: z.boolean(),
  /** 15-minute intervals of the period (up to now) and those missing a reading of a ZEV meter. */
  expected_intervals: z.number().int(),
  missing_intervals: z.number().int(),
  /**
   * 15-minute intervals in which the participants' meters measured more than the main meters' balance
   * (grid import + PV + battery discharge − export − battery charge) supplied, and that excess (kWh): it is
   * allocated to no source, so no grid energy is billed that the main meter did not import.
   */
  unbalanced_intervals: z.number().int(),
  unbalanced_kwh: z.number(),
  total: ZevRowSchema,
})
export type ZevSummary = z.infer<typeof ZevSummarySchema>
