import { sql, type RawBuilder } from 'kysely'
import type { Db } from '../../db/connection.ts'
import type { Actor } from '../auth/service.ts'
import type { InstallationService } from '../installations/service.ts'
import { Forbidden, Invalid, NotFound, ServiceUnavailable } from '../../lib/errors.ts'
import { canRead, isAdmin, mayReadStation, objectLevel, type Access, type PermissionEntry } from '../../../shared/rules/permissions.ts'
import { localMidnight, type Granularity } from '../../../shared/rules/granularity.ts'
import { computeZevReport } from '../zev/service.ts'
import { createAnswerCache } from './answer-cache.ts'
import { periodDataQuality } from '../measurements/coverage.ts'
import type { PeriodDataQuality } from '../../../shared/schemas/statistics.ts'
import type { Clock } from '../../lib/clock.ts'
import type { Lang } from '../../lib/messages.ts'

/** One bucket of a series: its start (ISO-8601 with the installation's offset) and value. */
export interface Bucket {
  start: string
  value: number
}

/** A bucket of a state series (battery_soc, %): null when the bucket holds no reading. */
export interface StateBucket {
  start: string
  value: number | null
}

/**
 * GET …/battery/states: the answer with state buckets, and `average_soc`, the time-weighted average state
 * of charge (%) over [start, end): the mean of the quarter-hour readings, each standing for its 15
 * minutes, not of the buckets' last values; null without a reading.
 */
export interface BatteryStatesAnswer extends Omit<StatisticsAnswer, 'series'> {
  series: Record<string, StateBucket[]>
  average_soc: number | null
}

/**
 * A statistics answer: every series named in `series` with its unit in `units`. Buckets cover
 * [start, end) without gaps in installation-local time (empty ones are 0): a Europe/Zurich day has 23,
 * 24 or 25 hourly buckets. kW series are the exception: a bucket's average power over its quarter
 * hours with readings, and no bucket where there is none (a gap, the hours still to come).
 */
export interface StatisticsAnswer {
  installation_id: number
  timezone: string
  start: string
  end: string
  granularity: Granularity
  units: Record<string, string>
  series: Record<string, Bucket[]>
  /** Missing and flagged readings of the answer's meters (server/domain/measurements/coverage.ts). */
  data_quality?: PeriodDataQuality
}

/** /totals: the same series summed over [start, end) (kW series: the average over the quarter hours with readings). */
export interface TotalsAnswer {
  installation_id: number
  timezone: string
  start: string
  end: string
  units: Record<string, string>
  series: Record<string, number>
  /** Missing and flagged readings of the answer's meters (reports only: the series answers carry it for screens). */
  data_quality?: PeriodDataQuality
}

/**
 * A statistics query as the API takes it: `start` and `end` as ISO-8601 instants with offset or local
 * dates "YYYY-MM-DD" (installation-local midnight); end exclusive.
 */
export interface StatisticsParams {
  start: string
  end: string
  granularity: Granularity
  flow?: boolean
  flat?: boolean
  /** The language of the reasons in `data_quality` (the request's); English when left out. */
  lang?: Lang
}

/** A statistics query after resolving dates: instants, granularity and the `flow` / `flat` switches. */
interface StatisticsQuery {
  start: Date
  end: Date
  granularity: Granularity
  /** Add average power series (kW) beside the energies. */
  flow?: boolean
  /** Price costs at the tariff's flat price where it has one. */
  flat?: boolean
  lang?: Lang
}

/**
 * 15-minute buckets computed per statement at most (31 days): a longer answer is read in pieces, so no
 * statistics statement holds the embedded database's one connection for long (see computeSeries).
 */
export const PIECE_BUCKETS = 31 * 96

/** At most this many buckets per answer (a year of 15-minute buckets is 35,040); more is a 400 naming it. */
export const MAX_BUCKETS = 50_000

/**
 * How a series is computed from the 15-minute aggregates `a` joined with their meter `mt` (and `p.price`,
 * Rappen/kWh, when costs are asked for). `kind` decides how totals and flows treat it:
 * sum = energies, volumes and money; flow = kW, an energy sum divided by the hours with readings
 * (see coveredQuarters).
 */
interface SeriesDef {
  name: string
  unit: string
  kind: 'sum' | 'flow'
  expr: RawBuilder<unknown>
  /** Cost series: the meters whose energy is priced (the rollup path prices per bucket, not per row). */
  priced?: CostMeter
}
type CostMeter = 'main_power' | 'charging_station'
const COST_METERS: CostMeter[] = ['main_power', 'charging_station']

const type = (t: string) => sql`mt.meter_type = ${sql.lit(t)}`
const sumIn = (t: string) => sql`coalesce(sum(a.energy_in_kwh) filter (where ${type(t)}), 0)`
const sumOut = (t: string) => sql`coalesce(sum(a.energy_out_kwh) filter (where ${type(t)}), 0)`
const sumVol = (t: string) => sql`coalesce(sum(a.volume_m3) filter (where ${type(t)}), 0)`

const S = {
  grid_import: { name: 'grid_import', unit: 'kWh', kind: 'sum', expr: sumIn('main_power') },
  grid_export: { name: 'grid_export', unit: 'kWh', kind: 'sum', expr: sumOut('main_power') },
  pv_production: { name: 'pv_production', unit: 'kWh', kind: 'sum', expr: sumIn('pv') },
  own_consumption: { name: 'own_consumption', unit: 'kWh', kind: 'sum', expr: sql`greatest(${sumIn('pv')} - ${sumOut('main_power')}, 0)` },
  battery_charge: { name: 'battery_charge', unit: 'kWh', kind: 'sum', expr: sumIn('battery') },
  battery_discharge: { name: 'battery_discharge', unit: 'kWh', kind: 'sum', expr: sumOut('battery') },
  charging_stations: { name: 'charging_stations', unit: 'kWh', kind: 'sum', expr: sumIn('charging_station') },
  consumption: {
    name: 'consumption', unit: 'kWh', kind: 'sum',
    expr: sql`greatest(${sumIn('main_power')} + ${sumIn('pv')} + ${sumOut('battery')} - ${sumOut('main_power')} - ${sumIn('battery')}, 0)`,
  },
  heat: { name: 'heat', unit: 'kWh', kind: 'sum', expr: sumIn('heat') },
  cold_water: { name: 'cold_water', unit: 'm3', kind: 'sum', expr: sumVol('cold_water') },
  hot_water: { name: 'hot_water', unit: 'm3', kind: 'sum', expr: sumVol('hot_water') },
  // Grid energy costs what the installation pays for it: the power rate's purchase price (docs/zev-method.md
  // price table), the price the ZEV report passes grid kWh on at. Station energy costs the charging tariff,
  // the price its sessions are billed at.
  grid_cost: { name: 'cost', unit: 'CHF', kind: 'sum', priced: 'main_power', expr: sql`coalesce(sum(a.energy_in_kwh * pr.purchase) filter (where ${type('main_power')}), 0) / 100.0` },
  station_cost: { name: 'cost', unit: 'CHF', kind: 'sum', priced: 'charging_station', expr: sql`coalesce(sum(a.energy_in_kwh * p.price) filter (where ${type('charging_station')}), 0) / 100.0` },
  grid_flow: { name: 'grid_flow', unit: 'kW', kind: 'flow', expr: sql`${sumIn('main_power')} - ${sumOut('main_power')}` },
  pv_flow: { name: 'pv_flow', unit: 'kW', kind: 'flow', expr: sumIn('pv') },
  battery_charge_flow: { name: 'battery_charge_flow', unit: 'kW', kind: 'flow', expr: sumIn('battery') },
  battery_discharge_flow: { name: 'battery_discharge_flow', unit: 'kW', kind: 'flow', expr: sumOut('battery') },
  charging_stations_flow: { name: 'charging_stations_flow', unit: 'kW', kind: 'flow', expr: sumIn('charging_station') },
  // A flat's own electricity meter (meter type power): its consumption and average power.
  electricity: { name: 'electricity', unit: 'kWh', kind: 'sum', expr: sumIn('power') },
  electricity_flow: { name: 'electricity_flow', unit: 'kW', kind: 'flow', expr: sumIn('power') },
} satisfies Record<string, SeriesDef>

