import { sql, type Kysely } from 'kysely'

/**
 * Journal events (SPEC §3 journal kinds journal_entry and rfid_session_journal_entry): charging
 * mode changes of a station (by a person or by a timer) and RFID events at a station (a tag learned).
 * Charging sessions are the other two kinds and come from charging_sessions.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE journal_events (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      station_id integer NOT NULL REFERENCES charging_stations(id) ON DELETE CASCADE,
      rfid_id integer REFERENCES rfids(id) ON DELETE SET NULL,
      kind text NOT NULL CHECK (kind IN ('journal_entry', 'rfid_session_journal_entry')),
      charging_mode text NOT NULL,
      at timestamptz NOT NULL,
      set_by_timer boolean NOT NULL DEFAULT false,
      detail text NOT NULL DEFAULT ''
    )`.execute(db)
  await sql`CREATE INDEX journal_events_station ON journal_events (station_id, at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE journal_events`.execute(db)
}
