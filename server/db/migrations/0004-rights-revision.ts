import { sql, type Kysely } from 'kysely'

/**
 * A global rights revision, bumped by triggers whenever anything that decides what a user may see
 * changes (permissions, memberships, RFID ownership, the object tree, station placement, user state).
 * The relay polls this one number and re-checks open streams only when it moved, so its upstream
 * requests do not grow with the number of watching users. Column lists keep the simulator's
 * station state writes and login timestamps from bumping it.
 */
const TRIGGERS: [table: string, events: string][] = [
  ['permissions', 'INSERT OR UPDATE OR DELETE'],
  ['installation_users', 'INSERT OR UPDATE OR DELETE'],
  ['rfids', 'INSERT OR DELETE OR UPDATE OF user_id, active'],
  ['objects', 'INSERT OR DELETE OR UPDATE OF parent_object_id'],
  ['charging_stations', 'INSERT OR DELETE OR UPDATE OF object_id'],
  ['users', 'DELETE OR UPDATE OF is_active, is_superuser, sessions_valid_after'],
]

export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE rights_revision (id integer PRIMARY KEY CHECK (id = 1), revision bigint NOT NULL)`.execute(db)
  await sql`INSERT INTO rights_revision (id, revision) VALUES (1, 1)`.execute(db)
  await sql.raw(`CREATE FUNCTION bump_rights_revision() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE rights_revision SET revision = revision + 1 WHERE id = 1; RETURN NULL; END $$`).execute(db)
  for (const [table, events] of TRIGGERS) {
    await sql.raw(`CREATE TRIGGER ${table}_rights_revision AFTER ${events} ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_revision()`).execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const [table] of TRIGGERS) await sql.raw(`DROP TRIGGER ${table}_rights_revision ON ${table}`).execute(db)
  await sql`DROP FUNCTION bump_rights_revision()`.execute(db)
  await sql`DROP TABLE rights_revision`.execute(db)
}
