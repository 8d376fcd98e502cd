import { sql, type Kysely } from 'kysely'

/**
 * Hourly and daily rollups of the 15-minute aggregates per meter, in installation-local time
 * (docs/decisions.md "Statistics: rollups kept by triggers"), so statistics by hour, day, month and
 * year read 1/4 or 1/96 of the rows. A bucket is the local hour or local midnight as a timestamptz
 * (`date_trunc(unit, bucket, timezone)`, as the statistics query buckets), so a Zurich autumn day has
 * 25 hourly rows and the repeated hour two of them.
 *
 * Triggers on measurements_15m keep them exact whoever writes the aggregates (live readings, the
 * backfill, a test or a manual fix): every statement recomputes the hours and days it touched from the
 * rows below (recomputing, not adding, so an upsert or a rerun cannot count twice). A change of an
 * installation's timezone rebuilds its rollups. Retention thins only raw readings, never these.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const t of ['measurements_1h', 'measurements_1d']) {
    await sql`
      CREATE TABLE ${sql.table(t)} (
        meter_id integer NOT NULL REFERENCES meters(id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        energy_in_kwh double precision NOT NULL DEFAULT 0,
        energy_out_kwh double precision NOT NULL DEFAULT 0,
        volume_m3 double precision NOT NULL DEFAULT 0,
        soc_last double precision,
        PRIMARY KEY (meter_id, bucket)
      )`.execute(db)
  }
  // The last non-null state of charge, as the statistics take it from 15-minute rows.
  await sql`
    CREATE FUNCTION measurements_rollup_touch(touched_meters integer[], touched_buckets timestamptz[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM measurements_1h h USING (
          SELECT DISTINCT c.meter_id, date_trunc('hour', c.bucket, i.timezone) AS hour
          FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
          JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id) t
        WHERE h.meter_id = t.meter_id AND h.bucket = t.hour;
      INSERT INTO measurements_1h (meter_id, bucket, energy_in_kwh, energy_out_kwh, volume_m3, soc_last)
        SELECT t.meter_id, t.hour, sum(a.energy_in_kwh), sum(a.energy_out_kwh), sum(a.volume_m3),
               (array_agg(a.soc_last ORDER BY a.bucket DESC) FILTER (WHERE a.soc_last IS NOT NULL))[1]
        FROM (SELECT DISTINCT c.meter_id, date_trunc('hour', c.bucket, i.timezone) AS hour, i.timezone AS tz
              FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
              JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id) t
        JOIN measurements_15m a ON a.meter_id = t.meter_id AND a.bucket >= t.hour AND a.bucket < t.hour + interval '1 hour'
          AND date_trunc('hour', a.bucket, t.tz) = t.hour
        GROUP BY t.meter_id, t.hour;

      DELETE FROM measurements_1d d USING (
          SELECT DISTINCT c.meter_id, date_trunc('day', c.bucket, i.timezone) AS day
          FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
          JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id) t
        WHERE d.meter_id = t.meter_id AND d.bucket = t.day;
      INSERT INTO measurements_1d (meter_id, bucket, energy_in_kwh, energy_out_kwh, volume_m3, soc_last)
        SELECT t.meter_id, t.day, sum(h.energy_in_kwh), sum(h.energy_out_kwh), sum(h.volume_m3),
               (array_agg(h.soc_last ORDER BY h.bucket DESC) FILTER (WHERE h.soc_last IS NOT NULL))[1]
        FROM (SELECT DISTINCT c.meter_id, date_trunc('day', c.bucket, i.timezone) AS day, i.timezone AS tz
              FROM unnest(touched_meters, touched_buckets) AS c(meter_id, bucket)
              JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id) t
        JOIN measurements_1h h ON h.meter_id = t.meter_id AND h.bucket >= t.day AND h.bucket < t.day + interval '26 hours'
          AND date_trunc('day', h.bucket, t.tz) = t.day
        GROUP BY t.meter_id, t.day;
    END $$`.execute(db)
  // Transition tables need one trigger per event; each hands its rows to the function above.
  for (const [event, table] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
    const fn = `measurements_rollup_${event.toLowerCase()}`
    await sql`
      CREATE FUNCTION ${sql.raw(fn)}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM measurements_rollup_touch(array_agg(meter_id), array_agg(bucket)) FROM changed_rows;
        RETURN NULL;
      END $$`.execute(db)
    await sql`
      CREATE TRIGGER ${sql.raw(`${fn}_trigger`)} AFTER ${sql.raw(event)} ON measurements_15m
      REFERENCING ${sql.raw(table)} TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${sql.raw(fn)}()`.execute(db)
  }
  await sql`
    CREATE FUNCTION measurements_rollup_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM measurements_rollup_touch(array_agg(a.meter_id), array_agg(a.bucket))
      FROM measurements_15m a JOIN meters m ON m.id = a.meter_id WHERE m.installation_id = NEW.id;
      -- Buckets named in the old timezone that no longer exist in the new one.
      DELETE FROM measurements_1h h USING meters m
        WHERE m.id = h.meter_id AND m.installation_id = NEW.id AND date_trunc('hour', h.bucket, NEW.timezone) <> h.bucket;
      DELETE FROM measurements_1d d USING meters m
        WHERE m.id = d.meter_id AND m.installation_id = NEW.id AND date_trunc('day', d.bucket, NEW.timezone) <> d.bucket;
      RETURN NULL;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER measurements_rollup_timezone AFTER UPDATE OF timezone ON installations
    FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone) EXECUTE FUNCTION measurements_rollup_rebuild()`.execute(db)
  // Aggregates stored before this migration.
  await sql`
    SELECT measurements_rollup_touch(array_agg(meter_id), array_agg(bucket)) FROM measurements_15m`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS measurements_rollup_timezone ON installations`.execute(db)
  for (const e of ['insert', 'update', 'delete']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(`measurements_rollup_${e}_trigger`)} ON measurements_15m`.execute(db)
    await sql`DROP FUNCTION IF EXISTS ${sql.raw(`measurements_rollup_${e}`)}()`.execute(db)
  }
  await sql`DROP FUNCTION IF EXISTS measurements_rollup_rebuild()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS measurements_rollup_touch(integer[], timestamptz[])`.execute(db)
  await sql`DROP TABLE IF EXISTS measurements_1d`.execute(db)
  await sql`DROP TABLE IF EXISTS measurements_1h`.execute(db)
}
