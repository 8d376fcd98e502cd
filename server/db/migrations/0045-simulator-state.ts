import { sql, type Kysely } from 'kysely'

/**
 * The simulator's own state per installation: battery state of charge, the cars at the
 * stations (visit, energy delivered, open session) and demo guests, saved every step so a restart
 * resumes the facility instead of inventing a new one (no split sessions, no energy from nothing).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE simulator_state (
      installation_id integer PRIMARY KEY REFERENCES installations(id) ON DELETE CASCADE,
      state jsonb NOT NULL,
      saved_at timestamptz NOT NULL
    )
  `.execute(db)
}