/** Where the 15-minute rows come from: an installation's meters, optionally only some of them. */
interface Scope {
  installationId: number
  tz: string
  meterIds?: number[]
}

const TRUNC: Record<Granularity, string> = { fifteen_minutes: '15 minutes', hour: 'hour', day: 'day', month: 'month' }

/**
 * Where aggregates are read from: the 15-minute rows or their hourly / daily rollups in installation-local
 * time (migration 0060, kept by triggers), each named with the granularity of its buckets.
 */
type Source = 'measurements_15m' | 'measurements_1h' | 'measurements_1d'
const GRAIN: Record<Source, Granularity> = { measurements_15m: 'fifteen_minutes', measurements_1h: 'hour', measurements_1d: 'day' }

/**
 * The coarsest table that answers [aligned start, end) by `g` exactly: daily rollups for
 * day and month when `end` is a local midnight, hourly ones when it is a local full hour, else the
 * 15-minute rows (start is always truncated to a bucket of `g`, so only `end` can cut a rollup bucket).
 */
function sourceFor(g: Granularity, end: Date, tz: string, rollups: boolean): Source {
  if (!rollups || g === 'fifteen_minutes') return 'measurements_15m'
  const local = localIso(end, tz)
  const onHour = local.slice(14, 19) === '00:00'
  if (onHour && g !== 'hour' && local.slice(11, 13) === '00') return 'measurements_1d'
  return onHour ? 'measurements_1h' : 'measurements_15m'
}

/** An instant column as ISO-8601 with the installation's offset, built in SQL once per bucket. */
function localLabel(col: RawBuilder<unknown>, tz: string) {
  const off = sql`(extract(epoch from (${col} at time zone ${tz}) - (${col} at time zone 'UTC'))::int / 60)`
  return sql<string>`to_char(${col} at time zone ${tz}, 'YYYY-MM-DD"T"HH24:MI:SS')
    || case when ${off} < 0 then '-' else '+' end
    || lpad((abs(${off}) / 60)::text, 2, '0') || ':' || lpad((abs(${off}) % 60)::text, 2, '0')`
}
// To 4 decimals via 9: sums of sums (rollups) and direct sums differ in the last bits of a double, which
// must not flip a value lying on a half (0.79695 → 0.797 both ways).
const round = (x: number) => Math.round(Math.round(x * 1e9) / 1e5) / 10_000

/** Start of the bucket containing `start`, in installation-local time (Postgres expression). */
function alignedStart(g: Granularity, start: Date, tz: string) {
  return g === 'fifteen_minutes'
    ? sql`date_bin('15 minutes', ${start}::timestamptz, '2000-01-01T00:00:00Z'::timestamptz)`
    : sql`date_trunc(${TRUNC[g]}, ${start}::timestamptz, ${tz})`
}

/** The bucket an aggregate of `src` falls in. */
function bucketKey(g: Granularity, tz: string, src: Source) {
  return g === GRAIN[src] ? sql`a.bucket` : sql`date_trunc(${TRUNC[g]}, a.bucket, ${tz})`
}

/** All bucket starts of [aligned start, end): absolute steps below a day, local calendar steps above. */
function bucketSeries(g: Granularity, start: Date, end: Date, tz: string) {
  const s = alignedStart(g, start, tz)
  if (g === 'fifteen_minutes' || g === 'hour') {
    return sql`select g as start from generate_series(${s}, ${end}::timestamptz - interval '1 microsecond', ${sql.lit(g === 'hour' ? '1 hour' : '15 minutes')}::interval) g`
  }
  return sql`select (g at time zone ${tz}) as start
    from generate_series(${s} at time zone ${tz}, (${end}::timestamptz at time zone ${tz}) - interval '1 microsecond', ${sql.lit(g === 'day' ? '1 day' : '1 month')}::interval) g`
}

/**
 * True when the 15-minute bucket starting at `at` lies in a high-tariff entry of `schedule` (local
 * weekday and minute; an end at or before the start runs to midnight), as shared/rules/tariff.ts
 * isHighTariff and migration 0061's tariff_is_high.
 */
function inHighSlot(schedule: RawBuilder<unknown>, at: RawBuilder<unknown>, tz: string) {
  const minute = sql`(extract(hour from ${at} at time zone ${tz}) * 60 + extract(minute from ${at} at time zone ${tz}))`
  const startMin = sql`(split_part(e ->> 'start', ':', 1)::int * 60 + split_part(e ->> 'start', ':', 2)::int)`
  const endMin = sql`(split_part(e ->> 'end', ':', 1)::int * 60 + split_part(e ->> 'end', ':', 2)::int)`
  return sql`exists (
    select 1 from jsonb_array_elements(${schedule}) e
    where (e ->> to_char(${at} at time zone ${tz}, 'FMday'))::int = 1
      and ${minute} >= ${startMin}
      and ${minute} < case when ${endMin} <= ${startMin} then 1440 else ${endMin} end)`
}

/** Meter types whose quarter hours count as "time with data" for kW series (coveredQuarters). */
const POWER_TYPES = sql`mt.meter_type in ('main_power', 'pv', 'battery', 'charging_station', 'power')`

