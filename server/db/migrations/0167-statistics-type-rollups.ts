import { sql, type Kysely } from 'kysely'

/**
 * Rollups per installation and meter type, per 15 minutes and per local day (a year by month
 * of the demo read 10,560 daily rows of 34 meters per call, a year at 15 minutes 1.2 million 15-minute
 * rows, and 10 clients on month and year statistics queued on the embedded database's one connection
 * behind those reads). Whole-installation statistics sum meters by type only, so one row per bucket and
 * meter type answers them with about a quarter of the rows; statistics of some meters (a station, an
 * object, one meter) keep reading the per-meter tables.
 *
 * measurements_type_15m is kept from measurements_15m and measurements_type_1d from measurements_1d by
 * statement triggers on those tables, so whatever writes them (live readings, the backfill, the
 * rollup triggers of 0060/0061, a tariff's re-split, a time zone rebuild, the cascade of a deleted meter)
 * recomputes the (installation, bucket) pairs it touched from the per-meter rows; a meter moved to
 * another type or installation, or deleted, rebuilds its installations. `soc_last` is the last non-null
 * state of the bucket of the installation's battery meters (the lowest meter id when several have one).
 */
const TYPE_TABLES = [
  { table: 'measurements_type_15m', from: 'measurements_15m', high: false },
  { table: 'measurements_type_1d', from: 'measurements_1d', high: true },
] as const

/** The type rows of `from` per installation, bucket and type, for the meters and buckets `where` keeps (alias m, r). */
function grouped(t: (typeof TYPE_TABLES)[number], join: string, where: string) {
  return sql.raw(`
    INSERT INTO ${t.table} (installation_id, bucket, meter_type, energy_in_kwh, energy_out_kwh, volume_m3, soc_last${t.high ? ', energy_in_high_kwh' : ''})
      SELECT m.installation_id, r.bucket, m.meter_type, sum(r.energy_in_kwh), sum(r.energy_out_kwh), sum(r.volume_m3),
             (array_agg(r.soc_last ORDER BY r.meter_id) FILTER (WHERE r.soc_last IS NOT NULL))[1]${t.high ? ', sum(r.energy_in_high_kwh)' : ''}
      ${join}
      WHERE ${where}
      GROUP BY m.installation_id, r.bucket, m.meter_type`)
}

/**
 * Taken first by every recomputation, for each installation it touches, in id order, until the
 * transaction ends. A recomputation deletes the type rows and sums them again from the per-meter rows it
 * can see: on a Postgres server, two transactions writing meter values of one installation and bucket at
 * once (OCPP meter values of several charge points) each missed the other's uncommitted rows, and the
 * second insert failed on the primary key (found by ocpp-meters.test.ts on Postgres). Under the lock the
 * second waits for the first to commit, and its statements then see the first one's rows. A transaction-
 * level advisory lock (key: 1167, the installation id) is one lock for both tables, so they are always
 * taken in the same order; on PGlite's one connection it never waits.
 */
const lockInstallations = sql.raw(`FOR i IN SELECT DISTINCT x FROM unnest(insts) AS x WHERE x IS NOT NULL ORDER BY 1 LOOP
          PERFORM pg_advisory_xact_lock(1167, i);
        END LOOP;`)

