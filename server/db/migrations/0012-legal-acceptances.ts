import { sql, type Kysely } from 'kysely'

/**
 * Legal acceptance: which version of which document (terms, privacy) a user accepted and
 * when; one row per user, document and version. Also the per-installation switch that allows
 * self-registration (GET /api/users/can-register), off by default.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE legal_acceptances (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      document text NOT NULL,
      version text NOT NULL,
      accepted_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (user_id, document, version)
    )`.execute(db)
  await sql`ALTER TABLE installations ADD COLUMN registration_enabled boolean NOT NULL DEFAULT false`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE installations DROP COLUMN registration_enabled`.execute(db)
  await sql`DROP TABLE legal_acceptances`.execute(db)
}