/**
 * The installation's tariff in force on each local date of [aligned start, end) (latest valid_from, as
 * priceJoin), one row per `day` that has one: a hash join instead of a lookup per bucket.
 */
function dayTariffs(installationId: number, g: Granularity, start: Date, end: Date, tz: string) {
  return sql`select distinct on (d.day) d.day, t.flat, t.flat_rappen_per_kwh, t.high_rappen_per_kwh, t.low_rappen_per_kwh, t.schedule
    from (select g::date as day from generate_series((${alignedStart(g, start, tz)} at time zone ${tz})::date, (${end}::timestamptz at time zone ${tz})::date, interval '1 day') g) d
    join tariffs t on t.installation_id = ${installationId} and t.valid_from <= d.day and (t.valid_to is null or t.valid_to >= d.day)
    order by d.day, t.valid_from desc`
}

/**
 * Tariff price (Rappen/kWh) of a 15-minute bucket `a.bucket`: the tariff in force on its local date
 * (latest valid_from), high when the local weekday and minute fall in a schedule entry (an end at or
 * before the start runs to midnight, as shared/rules/tariff.ts), else low; a flat tariff (or `flat`) takes the flat price
 * where the tariff has one.
 */
function priceJoin(installationId: number, tz: string, flat: boolean) {
  return sql`left join lateral (
    select case
      when (${flat} or t.flat) and t.flat_rappen_per_kwh is not null then t.flat_rappen_per_kwh
      when ${inHighSlot(sql`t.schedule`, sql`a.bucket`, tz)} then t.high_rappen_per_kwh
      else t.low_rappen_per_kwh end as price
    from tariffs t
    where t.installation_id = ${installationId}
      and t.valid_from <= (a.bucket at time zone ${tz})::date
      and (t.valid_to is null or t.valid_to >= (a.bucket at time zone ${tz})::date)
    order by t.valid_from desc limit 1
  ) p on true`
}

/**
 * Grid purchase price (Rappen/kWh) of a bucket `a.bucket`: the power rate in force on its local date
 * (latest start_date ≤ date, end_date empty or ≥ date), its `main_power_purchase`; 0 without one. The
 * same rule as server/domain/zev/service.ts `ratePrices`.
 */
function purchaseJoin(installationId: number, tz: string) {
  return sql`left join lateral (
    select coalesce((r.prices ->> 'main_power_purchase')::numeric, 0) as purchase
    from rates r
    where r.installation_id = ${installationId} and r.kind = 'power' and r.start_date is not null
      and r.start_date <= (a.bucket at time zone ${tz})::date
      and (r.end_date is null or r.end_date >= (a.bucket at time zone ${tz})::date)
    order by r.start_date desc limit 1
  ) pr on true`
}

/**
 * The grid purchase price (Rappen/kWh) in force on each local date of [aligned start, end), as
 * purchaseJoin, one row per `day`: the rollup path's hash join.
 */
function dayPurchases(installationId: number, g: Granularity, start: Date, end: Date, tz: string) {
  // A join picked per day by distinct on, as dayTariffs: a subquery per day was most of a year by month.
  return sql`select distinct on (d.day) d.day, coalesce((r.prices ->> 'main_power_purchase')::numeric, 0) as purchase
    from (select g::date as day from generate_series((${alignedStart(g, start, tz)} at time zone ${tz})::date, (${end}::timestamptz at time zone ${tz})::date, interval '1 day') g) d
    left join rates r on r.installation_id = ${installationId} and r.kind = 'power' and r.start_date is not null
      and r.start_date <= d.day and (r.end_date is null or r.end_date >= d.day)
    order by d.day, r.start_date desc`
}

/**
 * Statistics from the 15-minute aggregates, computed in Postgres. Rights: every call
 * passes `installations.access`; without the overview switch only the caller's readable charging
 * stations are shown, and costs need the cost switch (SPEC §6).
 *
 * Each query reads the coarsest table that answers it exactly (sourceFor): hourly or daily rollups,
 * or the 15-minute rows; costs come from the same table, priced per bucket (pricedBuckets).
 * `rollups: false` forces the 15-minute rows and per-value labels of the design without rollups (the
 * benchmark compares against it; env STATS_ROLLUPS=off). `pieceBuckets`: see {@link PIECE_BUCKETS}; env
 * STATS_PIECES=off reads every answer in one statement (the benchmark's comparison). `clock` gives the
 * ZEV report's "now" (intervals up to it may miss data; ARCHITECTURE §1 "Time").
 */
