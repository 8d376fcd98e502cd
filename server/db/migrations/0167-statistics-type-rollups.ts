import { sql, type Kysely } from 'kysely'

/**
 * Daily rollups per installation and meter type (issue 11: a year by month of the demo read 10,560 daily
 * rows of 34 meters per call, and 10 clients on month and year statistics queued on the embedded
 * database's one connection behind those reads). Whole-installation statistics sum meters by type only,
 * so one row per local day and meter type answers them with a quarter of the rows; statistics of some
 * meters (a station, an object, one meter) keep reading the per-meter rollups.
 *
 * Kept from measurements_1d by statement triggers on it, so whatever rewrites a daily rollup (the
 * 15-minute triggers of 0060/0061, a tariff's re-split, a time zone rebuild, the cascade of a deleted
 * meter) recomputes the (installation, day) pairs it touched from the per-meter rows; a meter moved to
 * another type or installation, or deleted, rebuilds its installations. `soc_last` is the last non-null state of
 * the day of the installation's battery meters (the lowest meter id when several end the day).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE measurements_type_1d (
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      bucket timestamptz NOT NULL,
      meter_type text NOT NULL,
      energy_in_kwh double precision NOT NULL DEFAULT 0,
      energy_out_kwh double precision NOT NULL DEFAULT 0,
      volume_m3 double precision NOT NULL DEFAULT 0,
      soc_last double precision,
      energy_in_high_kwh double precision NOT NULL DEFAULT 0,
      PRIMARY KEY (installation_id, bucket, meter_type)
    )`.execute(db)
  // Recompute the type rows of the given (installation, day) pairs from measurements_1d.
  await sql`
    CREATE FUNCTION measurements_type_rollup_touch(insts integer[], days timestamptz[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM measurements_type_1d d USING (SELECT DISTINCT * FROM unnest(insts, days) AS c(inst, day)) t
        WHERE d.installation_id = t.inst AND d.bucket = t.day;
      INSERT INTO measurements_type_1d (installation_id, bucket, meter_type, energy_in_kwh, energy_out_kwh, volume_m3, soc_last, energy_in_high_kwh)
        SELECT m.installation_id, r.bucket, m.meter_type, sum(r.energy_in_kwh), sum(r.energy_out_kwh), sum(r.volume_m3),
               (array_agg(r.soc_last ORDER BY r.meter_id) FILTER (WHERE r.soc_last IS NOT NULL))[1], sum(r.energy_in_high_kwh)
        FROM (SELECT DISTINCT * FROM unnest(insts, days) AS c(inst, day)) t
        JOIN meters m ON m.installation_id = t.inst
        JOIN measurements_1d r ON r.meter_id = m.id AND r.bucket = t.day
        GROUP BY m.installation_id, r.bucket, m.meter_type;
    END $$`.execute(db)
  // As 0165: planned for each call's arrays, not by a generic plan blind to their size.
  await sql`ALTER FUNCTION measurements_type_rollup_touch(integer[], timestamptz[]) SET plan_cache_mode = force_custom_plan`.execute(db)
  for (const [event, table] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
    const fn = `measurements_type_rollup_${event.toLowerCase()}`
    await sql`
      CREATE FUNCTION ${sql.raw(fn)}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM measurements_type_rollup_touch(array_agg(t.inst), array_agg(t.day))
        FROM (SELECT DISTINCT m.installation_id AS inst, c.bucket AS day FROM changed_rows c JOIN meters m ON m.id = c.meter_id) t;
        RETURN NULL;
      END $$`.execute(db)
    await sql`
      CREATE TRIGGER ${sql.raw(`${fn}_trigger`)} AFTER ${sql.raw(event)} ON measurements_1d
      REFERENCING ${sql.raw(table)} TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION ${sql.raw(fn)}()`.execute(db)
  }
  // Every type row of some installations, rebuilt from their meters' daily rollups.
  await sql`
    CREATE FUNCTION measurements_type_rollup_rebuild(insts integer[]) RETURNS void
    LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM measurements_type_1d WHERE installation_id = ANY (insts);
      INSERT INTO measurements_type_1d (installation_id, bucket, meter_type, energy_in_kwh, energy_out_kwh, volume_m3, soc_last, energy_in_high_kwh)
        SELECT m.installation_id, r.bucket, m.meter_type, sum(r.energy_in_kwh), sum(r.energy_out_kwh), sum(r.volume_m3),
               (array_agg(r.soc_last ORDER BY r.meter_id) FILTER (WHERE r.soc_last IS NOT NULL))[1], sum(r.energy_in_high_kwh)
        FROM meters m JOIN measurements_1d r ON r.meter_id = m.id
        WHERE m.installation_id = ANY (insts)
        GROUP BY m.installation_id, r.bucket, m.meter_type;
    END $$`.execute(db)
  // A meter's type or installation decides which type rows its days count in. A deleted meter's daily
  // rows go by the cascade after the meter row, when the 1d triggers can no longer find its
  // installation: the meters' own statement trigger rebuilds the installations then.
  await sql`
    CREATE FUNCTION measurements_type_rollup_meters() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM measurements_type_rollup_rebuild(array_agg(DISTINCT o.installation_id)) FROM old_meters o;
      ELSE
        PERFORM measurements_type_rollup_rebuild(array_agg(DISTINCT x.inst))
        FROM old_meters o JOIN new_meters n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.installation_id), (n.installation_id)) AS x(inst)
        WHERE o.meter_type IS DISTINCT FROM n.meter_type OR o.installation_id IS DISTINCT FROM n.installation_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER measurements_type_rollup_meters_delete AFTER DELETE ON meters
    REFERENCING OLD TABLE AS old_meters FOR EACH STATEMENT EXECUTE FUNCTION measurements_type_rollup_meters()`.execute(db)
  await sql`
    CREATE TRIGGER measurements_type_rollup_meters_update AFTER UPDATE ON meters
    REFERENCING OLD TABLE AS old_meters NEW TABLE AS new_meters FOR EACH STATEMENT EXECUTE FUNCTION measurements_type_rollup_meters()`.execute(db)
  // Daily rollups stored before this migration.
  await sql`
    INSERT INTO measurements_type_1d (installation_id, bucket, meter_type, energy_in_kwh, energy_out_kwh, volume_m3, soc_last, energy_in_high_kwh)
    SELECT m.installation_id, r.bucket, m.meter_type, sum(r.energy_in_kwh), sum(r.energy_out_kwh), sum(r.volume_m3),
           (array_agg(r.soc_last ORDER BY r.meter_id) FILTER (WHERE r.soc_last IS NOT NULL))[1], sum(r.energy_in_high_kwh)
    FROM measurements_1d r JOIN meters m ON m.id = r.meter_id
    GROUP BY m.installation_id, r.bucket, m.meter_type`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS measurements_type_rollup_meters_delete ON meters`.execute(db)
  await sql`DROP TRIGGER IF EXISTS measurements_type_rollup_meters_update ON meters`.execute(db)
  await sql`DROP FUNCTION IF EXISTS measurements_type_rollup_meters()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS measurements_type_rollup_rebuild(integer[])`.execute(db)
  for (const e of ['insert', 'update', 'delete']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(`measurements_type_rollup_${e}_trigger`)} ON measurements_1d`.execute(db)
    await sql`DROP FUNCTION IF EXISTS ${sql.raw(`measurements_type_rollup_${e}`)}()`.execute(db)
  }
  await sql`DROP FUNCTION IF EXISTS measurements_type_rollup_touch(integer[], timestamptz[])`.execute(db)
  await sql`DROP TABLE IF EXISTS measurements_type_1d`.execute(db)
}
