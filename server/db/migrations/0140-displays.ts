import { sql, type Kysely } from 'kysely'

/**
 * Display links: a read-only, installation-scoped credential for a wall display. Only the
 * SHA-256 of the key is stored. Revoking (or deleting) a link moves the rights revision, so the relay
 * re-checks open streams at its next poll and closes the link's (a link passing its end date needs no
 * bump: the relay re-checks display streams at every poll).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE displays (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      name text NOT NULL,
      key_hash text NOT NULL UNIQUE,
      created_by integer REFERENCES users(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      valid_until timestamptz,
      revoked_at timestamptz
    )
  `.execute(db)
  await sql`CREATE INDEX displays_installation ON displays (installation_id) WHERE revoked_at IS NULL`.execute(db)
  await sql.raw(`CREATE TRIGGER displays_rights_revision AFTER DELETE OR UPDATE OF revoked_at ON displays FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_revision()`).execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE displays`.execute(db)
}
