import { z } from 'zod'
import { GRANULARITIES, PERIODS } from '../rules/granularity.ts'
import { ZevRowSchema, ZevSummarySchema } from './zev.ts'
import { DataQuality, METER_SOURCES } from './meters.ts'
import { Day } from './common.ts'

/** One bucket of a series: its start (ISO-8601 with the installation's offset) and value. */
export const Bucket = z.object({ start: z.string(), value: z.number() })

/** A stretch [start, end) (UTC ISO 8601) in which a meter sent no reading (server/domain/measurements/coverage.ts). */
export const DataGap = z.object({ meter_id: z.number().int(), meter_name: z.string(), meter_type: z.string(), start: z.string(), end: z.string() }).meta({ id: 'DataGap' })
export type DataGap = z.infer<typeof DataGap>

/** A reading the data-quality checks set aside (booked nothing), with the reason the device was answered (English). */
export const FlaggedReading = z.object({ meter_id: z.number().int(), meter_name: z.string(), timestamp: z.string(), measurand: z.string(), reason: z.string() }).meta({ id: 'FlaggedReading' })
export type FlaggedReading = z.infer<typeof FlaggedReading>

/**
 * Missing and set-aside readings of the answer's meters over its period: `gaps` (whole quarter hours
 * without readings, by the hour over 8 days, by the local day over 62; charging stations' meters excluded) and `flagged`
 * readings (48 h back at most). A series' buckets inside a gap hold 0 only because nothing was measured.
 */
export const PeriodDataQuality = z.object({ gaps: z.array(DataGap), flagged: z.array(FlaggedReading) }).meta({ id: 'PeriodDataQuality' })
export type PeriodDataQuality = z.infer<typeof PeriodDataQuality>

/**
 * GET /api/cockpit/installations/{id}/meters/data: a meter's data state for the Power page: source, newest
 * reading, its age (s), `stale` past 5 minutes without a reading (or none yet), data quality.
 */
export const MeterDataState = z.object({
  id: z.number().int(),
  name: z.string(),
  meter_type: z.string(),
  source: z.enum(METER_SOURCES),
  last_reading_at: z.string().nullable(),
  age_s: z.number().int().nullable(),
  stale: z.boolean(),
  data_quality: DataQuality,
}).meta({ id: 'MeterDataState' })
export type MeterDataState = z.infer<typeof MeterDataState>

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
  /** Missing and flagged readings of the period's meters (not on every call: see PeriodDataQuality). */
  data_quality: PeriodDataQuality.optional(),
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
  /** Not in the API's answer (the series answers carry it); scheduled reports read it (see PeriodDataQuality). */
  data_quality: PeriodDataQuality.optional(),
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

/** GET …/ratios: the query, a chart period (SPEC §9) by its kind and a local date in it. */
export const RatiosQuery = z.object({
  period: z.enum(PERIODS),
  /** A local calendar date "YYYY-MM-DD" inside the period, one that exists ({@link Day}). */
  date: Day,
})

/**
 * One period's energy figures: kWh totals and the Home Assistant ratios in percent (0–100, 1 decimal):
 * self_sufficiency = 1 − grid_import / consumption (null without consumption), self_consumption =
 * 1 − grid_export / pv_production (null without PV production). `start` and `end` (exclusive) are what
 * was summed: the period, cut at the clock's now while it runs.
 */
export const PeriodEnergy = z.object({
  start: z.string(),
  end: z.string(),
  consumption: z.number(),
  grid_import: z.number(),
  grid_export: z.number(),
  pv_production: z.number(),
  self_sufficiency: z.number().nullable(),
  self_consumption: z.number().nullable(),
}).meta({ id: 'PeriodEnergy' })

/**
 * GET …/ratios: the period against the previous one of the same kind (the day, week, month or year
 * before). While the period runs, both are compared over the same elapsed time (today until now against
 * yesterday until the same hour). `change`: ratios in percentage points, totals in percent of the previous
 * figure (null without a previous figure). Needs the overview switch (SPEC §6).
 */
export const RatiosAnswer = z.object({
  installation_id: z.number().int(),
  timezone: z.string(),
  period: z.enum(PERIODS),
  current: PeriodEnergy,
  previous: PeriodEnergy,
  /** True when the period runs (its end lies after now): both are cut at the same elapsed time. */
  partial: z.boolean(),
  change: z.object({
    consumption: z.number().nullable(),
    grid_import: z.number().nullable(),
    grid_export: z.number().nullable(),
    pv_production: z.number().nullable(),
    self_sufficiency: z.number().nullable(),
    self_consumption: z.number().nullable(),
  }),
})
export type RatiosAnswer = z.infer<typeof RatiosAnswer>
