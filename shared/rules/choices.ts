/**
 * Fixed lists of choices that both the API's zod schemas (shared/schemas/*) and the browser's forms use.
 * A plain module without zod, as shared/rules/regions.ts: a screen that needs only a list would otherwise
 * load zod with the schema module's module-level schemas (docs/decisions.md "Display: the chart smeared",
 * "Web: what loads first").
 */

/** Rate kinds (SPEC §3) and their price fields: CHF per kWh (power, heat) or per m3 (water). */
export const RATE_PRICES = {
  power: ['general', 'peak', 'low', 'flat', 'main_power_purchase', 'solar_recovery_compensation', 'electric_car'],
  water: ['fresh_water', 'warm_water_production'],
  heat: ['heat'],
} as const

/** Report types (SPEC §3). */
export const REPORT_TYPES = ['zev', 'electrical', 'water', 'heat'] as const
/** Report intervals (SPEC §9): d day, w week, m month, q quarter, s half year, y year. */
export const INTERVALS = ['d', 'w', 'm', 'q', 's', 'y'] as const

/** Highest ZEV flat rate, % of the external standard product (EnV Art. 16 para. 1 let. b). */
export const ZEV_FLAT_MAX_PERCENT = 80

/** Topics a person chooses when writing to support (SPEC §2 "topic choice"; the list itself is not shown there). */
export const SUPPORT_TOPICS = ['charging', 'billing', 'rfid', 'account', 'technical', 'other'] as const
