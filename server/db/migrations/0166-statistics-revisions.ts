import { sql, type Kysely } from 'kysely'

/**
 * What a statistics answer was computed from, so an answer can be kept until that changes (
 * 10 clients on month and year statistics queued on the embedded database's one connection).
 *
 * `statistics_changes` holds, per installation and installation-local day (`day`, the local midnight),
 * the revision of the last write to its 15-minute aggregates; `day = '-infinity'` stands for everything
 * of the installation: its meters, tariffs (prices too), rates or time zone changed. Revisions come
 * from one counter row (`statistics_revision`), taken under its row lock in the writing transaction, so
 * they grow in commit order on Postgres as on PGlite: the highest revision over a period's days (and
 * '-infinity') grows with every change that can alter an answer for that period. The live simulator
 * writes today's quarter hour, which leaves answers about earlier days valid.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE statistics_revision (id integer PRIMARY KEY CHECK (id = 1), revision bigint NOT NULL)`.execute(db)
  await sql`INSERT INTO statistics_revision (id, revision) VALUES (1, 1)`.execute(db)
  // No foreign key: rows written while an installation's meters are deleted with it must not fail.
  await sql`
    CREATE TABLE statistics_changes (
      installation_id integer NOT NULL,
      day timestamptz NOT NULL,
      revision bigint NOT NULL,
      PRIMARY KEY (installation_id, day)
    )`.execute(db)
  // One function for the three statement triggers: each names its transition table changed_rows.
  await sql`
    CREATE FUNCTION statistics_changed_rows() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      WITH r AS (UPDATE statistics_revision SET revision = revision + 1 WHERE id = 1 RETURNING revision)
      INSERT INTO statistics_changes (installation_id, day, revision)
        SELECT DISTINCT m.installation_id, date_trunc('day', c.bucket, i.timezone), r.revision
        FROM changed_rows c JOIN meters m ON m.id = c.meter_id JOIN installations i ON i.id = m.installation_id CROSS JOIN r
        ON CONFLICT (installation_id, day) DO UPDATE SET revision = excluded.revision;
      RETURN NULL;
    END $$`.execute(db)
  for (const [event, table] of [['INSERT', 'NEW'], ['UPDATE', 'NEW'], ['DELETE', 'OLD']] as const) {
    await sql`
      CREATE TRIGGER ${sql.raw(`statistics_changes_${event.toLowerCase()}`)} AFTER ${sql.raw(event)} ON measurements_15m
      REFERENCING ${sql.raw(table)} TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION statistics_changed_rows()`.execute(db)
  }
  // Everything of an installation: its id is `installation_id` of the row, or `id` on installations.
  await sql`
    CREATE FUNCTION statistics_changed_installation() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      insts integer[];
    BEGIN
      IF TG_TABLE_NAME = 'installations' THEN insts := ARRAY[NEW.id];
      ELSIF TG_OP = 'INSERT' THEN insts := ARRAY[NEW.installation_id];
      ELSIF TG_OP = 'DELETE' THEN insts := ARRAY[OLD.installation_id];
      ELSE insts := ARRAY[NEW.installation_id, OLD.installation_id];
      END IF;
      WITH r AS (UPDATE statistics_revision SET revision = revision + 1 WHERE id = 1 RETURNING revision)
      INSERT INTO statistics_changes (installation_id, day, revision)
        SELECT DISTINCT u.x, '-infinity'::timestamptz, r.revision FROM r, unnest(insts) AS u(x)
        ON CONFLICT (installation_id, day) DO UPDATE SET revision = excluded.revision;
      RETURN NULL;
    END $$`.execute(db)
  for (const [table, events] of [
    ['tariffs', 'INSERT OR UPDATE OR DELETE'],
    ['rates', 'INSERT OR UPDATE OR DELETE'],
    ['meters', 'INSERT OR UPDATE OR DELETE'],
    ['installations', 'UPDATE OF timezone'],
  ] as const) {
    await sql`
      CREATE TRIGGER ${sql.raw(`${table}_statistics_changes`)} AFTER ${sql.raw(events)} ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION statistics_changed_installation()`.execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['tariffs', 'rates', 'meters', 'installations']) {
    await sql`DROP TRIGGER IF EXISTS ${sql.raw(`${table}_statistics_changes`)} ON ${sql.table(table)}`.execute(db)
  }
  for (const e of ['insert', 'update', 'delete']) await sql`DROP TRIGGER IF EXISTS ${sql.raw(`statistics_changes_${e}`)} ON measurements_15m`.execute(db)
  await sql`DROP FUNCTION IF EXISTS statistics_changed_installation()`.execute(db)
  await sql`DROP FUNCTION IF EXISTS statistics_changed_rows()`.execute(db)
  await sql`DROP TABLE IF EXISTS statistics_changes`.execute(db)
  await sql`DROP TABLE IF EXISTS statistics_revision`.execute(db)
}
