import { z } from 'zod'
import { GRANULARITIES } from '../rules/granularity.ts'
import { ZevRowSchema, ZevSummarySchema } from './zev.ts'

/** One bucket of a series: its start (ISO-8601 with the installation's offset) and value. */
export const Bucket = z.object({ start: z.string(), value: z.number() })

/**
 * A statistics answer: every series named in `series` with its unit in `units` (kWh, kW, m3,
 * %, CHF). Buckets cover [start, end) without gaps in installation-local time (empty ones are 0);
 * kW series give a bucket's average power over its quarter hours with readings and leave out buckets
 * without any (a gap in the readings, the hours still to come).
 * Series names depend on the call and the caller's rights, hence a record.
 */
export const StatisticsAnswer = z.object({
  installation_id: z.number().int(),
  timezone: z.string(),
  start: z.string(),
  end: z.string(),
  granularity: z.enum(GRANULARITIES),
  units: z.record(z.string(), z.string()),
  series: z.record(z.string(), z.array(Bucket)),
})

/**
 * GET …/battery/states: battery_soc is each bucket's time-weighted average state of charge (%), with
 * battery_soc_min and battery_soc_max its lowest and highest quarter-hour reading; all null where no
 * reading was stored (not 0 %). `average_soc` is the period's time-weighted average state of charge
 * (%), null without readings.
 */
export const BatteryStatesAnswer = StatisticsAnswer.extend({
  series: z.record(z.string(), z.array(z.object({ start: z.string(), value: z.number().nullable() }))),
  average_soc: z.number().nullable(),
})

/** Per-station statistics: the answer plus the station names by series key (station_{id}). */
export const StationStatisticsAnswer = StatisticsAnswer.extend({ names: z.record(z.string(), z.string()) })

/** /totals: the same series summed over [start, end) (kW series: the average over the quarter hours with readings). */
export const TotalsAnswer = z.object({
  installation_id: z.number().int(),
  timezone: z.string(),
  start: z.string(),
  end: z.string(),
  units: z.record(z.string(), z.string()),
  series: z.record(z.string(), z.number()),
})

/**
 * /zev: the series plus the ZEV report: `allocation` the participants in a stable order
 * (flats, building, stations billed per session) with kWh by source and CHF by the model (money fields
 * absent without the cost right), `zev` the model, cap, feed-in revenue, missing-data count and total row.
 */
export const ZevAnswer = StatisticsAnswer.extend({
  allocation: z.array(ZevRowSchema),
  zev: ZevSummarySchema,
})
