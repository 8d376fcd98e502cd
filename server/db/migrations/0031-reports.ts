import { sql, type Kysely } from 'kysely'

/**
 * Reports (SPEC §3 Report): ZEV, electrical, water and heat reports with recipients,
 * intervals (d, w, m, q, s, y), show deltas, and the end of the last period sent per interval, so a run
 * missed while the server was down is made up at the next start.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE reports (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      name text NOT NULL,
      report_type text NOT NULL CHECK (report_type IN ('zev', 'electrical', 'water', 'heat')),
      year integer,
      recipients jsonb NOT NULL DEFAULT '[]',
      output_directory text,
      intervals jsonb NOT NULL DEFAULT '[]',
      show_deltas boolean NOT NULL DEFAULT false,
      language text NOT NULL DEFAULT 'en',
      last_runs jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  await sql`CREATE INDEX reports_installation ON reports (installation_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE reports`.execute(db)
}
