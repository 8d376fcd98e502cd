import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { localDate, localMidnight } from '../../../shared/rules/granularity.ts'
import { QUALITY_FLAG_HOURS, type DataQuality } from '../../../shared/schemas/meters.ts'
import type { DataGap, FlaggedReading, MeterDataState, PeriodDataQuality } from '../../../shared/schemas/statistics.ts'
import type { Lang } from '../../lib/messages.ts'
import { reasonText } from '../ingest/reasons.ts'

const QUARTER_MS = 15 * 60_000
const HOUR_MS = 3600_000
const DAY_MS = 24 * HOUR_MS
/** At most this many flagged readings in an answer (the newest), and this many gaps (the earliest). */
const MAX_FLAGGED = 50
const MAX_GAPS = 200
/**
 * A meter whose newest reading is older than this is stale: the live power flow counts a meter's
 * reading for 5 minutes (measurements.latest), so past it the Power page would show its power as 0.
 */
export const STALE_AFTER_MS = 5 * 60_000

/**
 * Meter types whose readings arrive all the time, so a quarter hour without any is missing data. A
 * charging station's meter reports while it charges (OCPP MeterValues), its silence is no gap.
 */
const CONTINUOUS = sql`mt.meter_type <> 'charging_station'`

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * How finely gaps are found for a period of `lengthMs`: by the quarter hour up to 8 days (the 15-minute
 * rows), by the hour up to 62 days (hourly rollups), else by the installation-local day (daily rollups:
 * a year's gaps from ~365 rows per meter). `floor` and `next` give a bucket's start and the next one's
 * (local midnights for days, 23 to 25 h apart); `missing` the SQL interval past which buckets are apart.
 */
async function grainOf(db: Db, installationId: number, lengthMs: number) {
  if (lengthMs <= 62 * DAY_MS) {
    const step = lengthMs <= 8 * DAY_MS ? QUARTER_MS : HOUR_MS
    return {
      table: step === QUARTER_MS ? 'measurements_15m' : 'measurements_1h',
      missing: step === QUARTER_MS ? '15 minutes' : '1 hour',
      floor: (ms: number) => Math.floor(ms / step) * step,
      next: (ms: number) => ms + step,
    }
  }
  const { timezone: tz } = await db.selectFrom('installations').select('timezone').where('id', '=', installationId).executeTakeFirstOrThrow()
  const floor = (ms: number) => Date.parse(localMidnight(localDate(ms, tz), tz))
  return { table: 'measurements_1d', missing: '26 hours', floor, next: (ms: number) => floor(floor(ms) + 36 * HOUR_MS) }
}

/**
 * Where the readings of an installation's meters are missing or were set aside over [start, end)
 * (SPEC §2 statistics, §3 meter kinds; docs/decisions.md "Meters: gaps and flagged data"):
 * - `gaps`: per live meter other than a charging station's, each stretch [start, end) (UTC ISO 8601) of
 *   whole quarter hours without any reading, from the meter's first reading ever (a meter not yet
 *   reporting has no gap) up to the end or the quarter hour now runs in, whichever is first. Periods
 *   over 8 days are judged by the hour, over 62 days by the local day (grainOf). At most 200, earliest first.
 * - `flagged`: readings the data-quality checks set aside in the period (a register that went down or
 *   rose faster than the meter's maximum; kept 48 h as the raw readings are), newest first, at most 50.
 * `meterIds` narrows to those meters (none given: all of the installation). `nowMs`: the clock's now.
 */
export async function periodDataQuality(db: Db, installationId: number, start: Date, end: Date, nowMs: number, meterIds?: number[], lang: Lang = 'en'): Promise<PeriodDataQuality> {
  if (meterIds && !meterIds.length) return { gaps: [], flagged: [] }
  const g = await grainOf(db, installationId, end.getTime() - start.getTime())
  const from = g.floor(start.getTime())
  const until = Math.min(end.getTime(), g.floor(nowMs))
  const only = meterIds ? sql`and mt.id in (${sql.join(meterIds)})` : sql``
  const meters = await sql<{ id: number; name: string; meter_type: string; first: Date | null }>`
    select mt.id, mt.name, mt.meter_type, (select min(f.bucket) from measurements_15m f where f.meter_id = mt.id) as first
    from meters mt where mt.installation_id = ${installationId} and mt.archived_at is null and ${CONTINUOUS} ${only} order by mt.id`.execute(db)
  const gaps: DataGap[] = []
  const live = meters.rows.filter((m) => m.first !== null && new Date(m.first).getTime() < until)
  if (live.length && until > from) {
    const ids = live.map((m) => m.id)
    // Inside the period: each bucket after a missing one (lag), and each meter's first and last bucket.
    const { rows } = await sql<{ meter_id: number; bucket: Date; prev: Date | null; first_in: Date; last_in: Date }>`
      select meter_id, bucket, prev, first_in, last_in from (
        select a.meter_id, a.bucket, lag(a.bucket) over w as prev,
          min(a.bucket) over (partition by a.meter_id) as first_in, max(a.bucket) over (partition by a.meter_id) as last_in,
          row_number() over w as n
        from ${sql.table(g.table)} a
        where a.meter_id in (${sql.join(ids)}) and a.bucket >= ${new Date(from)} and a.bucket < ${new Date(until)}
        window w as (partition by a.meter_id order by a.bucket)) x
      where n = 1 or bucket > prev + ${sql.lit(g.missing)}::interval or bucket = last_in
      order by meter_id, bucket`.execute(db)
    const found = new Map<number, typeof rows>()
    for (const r of rows) found.set(r.meter_id, [...(found.get(r.meter_id) ?? []), r])
    for (const m of live) {
      const since = Math.max(from, g.floor(new Date(m.first!).getTime()))
      const add = (s: number, e: number) => {
        if (e > s) gaps.push({ meter_id: m.id, meter_name: m.name, meter_type: m.meter_type, start: iso(s), end: iso(e) })
      }
      const list = found.get(m.id)
      if (!list) {
        add(since, until)
        continue
      }
      add(since, new Date(list[0].first_in).getTime())
      for (const r of list) if (r.prev && new Date(r.bucket).getTime() > g.next(new Date(r.prev).getTime())) add(g.next(new Date(r.prev).getTime()), new Date(r.bucket).getTime())
      add(g.next(new Date(list[0].last_in).getTime()), until)
    }
  }
  gaps.sort((a, b) => a.start.localeCompare(b.start) || a.meter_id - b.meter_id)

  const flagged = await db.selectFrom('meter_readings as r').innerJoin('meters as mt', 'mt.id', 'r.meter_id')
    .select(['r.meter_id', 'mt.name', 'r.ts', 'r.measurand', 'r.flag'])
    .where('mt.installation_id', '=', installationId).where('r.flag', 'is not', null)
    .where('r.ts', '>=', start).where('r.ts', '<', end)
    .$if(!!meterIds, (q) => q.where('mt.id', 'in', meterIds!))
    .orderBy('r.ts', 'desc').limit(MAX_FLAGGED).execute()
  return {
    gaps: gaps.slice(0, MAX_GAPS),
    flagged: flagged.map((r): FlaggedReading => ({ meter_id: r.meter_id, meter_name: r.name, timestamp: new Date(r.ts).toISOString(), measurand: r.measurand, reason: reasonText(r.flag!, lang) })),
  }
}

/**
 * The data state of each live meter of an installation other than a charging station's, for the Power
 * page (SPEC §2) and wall displays: its source, newest reading and age in seconds, `stale` when
 * the newest reading is older than {@link STALE_AFTER_MS} (or there is none from a device), and
 * its data quality (`flagged` while its newest finding is under {@link QUALITY_FLAG_HOURS} hours old).
 */
export async function meterDataStates(db: Db, installationId: number, nowMs: number, lang: Lang = 'en'): Promise<MeterDataState[]> {
  const rows = await db.selectFrom('meters as mt').leftJoin('meter_status as s', 's.meter_id', 'mt.id')
    .select(['mt.id', 'mt.name', 'mt.meter_type', 'mt.source', 's.last_reading_at', 's.quality_reason', 's.quality_at'])
    .where('mt.installation_id', '=', installationId).where('mt.archived_at', 'is', null).where('mt.meter_type', '<>', 'charging_station')
    .orderBy('mt.id').execute()
  return rows.map((r) => {
    const last = r.last_reading_at ? new Date(r.last_reading_at).getTime() : null
    const at = r.quality_at ? new Date(r.quality_at).getTime() : null
    const quality: DataQuality = { state: at !== null && nowMs - at < QUALITY_FLAG_HOURS * HOUR_MS ? 'flagged' : 'ok', reason: r.quality_reason ? reasonText(r.quality_reason, lang) : null, at: at === null ? null : iso(at) }
    return {
      id: r.id, name: r.name, meter_type: r.meter_type, source: r.source,
      last_reading_at: last === null ? null : iso(last),
      age_s: last === null ? null : Math.max(0, Math.round((nowMs - last) / 1000)),
      stale: last === null || nowMs - last > STALE_AFTER_MS,
      data_quality: quality,
    }
  })
}