export function createStatisticsService({ db, clock, installations, rollups = process.env.STATS_ROLLUPS !== 'off', pieceBuckets = process.env.STATS_PIECES === 'off' ? Infinity : PIECE_BUCKETS }: { db: Db; clock: Clock; installations: InstallationService; rollups?: boolean; pieceBuckets?: number }) {
  let stopped = false
  function checkRange(q: StatisticsQuery) {
    if (!(q.end.getTime() > q.start.getTime())) throw new Invalid({ end: ['statisticsEndBeforeStart'] })
    const minutes = { fifteen_minutes: 15, hour: 60, day: 1440, month: 43_200 }[q.granularity]
    if ((q.end.getTime() - q.start.getTime()) / 60_000 / minutes > MAX_BUCKETS) throw new Invalid({ granularity: ['statisticsBucketLimit'] }, { limit: MAX_BUCKETS })
  }

  function from(scope: Scope, q: StatisticsQuery, src: Source, withCost: boolean) {
    // The whole installation by 15 minutes or day: its rows per meter type (migration 0167), about a
    // quarter of the per-meter rows; `mt` names the row's own type, so every series expression reads it unchanged.
    const byType = src === 'measurements_15m' ? 'measurements_type_15m' : src === 'measurements_1d' ? 'measurements_type_1d' : null
    if (rollups && byType && !scope.meterIds && !withCost) {
      return sql`from ${sql.table(byType)} a cross join lateral (select a.meter_type as meter_type) mt
        where a.installation_id = ${scope.installationId}
          and a.bucket >= ${alignedStart(q.granularity, q.start, scope.tz)} and a.bucket < ${q.end}::timestamptz`
    }
    const meters = scope.meterIds ? (scope.meterIds.length ? sql`and mt.id in (${sql.join(scope.meterIds)})` : sql`and false`) : sql``
    const rows = sql`from ${sql.table(src)} a
      join meters mt on mt.id = a.meter_id
      where mt.installation_id = ${scope.installationId} ${meters}
        and a.bucket >= ${alignedStart(q.granularity, q.start, scope.tz)} and a.bucket < ${q.end}::timestamptz`
    if (!withCost) return rows
    return sql`from ${sql.table(src)} a join meters mt on mt.id = a.meter_id ${priceJoin(scope.installationId, scope.tz, !!q.flat)} ${purchaseJoin(scope.installationId, scope.tz)}
      where mt.installation_id = ${scope.installationId} ${meters}
        and a.bucket >= ${alignedStart(q.granularity, q.start, scope.tz)} and a.bucket < ${q.end}::timestamptz`
  }

  const isCost = (d: SeriesDef) => d.name === 'cost'

  /**
   * Cost columns `v<i>` (CHF) per source bucket `a.bucket`, for the rollup path. The cost
   * meters' energy is first summed per source bucket, then priced once per bucket: a 15-minute bucket at
   * its tariff price (priceJoin), an hourly or daily rollup with its high-tariff share (migration 0061) at
   * the high and low prices of the tariff in force on its local date, or all of it at the flat price. The
   * direct path (`rollups: false`) prices every 15-minute meter row instead; both give the same sums.
   */
  function pricedBuckets(scope: Scope, q: StatisticsQuery, src: Source, defs: SeriesDef[], perBucket?: RawBuilder<unknown>) {
    const e = (t: CostMeter) => sql.ref(`e_${t}`)
    const h = (t: CostMeter) => sql.ref(`h_${t}`)
    const sums = COST_METERS.flatMap((t) => [
      sql`coalesce(sum(a.energy_in_kwh) filter (where ${type(t)}), 0) as ${e(t)}`,
      ...(src === 'measurements_15m' ? [] : [sql`coalesce(sum(a.energy_in_high_kwh) filter (where ${type(t)}), 0) as ${h(t)}`]),
    ])
    const energy = perBucket ?? sql`select a.bucket, ${sql.join(sums)} ${from(scope, q, src, false)} and mt.meter_type in ('main_power', 'charging_station') group by a.bucket`
    const flat = sql`(${!!q.flat} or t.flat) and t.flat_rappen_per_kwh is not null`
    // Grid energy at the day's purchase price (docs/zev-method.md), station energy at the charging tariff.
    const cost = (m: CostMeter) =>
      m === 'main_power'
        ? sql`coalesce(sum(a.${e(m)} * r.purchase), 0) / 100.0`
        : src === 'measurements_15m'
        ? sql`coalesce(sum(a.${e(m)} * case when ${flat} then t.flat_rappen_per_kwh
            when ${inHighSlot(sql`t.schedule`, sql`a.bucket`, scope.tz)} then t.high_rappen_per_kwh else t.low_rappen_per_kwh end), 0) / 100.0`
        : sql`coalesce(sum(case when ${flat} then a.${e(m)} * t.flat_rappen_per_kwh
            else a.${h(m)} * t.high_rappen_per_kwh + (a.${e(m)} - a.${h(m)}) * t.low_rappen_per_kwh end), 0) / 100.0`
    const price = sql`left join (${dayTariffs(scope.installationId, q.granularity, q.start, q.end, scope.tz)}) t on t.day = (a.bucket at time zone ${scope.tz})::date
      left join (${dayPurchases(scope.installationId, q.granularity, q.start, q.end, scope.tz)}) r on r.day = (a.bucket at time zone ${scope.tz})::date`
    return { energy, price, columns: columns(defs, isCost, (d) => cost(d.priced!)) }
  }

  /** Sources of the plain series and of the cost series (the 15-minute rows on the direct path). */
  function sources(scope: Scope, q: StatisticsQuery, defs: SeriesDef[]): { src: Source; costSrc: Source | null } {
    const src = sourceFor(q.granularity, q.end, scope.tz, rollups)
    return { src, costSrc: defs.some(isCost) ? src : null }
  }

  /** The `cagg` relation: cost columns `v<i>` per bucket `start` of `key` (or one row when `key` is null). */
  function costAggregate(scope: Scope, q: StatisticsQuery, src: Source, defs: SeriesDef[], key: RawBuilder<unknown> | null, perBucket?: RawBuilder<unknown>) {
    if (!rollups) {
      const costs = columns(defs, isCost)
      return key ? sql`select ${key} as start, ${sql.join(costs)} ${from(scope, q, src, true)} group by 1` : sql`select ${sql.join(costs)} ${from(scope, q, src, true)}`
    }
    const p = pricedBuckets(scope, q, src, defs, perBucket)
    return key
      ? sql`select ${key} as start, ${sql.join(p.columns)} from (${p.energy}) a ${p.price} group by 1`
      : sql`select ${sql.join(p.columns)} from (${p.energy}) a ${p.price}`
  }

  /** `<expr> as v<i>` of the defs `pick` selects, keeping each def's index in `defs` as its column name. */
  const columns = (defs: SeriesDef[], pick: (d: SeriesDef) => boolean, expr: (d: SeriesDef) => RawBuilder<unknown> = (d) => d.expr) =>
    defs.flatMap((d, i) => (pick(d) ? [sql`${expr(d)} as ${sql.ref(`v${i}`)}`] : []))

  type SeriesBody = Omit<StatisticsAnswer, 'installation_id' | 'timezone'>
  // Not on the direct path: the benchmark compares against the design without rollups as it was.
  const cache = createAnswerCache<SeriesBody>(db, (a) => Object.values(a.series).reduce((n, s) => n + s.length, 0))

  /** A series answer, kept while its period's data stand (answer-cache.ts): the same scope, query and series. */
  async function series(scope: Scope, q: StatisticsQuery, defs: SeriesDef[]): Promise<SeriesBody> {
    checkRange(q)
    if (!rollups) return computeSeries(scope, q, defs)
    const key = JSON.stringify([
      scope.installationId, scope.tz, scope.meterIds ?? null, q.start.toISOString(), q.end.toISOString(), q.granularity, !!q.flat,
      defs.map((d) => {
        const c = d.expr.compile(db)
        return [d.name, d.unit, d.kind, d.priced ?? null, c.sql, c.parameters]
      }),
    ])
    // The first bucket starts at `start` truncated to the granularity: up to a month before it.
    const aligned = new Date(q.start.getTime() - { fifteen_minutes: 15, hour: 60, day: 1440, month: 32 * 1440 }[q.granularity] * 60_000)
    return cache.get(key, scope.installationId, aligned, q.end, () => computeSeries(scope, q, defs))
  }

  /**
   * A long 15-minute answer in pieces of at most `pieceBuckets` buckets, one statement each, joined in
   * order (a year at 15 minutes was one statement of ~2 s on the embedded database's only
   * connection, and every other request, the relay's polls and the simulator's writes waited behind it).
   * Between pieces the connection goes back to the pool, whose queue is first come first served, so a
   * statement that arrived meanwhile waits for one piece at most. Pieces start on the 15-minute grid
   * (alignedStart's date_bin origin, 2000-01-01 UTC, is on it), so each bucket and each flow's duration
   * (up to the next bucket's start) is the one the whole period gives.
   * Once `stop()` was called (the server shuts down) no further piece is started: the answer fails with
   * ServiceUnavailable (503, SPEC §8), so a year in flight holds the database for one piece
   * more at most instead of through the shutdown's grace.
   */
  async function computeSeries(scope: Scope, q: StatisticsQuery, defs: SeriesDef[]): Promise<SeriesBody> {
    const step = pieceBuckets * 15 * 60_000
    const first = Math.floor(q.start.getTime() / (15 * 60_000)) * 15 * 60_000
    if (!rollups || q.granularity !== 'fifteen_minutes' || q.end.getTime() - first <= step) return computePiece(scope, q, defs)
    const pieces: SeriesBody[] = []
    for (let t = first; t < q.end.getTime(); t += step) {
      if (stopped) throw ServiceUnavailable()
      pieces.push(await computePiece(scope, { ...q, start: new Date(t), end: new Date(Math.min(t + step, q.end.getTime())) }, defs))
    }
    const series: Record<string, Bucket[]> = {}
    for (const name of Object.keys(pieces[0].series)) series[name] = pieces.flatMap((p) => p.series[name])
    return { ...pieces[0], end: localIso(q.end, scope.tz), series }
  }

  async function computePiece(scope: Scope, q: StatisticsQuery, defs: SeriesDef[]): Promise<SeriesBody> {
    const { src, costSrc } = sources(scope, q, defs)
    const key = (s: Source) => bucketKey(q.granularity, scope.tz, s)
    const plain = columns(defs, (d) => !isCost(d))
    // 15-minute buckets from the 15-minute rows: `agg` already groups by bucket, so it also sums the cost
    // meters' energy and the costs are priced from it, instead of a second scan of the rows.
    const costFromAgg = rollups && costSrc === 'measurements_15m' && src === costSrc && q.granularity === 'fifteen_minutes'
    if (costFromAgg) plain.push(...COST_METERS.map((t) => sql`coalesce(sum(a.energy_in_kwh) filter (where ${type(t)}), 0) as ${sql.ref(`e_${t}`)}`))
    const perBucket = costFromAgg ? sql`select agg.start as bucket, ${sql.join(COST_METERS.map((t) => sql.ref(`agg.e_${t}`)))} from agg` : undefined
    // kW series: the bucket's energy over its quarter hours with readings (a gap or the hours still to
    // come are not 0 kW); a bucket without any has no point (SPEC §2 Charts, docs/decisions.md).
    const flows = defs.some((d) => d.kind === 'flow')
    const outer = defs.map((d, i) => {
      const ref = sql.ref(`${isCost(d) ? 'cagg' : 'agg'}.v${i}`)
      return d.kind === 'flow'
        ? sql`case when cov.quarters > 0 then coalesce(${ref}, 0) / (cov.quarters * 0.25) end as ${sql.ref(`v${i}`)}`
        : sql`coalesce(${ref}, 0) as ${sql.ref(`v${i}`)}`
    })
    // The rollup path reads only the SQL label: a timestamptz column would be parsed into a Date per bucket.
    const { rows } = await sql<Record<string, unknown> & { start: Date; label: string }>`
      with b as (${bucketSeries(q.granularity, q.start, q.end, scope.tz)}),
      agg as (select ${key(src)} as start ${plain.length ? sql`, ${sql.join(plain)}` : sql``}
        ${from(scope, q, src, false)} group by 1)
      ${costSrc ? sql`, cagg as (${costAggregate(scope, q, costSrc, defs, key(costSrc), perBucket)})` : sql``}
      ${flows ? sql`, cov as (${coveredQuarters(scope, q, key('measurements_15m'))})` : sql``}
      select ${localLabel(sql`b.start`, scope.tz)} as label ${rollups ? sql`` : sql`, b.start`} ${outer.length ? sql`, ${sql.join(outer)}` : sql``}
      from b left join agg on agg.start = b.start ${costSrc ? sql`left join cagg on cagg.start = b.start` : sql``}
        ${flows ? sql`left join cov on cov.start = b.start` : sql``}
      order by b.start`.execute(db)
    const out: Record<string, Bucket[]> = {}
    const units: Record<string, string> = {}
    defs.forEach((d, i) => {
      units[d.name] = d.unit
      const v = `v${i}`
      const kept = d.kind === 'flow' ? rows.filter((r) => r[v] != null) : rows
      out[d.name] = rollups
        ? kept.map((r) => ({ start: r.label, value: round(Number(r[v])) }))
        : kept.map((r) => ({ start: localIso(new Date(r.start), scope.tz), value: round(Number(r[v])) }))
    })
    return { start: rows[0] ? rows[0].label : localIso(q.start, scope.tz), end: localIso(q.end, scope.tz), granularity: q.granularity, units, series: out }
  }

  /**
   * The quarter hours with readings of the scope's power meters (POWER_TYPES), as `quarters` per `key`
   * bucket (`start`), or one row when `key` is null: the time kW series divide their energy by.
   */
  function coveredQuarters(scope: Scope, q: StatisticsQuery, key: RawBuilder<unknown> | null) {
    const rows = sql`${from(scope, q, 'measurements_15m', false)} and ${POWER_TYPES}`
    return key
      ? sql`select ${key} as start, count(distinct a.bucket) as quarters ${rows} group by 1`
      : sql`select count(distinct a.bucket) as quarters ${rows}`
  }

  async function totals(scope: Scope, q: StatisticsQuery, defs: SeriesDef[]): Promise<Omit<TotalsAnswer, 'installation_id' | 'timezone'>> {
    checkRange(q)
    const { src, costSrc } = sources(scope, q, defs)
    const start = alignedStart(q.granularity, q.start, scope.tz)
    // kW: the period's energy over its hours with readings (coveredQuarters); 0 without any.
    const hours = sql`nullif((${coveredQuarters(scope, q, null)}) * 0.25, 0)`
    const perHour = (d: SeriesDef) => (d.kind === 'flow' ? sql`(${d.expr}) / ${hours}` : d.expr)
    const plain = columns(defs, (d) => !isCost(d), perHour)
    const { rows } = await sql<Record<string, unknown> & { start: Date }>`
      select ${start} as start, agg.*, cagg.*
      from (select count(*) as n ${plain.length ? sql`, ${sql.join(plain)}` : sql``} ${from(scope, q, src, false)}) agg
      cross join (${costSrc ? costAggregate(scope, q, costSrc, defs, null) : sql`select null as c`}) cagg`.execute(db)
    const row = rows[0]
    const units: Record<string, string> = {}
    const values: Record<string, number> = {}
    defs.forEach((d, i) => {
      units[d.name] = d.unit
      values[d.name] = round(Number(row?.[`v${i}`] ?? 0))
    })
    return { start: localIso(new Date(row.start), scope.tz), end: localIso(q.end, scope.tz), units, series: values }
  }

  async function context(actor: Actor, installationId: number) {
    const access = await installations.access(actor, installationId)
    const inst = await installations.describe(installationId)
    return { access, tz: inst.timezone }
  }

  const instant = (v: string, tz: string) => new Date(/^\d{4}-\d{2}-\d{2}$/.test(v) ? localMidnight(v, tz) : v)
  const resolve = (p: StatisticsParams, tz: string): StatisticsQuery => ({ ...p, start: instant(p.start, tz), end: instant(p.end, tz) })

  /** Meter ids of the charging stations `access` may read (undefined = all of the installation). */
  async function stationMeters(access: Access, installationId: number, only?: number[]): Promise<number[]> {
    let q = db.selectFrom('charging_stations').select(['id', 'meter_id']).where('installation_id', '=', installationId)
    if (only) q = q.where('id', 'in', only.length ? only : [0])
    const rows = await q.orderBy('id').execute()
    return rows.filter((r) => mayReadStation(access, r.id)).map((r) => r.meter_id)
  }

  /** The installation series a caller may see (see the service docstring). */
  function installationDefs(access: Access, q: StatisticsQuery): SeriesDef[] {
    if (!access.overview) return [S.charging_stations, ...(q.flow ? [S.charging_stations_flow] : [])]
    const defs: SeriesDef[] = [S.consumption, S.grid_import, S.grid_export, S.pv_production, S.own_consumption, S.battery_charge, S.battery_discharge, S.charging_stations, S.heat, S.cold_water, S.hot_water]
    if (access.cost) defs.push(S.grid_cost)
    if (q.flow) defs.push(S.grid_flow, S.pv_flow, S.battery_charge_flow, S.battery_discharge_flow, S.charging_stations_flow)
    return defs
  }

  async function installationScope(actor: Actor, installationId: number, p: StatisticsParams) {
    const { access, tz } = await context(actor, installationId)
    const q = resolve(p, tz)
    const scope: Scope = { installationId, tz }
    if (!access.overview) scope.meterIds = await stationMeters(access, installationId)
    return { scope, q, access, defs: installationDefs(access, q) }
  }

  /** Meter ids hanging in object `objectId` or below it; 404 when it is not in the installation. */
  async function subtreeMeters(installationId: number, objectId: number, types: string[]): Promise<number[]> {
    const objects = await db.selectFrom('objects').select(['id', 'parent_object_id']).where('installation_id', '=', installationId).execute()
    if (!objects.some((o) => o.id === objectId)) throw NotFound()
    const ids = new Set([objectId])
    for (let grew = true; grew; ) {
      grew = false
      for (const o of objects) if (o.parent_object_id != null && ids.has(o.parent_object_id) && !ids.has(o.id)) (ids.add(o.id), (grew = true))
    }
    const meters = await db.selectFrom('meters').select('id').where('installation_id', '=', installationId)
      .where('object_id', 'in', [...ids]).where('meter_type', 'in', types as never[]).execute()
    return meters.map((m) => m.id)
  }

  /** 403 unless the caller may read object `objectId` (admins always; users by their object entries). */
  async function requireObject(actor: Actor, access: Access, installationId: number, objectId: number) {
    const exists = await db.selectFrom('objects').select('id').where('installation_id', '=', installationId).where('id', '=', objectId).executeTakeFirst()
    if (!exists) throw NotFound()
    if (isAdmin(access.role)) return
    const [entries, objects] = await Promise.all([
      db.selectFrom('permissions').select(['object_type', 'object_id', 'level', 'cost', 'overview']).where('user_id', '=', actor.id).where('installation_id', '=', installationId).execute(),
      db.selectFrom('objects').select(['id', 'parent_object_id']).where('installation_id', '=', installationId).execute(),
    ])
    const level = objectLevel(objectId, new Map(objects.map((o) => [o.id, o.parent_object_id])), entries as PermissionEntry[])
    if (!canRead(level)) throw Forbidden()
  }

  /**
   * The meter `meterId` of the installation if the caller may read it (SPEC §6, the rule the
   * installation view lists meters by, server/domain/objects/service.ts): admins every meter; others a
   * station's meter when they may read the station, main meters (main power, PV, battery) only with
   * the overview switch, other meters with the overview switch or a readable object. 404 when the
   * installation has no such meter, 403 when the caller may not read it.
   */
  async function requireMeter(actor: Actor, access: Access, installationId: number, meterId: number) {
    const m = await db.selectFrom('meters').select(['id', 'name', 'meter_type', 'object_id']).where('installation_id', '=', installationId).where('id', '=', meterId).executeTakeFirst()
    if (!m) throw NotFound()
    if (isAdmin(access.role)) return m
    if (m.meter_type === 'charging_station') {
      const st = await db.selectFrom('charging_stations').select('id').where('installation_id', '=', installationId).where('meter_id', '=', m.id).executeTakeFirst()
      if (!st || !mayReadStation(access, st.id)) throw Forbidden()
      return m
    }
    if (access.overview) return m
    if (m.meter_type === 'main_power' || m.meter_type === 'pv' || m.meter_type === 'battery' || m.object_id == null) throw Forbidden()
    await requireObject(actor, access, installationId, m.object_id)
    return m
  }

  /** The series of one meter by its type (kWh or m3; kW with `flow`; CHF under the cost switch where priced). */
  function meterDefs(type: string, access: Access, q: StatisticsQuery): SeriesDef[] {
    const flow = (...d: SeriesDef[]) => (q.flow ? d : [])
    switch (type) {
      case 'main_power': return [S.grid_import, S.grid_export, ...(access.cost ? [S.grid_cost] : []), ...flow(S.grid_flow)]
      case 'pv': return [S.pv_production, ...flow(S.pv_flow)]
      case 'battery': return [S.battery_charge, S.battery_discharge, ...flow(S.battery_charge_flow, S.battery_discharge_flow)]
      case 'power': return [S.electricity, ...flow(S.electricity_flow)]
      case 'heat': return [S.heat]
      case 'cold_water': return [S.cold_water]
      case 'hot_water': return [S.hot_water]
      default: return [S.charging_stations, ...(access.cost ? [S.station_cost] : []), ...flow(S.charging_stations_flow)]
    }
  }

  const wrap = <T extends object>(installationId: number, tz: string, body: T) => ({ installation_id: installationId, timezone: tz, ...body })

  /** Meter types behind each section's series (SPEC §2 statistics sections). */
  const SECTION_TYPES = { electrical: ['main_power', 'pv', 'battery', 'charging_station'], water: ['cold_water', 'hot_water'], heat: ['heat'] } as const

  /**
   * Missing and flagged readings over the query's period (coverage.ts periodDataQuality) of the scope's
   * meters, narrowed to `types` when given. Computed apart from the kept answers: a gap up to now grows
   * with the clock while the stored data stand still.
   */
  async function quality(scope: Scope, q: StatisticsQuery, types?: readonly string[]): Promise<PeriodDataQuality> {
    let ids = scope.meterIds
    if (types) {
      const rows = await db.selectFrom('meters').select('id').where('installation_id', '=', scope.installationId).where('meter_type', 'in', types as never[]).execute()
      ids = rows.map((r) => r.id).filter((id) => !scope.meterIds || scope.meterIds.includes(id))
    }
    return periodDataQuality(db, scope.installationId, q.start, q.end, clock.ms(), ids, q.lang)
  }

  return {
    /** Shutdown: long answers start no further piece (computeSeries) and fail with 503. */
    stop() {
      stopped = true
    },

    /** GET /api/statistics/{installation_id}: the installation's series by bucket. */
    async installation(actor: Actor, installationId: number, p: StatisticsParams): Promise<StatisticsAnswer> {
      const { scope, q, defs } = await installationScope(actor, installationId, p)
      const [body, data_quality] = await Promise.all([series(scope, q, defs), quality(scope, q)])
      return wrap(installationId, scope.tz, { ...body, data_quality })
    },

    /** GET /api/statistics/{installation_id}/totals: the same series summed over the range. */
    async totals(actor: Actor, installationId: number, p: StatisticsParams): Promise<TotalsAnswer> {
      const { scope, q, defs } = await installationScope(actor, installationId, p)
      return wrap(installationId, scope.tz, await totals(scope, q, defs))
    },

    /** GET …/flow: average power per bucket (kW): grid (+ import / − export), PV, battery, stations. */
    async flow(actor: Actor, installationId: number, p: StatisticsParams): Promise<StatisticsAnswer> {
      const { scope, q, access } = await installationScope(actor, installationId, p)
      const defs = access.overview ? [S.grid_flow, S.pv_flow, S.battery_charge_flow, S.battery_discharge_flow, S.charging_stations_flow] : [S.charging_stations_flow]
      const [body, data_quality] = await Promise.all([series(scope, q, defs), quality(scope, q, SECTION_TYPES.electrical)])
      return wrap(installationId, scope.tz, { ...body, data_quality })
    },

    /**
     * GET …/battery/states: battery state of charge (%) per bucket as its time-weighted average
     * (`battery_soc`, the mean of the quarter-hour readings, each standing for its 15 minutes) with the
     * bucket's lowest and highest reading (`battery_soc_min`, `battery_soc_max`), each null without a
     * reading; charge and discharge (kWh); and the period's time-weighted average state (see
     * BatteryStatesAnswer). Needs overview.
     */
    async batteryStates(actor: Actor, installationId: number, p: StatisticsParams): Promise<BatteryStatesAnswer> {
      const { access, tz } = await context(actor, installationId)
      const q = resolve(p, tz)
      if (!access.overview) throw Forbidden()
      const answer = wrap(installationId, tz, await series({ installationId, tz }, q, [S.battery_charge, S.battery_discharge]))
      // From the 15-minute rows: the rollups keep only each hour's and day's last reading.
      const { rows } = await sql<{ label: string; avg: number | string | null; min: number | string | null; max: number | string | null }>`
        with b as (${bucketSeries(q.granularity, q.start, q.end, tz)}),
        s as (select ${bucketKey(q.granularity, tz, 'measurements_15m')} as start, avg(a.soc_last) as avg, min(a.soc_last) as min, max(a.soc_last) as max
          from measurements_15m a join meters mt on mt.id = a.meter_id
          where mt.installation_id = ${installationId} and mt.meter_type = 'battery' and a.soc_last is not null
            and a.bucket >= ${alignedStart(q.granularity, q.start, tz)} and a.bucket < ${q.end}::timestamptz
          group by 1)
        select ${localLabel(sql`b.start`, tz)} as label, s.avg, s.min, s.max from b left join s on s.start = b.start order by b.start`.execute(db)
      const state = (k: 'avg' | 'min' | 'max'): StateBucket[] => rows.map((r) => ({ start: r.label, value: r[k] == null ? null : round(Number(r[k])) }))
      const avg = await db.selectFrom('measurements_15m as a').innerJoin('meters as mt', 'mt.id', 'a.meter_id')
        .where('mt.installation_id', '=', installationId).where('mt.meter_type', '=', 'battery').where('a.soc_last', 'is not', null)
        .where('a.bucket', '>=', q.start).where('a.bucket', '<', q.end)
        .select((eb) => eb.fn.avg<number | string | null>('a.soc_last').as('soc')).executeTakeFirst()
      return {
        ...answer,
        units: { battery_soc: '%', battery_soc_min: '%', battery_soc_max: '%', ...answer.units },
        series: { battery_soc: state('avg'), battery_soc_min: state('min'), battery_soc_max: state('max'), ...answer.series },
        average_soc: avg?.soc != null ? round(Number(avg.soc)) : null,
      }
    },

    /**
     * GET …/heat/{object_id} (kWh), …/water/{object_id} (m3) and …/object/{object_id} (electricity,
     * heat, water, stations): meters in the object and below it.
     */
    async ofObject(actor: Actor, installationId: number, objectId: number, p: StatisticsParams, what: 'heat' | 'water' | 'all'): Promise<StatisticsAnswer> {
      const { access, tz } = await context(actor, installationId)
      const q = resolve(p, tz)
      await requireObject(actor, access, installationId, objectId)
      // A flat's charts: its electricity, heat and water, and the stations hanging in it.
      const types = what === 'heat' ? ['heat'] : what === 'water' ? ['cold_water', 'hot_water'] : ['power', 'heat', 'cold_water', 'hot_water', 'charging_station']
      const meterIds = await subtreeMeters(installationId, objectId, types)
      const defs = what === 'heat' ? [S.heat] : what === 'water' ? [S.cold_water, S.hot_water] : [S.electricity, S.heat, S.cold_water, S.hot_water, S.charging_stations]
      const [body, data_quality] = await Promise.all([series({ installationId, tz, meterIds }, q, defs), quality({ installationId, tz, meterIds }, q)])
      return wrap(installationId, tz, { ...body, data_quality })
    },

    /** GET …/charging_station/{id}: one station's energy (kWh), with its cost (CHF) under the cost switch. */
    async station(actor: Actor, installationId: number, stationId: number, p: StatisticsParams): Promise<StatisticsAnswer> {
      const { access, tz } = await context(actor, installationId)
      const q = resolve(p, tz)
      const row = await db.selectFrom('charging_stations').select(['id', 'meter_id']).where('installation_id', '=', installationId).where('id', '=', stationId).executeTakeFirst()
      if (!row) throw NotFound()
      if (!mayReadStation(access, row.id)) throw Forbidden()
      const defs: SeriesDef[] = [S.charging_stations, ...(access.cost ? [S.station_cost] : []), ...(q.flow ? [S.charging_stations_flow] : [])]
      return wrap(installationId, tz, await series({ installationId, tz, meterIds: [row.meter_id] }, q, defs))
    },

    /**
     * GET …/meter/{meter_id}: one meter's own series by its type (see meterDefs), with
     * `meter` {id, name, meter_type}; rights as requireMeter.
     */
    async meter(actor: Actor, installationId: number, meterId: number, p: StatisticsParams): Promise<StatisticsAnswer & { meter: { id: number; name: string; meter_type: string } }> {
      const { access, tz } = await context(actor, installationId)
      const q = resolve(p, tz)
      const m = await requireMeter(actor, access, installationId, meterId)
      const [body, data_quality] = await Promise.all([series({ installationId, tz, meterIds: [m.id] }, q, meterDefs(m.meter_type, access, q)), quality({ installationId, tz, meterIds: [m.id] }, q)])
      return { ...wrap(installationId, tz, { ...body, data_quality }), meter: { id: m.id, name: m.name, meter_type: m.meter_type } }
    },

    /**
     * GET …/object/charging_stations (and …/charging_station): one series per readable station, named
     * `station_<id>` (kWh).
     */
    async perStation(actor: Actor, installationId: number, p: StatisticsParams): Promise<StatisticsAnswer & { names: Record<string, string> }> {
      const { access, tz } = await context(actor, installationId)
      const q = resolve(p, tz)
      const rows = (await db.selectFrom('charging_stations').select(['id', 'meter_id', 'name']).where('installation_id', '=', installationId).orderBy('id').execute())
        .filter((r) => mayReadStation(access, r.id))
      const defs: SeriesDef[] = rows.map((r) => ({ name: `station_${r.id}`, unit: 'kWh', kind: 'sum', expr: sql`coalesce(sum(a.energy_in_kwh) filter (where mt.id = ${sql.lit(r.meter_id)}), 0)` }))
      const body = await series({ installationId, tz, meterIds: rows.map((r) => r.meter_id) }, q, defs)
      return { ...wrap(installationId, tz, body), names: Object.fromEntries(rows.map((r) => [`station_${r.id}`, r.name])) }
    },

    /** GET …/{section}: electrical (overview), water or heat for the whole installation (overview). */
    async section(actor: Actor, installationId: number, section: 'electrical' | 'water' | 'heat', p: StatisticsParams): Promise<StatisticsAnswer> {
      const { access, tz } = await context(actor, installationId)
      const q = resolve(p, tz)
      if (!access.overview) throw Forbidden()
      const defs: SeriesDef[] =
        section === 'water' ? [S.cold_water, S.hot_water]
        : section === 'heat' ? [S.heat]
        : [S.consumption, S.grid_import, S.grid_export, S.pv_production, S.own_consumption, S.battery_charge, S.battery_discharge, S.charging_stations, ...(access.cost ? [S.grid_cost] : [])]
      const [body, data_quality] = await Promise.all([series({ installationId, tz }, q, defs), quality({ installationId, tz }, q, SECTION_TYPES[section])])
      return wrap(installationId, tz, { ...body, data_quality })
    },

    /**
     * GET …/zev: the ZEV report of [start, end) (docs/zev-method.md). `series` gives the
     * facility inputs by bucket; `allocation` the participants (flats, the building, stations) in a
     * stable order with kWh by source and, under the cost switch, their CHF by the installation's model;
     * `zev` the model, cap, missing-data count and total row (its CHF under the cost switch). Needs the
     * overview switch.
     */
    async zev(actor: Actor, installationId: number, p: StatisticsParams) {
      const { access, tz } = await context(actor, installationId)
      if (!access.overview) throw Forbidden()
      const q = resolve(p, tz)
      checkRange({ ...q, granularity: 'fifteen_minutes' })
      const body = await series({ installationId, tz }, q, [S.consumption, S.pv_production, S.grid_import, S.grid_export, S.battery_charge, S.battery_discharge])
      const report = await computeZevReport(db, installationId, tz, q.start, q.end, clock.now())
      const money = ['grid_chf', 'internal_chf', 'standard_chf', 'capped', 'cost_chf'] as const
      const strip = <T extends object>(r: T): T => (access.cost ? r : (Object.fromEntries(Object.entries(r).filter(([k]) => !(money as readonly string[]).includes(k))) as T))
      const summary = access.cost ? report.summary : { ...report.summary, feed_in_revenue_chf: undefined, total: strip(report.summary.total) }
      return { ...wrap(installationId, tz, body), allocation: report.rows.map(strip), zev: summary }
    },

    /**
     * For scheduled reports (no caller, no rights check; the report's owner chose the recipients):
     * totals of a section over [start, end) and, for ZEV, the allocation with costs.
     */
    async reportTotals(installationId: number, section: 'electrical' | 'water' | 'heat', start: Date, end: Date) {
      const inst = await installations.describe(installationId)
      const defs: SeriesDef[] = section === 'water' ? [S.cold_water, S.hot_water] : section === 'heat' ? [S.heat]
        : [S.consumption, S.grid_import, S.grid_export, S.pv_production, S.own_consumption, S.battery_charge, S.battery_discharge, S.charging_stations, S.grid_cost]
      const scope = { installationId, tz: inst.timezone }
      const q: StatisticsQuery = { start, end, granularity: 'day' }
      const [body, data_quality] = await Promise.all([totals(scope, q, defs), quality(scope, q, SECTION_TYPES[section])])
      return { ...body, data_quality }
    },
    async reportZev(installationId: number, start: Date, end: Date) {
      const inst = await installations.describe(installationId)
      checkRange({ start, end, granularity: 'fifteen_minutes' })
      return computeZevReport(db, installationId, inst.timezone, start, end, clock.now())
    },
  }
}
export type StatisticsService = ReturnType<typeof createStatisticsService>

/** An instant as ISO-8601 with the installation's offset, e.g. "2026-03-29T03:00:00+02:00". */
export function localIso(d: Date, tz: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(d)
  const p = Object.fromEntries(parts.map((x) => [x.type, x.value]))
  const local = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second)
  const off = Math.round((local - Math.floor(d.getTime() / 1000) * 1000) / 60_000)
  const sign = off >= 0 ? '+' : '-'
  const hh = String(Math.floor(Math.abs(off) / 60)).padStart(2, '0')
  const mm = String(Math.abs(off) % 60).padStart(2, '0')
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}${sign}${hh}:${mm}`
}
