import { sql, type Kysely } from 'kysely'
import * as rollups0060 from './0060-statistics-rollups.ts'

/**
 * High-tariff share of the hourly and daily rollups (costs from rollups). Costs were priced
 * per 15-minute bucket from the tariff grid on every call (profiled: most of "a year by day"); a
 * bucket's price is the high or low price of the tariff in force on its local date, so a rollup that
 * keeps `energy_in_high_kwh`, the part of `energy_in_kwh` that fell in high-tariff quarter hours, is
 * priced per rollup row: high × high price + (all − high) × low price, or all × flat price.
 *
 * Prices are not stored, only which quarter hours were high, so changing a price costs nothing; a
 * change of a tariff's schedule, validity or installation recomputes the split from the earliest
 * local day it can affect (a new tariff valid from today touches nothing stored). High or low follows
 * shared/rules/tariff.ts isHighTariff, in installation-local time, as the statistics' per-bucket price.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const t of ['measurements_1h', 'measurements_1d']) {
    await sql`ALTER TABLE ${sql.table(t)} ADD COLUMN energy_in_high_kwh double precision NOT NULL DEFAULT 0`.execute(db)
  }
  // True when the 15-minute bucket starting at `b` is in high tariff under the installation's tariff in
  // force on its local date (latest valid_from); false without a tariff (its price is then none at all).
  await sql`
    CREATE FUNCTION tariff_is_high(inst integer, tz text, b timestamptz) RETURNS boolean
    LANGUAGE sql STABLE AS $$
      SELECT coalesce((
        SELECT EXISTS (
          SELECT 1 FROM jsonb_array_elements(t.schedule) e
          WHERE (e ->> to_char(b AT TIME ZONE tz, 'FMday'))::int = 1
            AND extract(hour FROM b AT TIME ZONE tz) * 60 + extract(minute FROM b AT TIME ZONE tz)
                >= split_part(e ->> 'start', ':', 1)::int * 60 + split_part(e ->> 'start', ':', 2)::int
            AND extract(hour FROM b AT TIME ZONE tz) * 60 + extract(minute FROM b AT TIME ZONE tz)
                < CASE WHEN split_part(e ->> 'end', ':', 1)::int * 60 + split_part(e ->> 'end', ':', 2)::int
                            <= split_part(e ->> 'start', ':', 1)::int * 60 + split_part(e ->> 'start', ':', 2)::int
                       THEN 1440 ELSE split_part(e ->> 'end', ':', 1)::int * 60 + split_part(e ->> 'end', ':', 2)::int END)
        FROM tariffs t
        WHERE t.installation_id = inst
          AND t.valid_from <= (b AT TIME ZONE tz)::date
          AND (t.valid_to IS NULL OR t.valid_to >= (b AT TIME ZONE tz)::date)
        ORDER BY t.valid_from DESC LIMIT 1), false)
    $$`.execute(db)
  // As in 0060, plus the high share; the tariff test runs once per distinct 15-minute bucket and
  // installation, not per meter row.
  await sql`
    CREATE OR REPLACE FUNCTION measurements_rollup_touch(touched_meters integer[], touched_buckets timestamptz[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM measurements_1h h USING (
          SELECT DISTINCT c.meter_id, date_trunc('hour', c.bucket, i.timezone) AS hour
          FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
          JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id) t
        WHERE h.meter_id = t.meter_id AND h.bucket = t.hour;
      WITH t AS (
          SELECT DISTINCT c.meter_id, date_trunc('hour', c.bucket, i.timezone) AS hour, i.timezone AS tz, i.id AS inst
          FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
          JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id),
        r AS MATERIALIZED (
          SELECT t.meter_id, t.hour, t.inst, t.tz, a.bucket, a.energy_in_kwh, a.energy_out_kwh, a.volume_m3, a.soc_last
          FROM t JOIN measurements_15m a ON a.meter_id = t.meter_id AND a.bucket >= t.hour AND a.bucket < t.hour + interval '1 hour'
            AND date_trunc('hour', a.bucket, t.tz) = t.hour),
        hi AS MATERIALIZED (
          SELECT q.inst, q.bucket, tariff_is_high(q.inst, q.tz, q.bucket) AS high FROM (SELECT DISTINCT inst, tz, bucket FROM r) q)
      INSERT INTO measurements_1h (meter_id, bucket, energy_in_kwh, energy_out_kwh, volume_m3, soc_last, energy_in_high_kwh)
        SELECT r.meter_id, r.hour, sum(r.energy_in_kwh), sum(r.energy_out_kwh), sum(r.volume_m3),
               (array_agg(r.soc_last ORDER BY r.bucket DESC) FILTER (WHERE r.soc_last IS NOT NULL))[1],
               coalesce(sum(r.energy_in_kwh) FILTER (WHERE hi.high), 0)
        FROM r JOIN hi ON hi.inst = r.inst AND hi.bucket = r.bucket
        GROUP BY r.meter_id, r.hour;

      DELETE FROM measurements_1d d USING (
          SELECT DISTINCT c.meter_id, date_trunc('day', c.bucket, i.timezone) AS day
          FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
          JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id) t
        WHERE d.meter_id = t.meter_id AND d.bucket = t.day;
      INSERT INTO measurements_1d (meter_id, bucket, energy_in_kwh, energy_out_kwh, volume_m3, soc_last, energy_in_high_kwh)
        SELECT t.meter_id, t.day, sum(h.energy_in_kwh), sum(h.energy_out_kwh), sum(h.volume_m3),
               (array_agg(h.soc_last ORDER BY h.bucket DESC) FILTER (WHERE h.soc_last IS NOT NULL))[1],
               sum(h.energy_in_high_kwh)
        FROM (SELECT DISTINCT c.meter_id, date_trunc('day', c.bucket, i.timezone) AS day, i.timezone AS tz
              FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
              JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id) t
        JOIN measurements_1h h ON h.meter_id = t.meter_id AND h.bucket >= t.day AND h.bucket < t.day + interval '26 hours'
          AND date_trunc('day', h.bucket, t.tz) = t.day
        GROUP BY t.meter_id, t.day;
    END $$`.execute(db)
  // The split of an installation's rollups from local day `from_day` on, recomputed after a tariff change.
  await sql`
    CREATE FUNCTION measurements_rollup_retariff(inst integer, from_day date) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM measurements_rollup_touch(array_agg(a.meter_id), array_agg(a.bucket))
      FROM measurements_15m a JOIN meters m ON m.id = a.meter_id JOIN installations i ON i.id = m.installation_id
      WHERE m.installation_id = inst AND a.bucket >= (from_day::timestamp AT TIME ZONE i.timezone);
    END $$`.execute(db)
  // Which tariff is in force on a day depends on all of the installation's tariffs, so a change can
  // only move days from the earlier of its old and new valid_from on.
  await sql`
    CREATE FUNCTION tariffs_rollup_retariff() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      -- A form that saves every field (a price edit) changes nothing stored.
      IF TG_OP = 'UPDATE' AND (OLD.schedule, OLD.valid_from, OLD.valid_to, OLD.installation_id)
          IS NOT DISTINCT FROM (NEW.schedule, NEW.valid_from, NEW.valid_to, NEW.installation_id) THEN
        RETURN NULL;
      END IF;
      IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM measurements_rollup_retariff(OLD.installation_id, OLD.valid_from); END IF;
      IF TG_OP IN ('UPDATE', 'INSERT') AND (TG_OP = 'INSERT' OR NEW.installation_id <> OLD.installation_id OR NEW.valid_from < OLD.valid_from) THEN
        PERFORM measurements_rollup_retariff(NEW.installation_id, NEW.valid_from);
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER tariffs_rollup_retariff_trigger AFTER INSERT OR DELETE OR UPDATE OF schedule, valid_from, valid_to, installation_id ON tariffs
    FOR EACH ROW EXECUTE FUNCTION tariffs_rollup_retariff()`.execute(db)
  // Rollups stored before this migration.
  await sql`SELECT measurements_rollup_touch(array_agg(meter_id), array_agg(bucket)) FROM measurements_15m`.execute(db)
}

/** Back to 0060: its rollups rebuilt without the split (0060's touch reads no tariff). */
export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS tariffs_rollup_retariff_trigger ON tariffs`.execute(db)
  await sql`DROP FUNCTION IF EXISTS tariffs_rollup_retariff()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS measurements_rollup_retariff(integer, date)`.execute(db)
  await rollups0060.down(db)
  await sql`DROP FUNCTION IF EXISTS tariff_is_high(integer, text, timestamptz)`.execute(db)
  await rollups0060.up(db)
}