export async function up(db: Kysely<any>): Promise<void> {
  for (const t of TYPE_TABLES) {
    await sql`
      CREATE TABLE ${sql.table(t.table)} (
        installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
        bucket timestamptz NOT NULL,
        meter_type text NOT NULL,
        energy_in_kwh double precision NOT NULL DEFAULT 0,
        energy_out_kwh double precision NOT NULL DEFAULT 0,
        volume_m3 double precision NOT NULL DEFAULT 0,
        soc_last double precision
        ${sql.raw(t.high ? ', energy_in_high_kwh double precision NOT NULL DEFAULT 0' : '')},
        PRIMARY KEY (installation_id, bucket, meter_type)
      )`.execute(db)
    // Recompute the type rows of the given (installation, bucket) pairs from the per-meter rows, under
    // the installations' type-rollup locks (lockInstallations).
    await sql`
      CREATE FUNCTION ${sql.raw(`${t.table}_touch`)}(insts integer[], buckets timestamptz[]) RETURNS void
      LANGUAGE plpgsql AS $$
      DECLARE
        i integer;
      BEGIN
        ${lockInstallations}
        DELETE FROM ${sql.table(t.table)} d USING (SELECT DISTINCT * FROM unnest(insts, buckets) AS c(inst, bucket)) t
          WHERE d.installation_id = t.inst AND d.bucket = t.bucket;
        ${grouped(t, `FROM (SELECT DISTINCT * FROM unnest(insts, buckets) AS c(inst, bucket)) t
          JOIN meters m ON m.installation_id = t.inst JOIN ${t.from} r ON r.meter_id = m.id AND r.bucket = t.bucket`, 'true')};
      END $$`.execute(db)
    // As 0165: planned for each call's arrays, not by a generic plan blind to their size.
    await sql`ALTER FUNCTION ${sql.raw(`${t.table}_touch`)}(integer[], timestamptz[]) SET plan_cache_mode = force_custom_plan`.execute(db)
    // An update may move a row to another meter or bucket: both its old and its new pair are recomputed.
    for (const [event, tables, rows] of [
      ['INSERT', 'NEW TABLE AS new_rows', 'SELECT meter_id, bucket FROM new_rows'],
      ['UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows', 'SELECT meter_id, bucket FROM new_rows UNION SELECT meter_id, bucket FROM old_rows'],
      ['DELETE', 'OLD TABLE AS old_rows', 'SELECT meter_id, bucket FROM old_rows'],
    ] as const) {
      const fn = `${t.table}_${event.toLowerCase()}`
      await sql`
        CREATE FUNCTION ${sql.raw(fn)}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM ${sql.raw(`${t.table}_touch`)}(array_agg(x.inst), array_agg(x.bucket))
          FROM (SELECT DISTINCT m.installation_id AS inst, c.bucket FROM (${sql.raw(rows)}) c JOIN meters m ON m.id = c.meter_id) x;
          RETURN NULL;
        END $$`.execute(db)
      await sql`
        CREATE TRIGGER ${sql.raw(`${fn}_trigger`)} AFTER ${sql.raw(event)} ON ${sql.table(t.from)}
        REFERENCING ${sql.raw(tables)} FOR EACH STATEMENT EXECUTE FUNCTION ${sql.raw(fn)}()`.execute(db)
    }
  }
  // Every type row of some installations, rebuilt from their meters' rows.
  await sql`
    CREATE FUNCTION measurements_type_rebuild(insts integer[]) RETURNS void
    LANGUAGE plpgsql AS $$
    DECLARE
      i integer;
    BEGIN
      ${lockInstallations}
      ${sql.join(TYPE_TABLES.map((t) => sql`DELETE FROM ${sql.table(t.table)} WHERE installation_id = ANY (insts);
        ${grouped(t, `FROM meters m JOIN ${t.from} r ON r.meter_id = m.id`, 'm.installation_id = ANY (insts)')};`), sql`\n`)}
    END $$`.execute(db)
  // A meter's type or installation decides which type rows its buckets count in. A deleted meter's rows
  // go by the cascade after the meter row, when the triggers above can no longer find its installation:
  // the meters' own statement trigger rebuilds the installations then.
  await sql`
    CREATE FUNCTION measurements_type_meters() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        PERFORM measurements_type_rebuild(array_agg(DISTINCT o.installation_id)) FROM old_meters o;
      ELSE
        PERFORM measurements_type_rebuild(array_agg(DISTINCT x.inst))
        FROM old_meters o JOIN new_meters n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES (o.installation_id), (n.installation_id)) AS x(inst)
        WHERE o.meter_type IS DISTINCT FROM n.meter_type OR o.installation_id IS DISTINCT FROM n.installation_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db)
  await sql`
    CREATE TRIGGER measurements_type_meters_delete AFTER DELETE ON meters
    REFERENCING OLD TABLE AS old_meters FOR EACH STATEMENT EXECUTE FUNCTION measurements_type_meters()`.execute(db)
  await sql`
    CREATE TRIGGER measurements_type_meters_update AFTER UPDATE ON meters
    REFERENCING OLD TABLE AS old_meters NEW TABLE AS new_meters FOR EACH STATEMENT EXECUTE FUNCTION measurements_type_meters()`.execute(db)
  // Rows stored before this migration.
  for (const t of TYPE_TABLES) await sql`${grouped(t, `FROM meters m JOIN ${t.from} r ON r.meter_id = m.id`, 'true')}`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER IF EXISTS measurements_type_meters_delete ON meters`.execute(db)
  await sql`DROP TRIGGER IF EXISTS measurements_type_meters_update ON meters`.execute(db)
  await sql`DROP FUNCTION IF EXISTS measurements_type_meters()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS measurements_type_rebuild(integer[])`.execute(db)
  for (const t of TYPE_TABLES) {
    for (const e of ['insert', 'update', 'delete']) {
      await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${t.table}_${e}_trigger`)} ON ${sql.table(t.from)}`.execute(db)
      await sql`DROP FUNCTION IF EXISTS ${sql.raw(`${t.table}_${e}`)}()`.execute(db)
    }
    await sql`DROP FUNCTION IF EXISTS ${sql.raw(`${t.table}_touch`)}(integer[], timestamptz[])`.execute(db)
    await sql`DROP TABLE IF EXISTS ${sql.table(t.table)}`.execute(db)
  }
}
