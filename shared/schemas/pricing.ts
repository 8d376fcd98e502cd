import type { ScheduleEntry } from '../rules/tariff.ts'

/**
 * GET /api/electricity-tariff/ (SPEC §7): the tariff in force today for the Pricing screen. Prices in
 * CHF: basic_tariff per month, high/low/flat per kWh (4 decimals); validity "YYYY-MM-DD"; `schedule`
 * lists the high-tariff spans per weekday (installation-local), low tariff is the rest of the day.
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
}
