import { sql, type Kysely } from 'kysely'

/**
 * Readings from real meters through the ingestion API (docs/decisions.md "Ingest: registers become
 * deltas").
 *
 * device_keys: an installation's keys for its devices and gateways (`key_hash` the SHA-256 of the key,
 * which is shown once; `revoked_at` set when an admin revokes it, the row kept for the list).
 *
 * meter_readings: every reading accepted, one per (meter, timestamp, measurand), so a batch sent twice
 * is recognised; `value` in the measurand's stored unit (kWh, kW, m3, %, V, A), `delta_value` what a
 * register reading booked into measurements (its rise since the reading before; 0 for a baseline or a
 * register that went down), `flag` why a reading was set aside. Thinned with the raw measurements.
 *
 * meter_registers: the newest register per meter and measurand, kept beyond the raw retention so a meter
 * that was silent for days still continues from its last value.
 *
 * meters: `max_power_kw`, an admin's bound (kW); a power beyond it is refused.
 *
 * meter_status: per meter `last_reading_at` (the newest reading's time) and the newest data-quality
 * finding (`quality_reason`, `quality_at`). A table of its own: every change to a meters row counts as a
 * change of the installation's statistics (migration 0166), and these change with every batch.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE device_keys (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      name text NOT NULL,
      key_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      created_by integer REFERENCES users(id) ON DELETE SET NULL,
      last_used_at timestamptz,
      revoked_at timestamptz
    )`.execute(db)
  await sql`CREATE INDEX device_keys_installation ON device_keys (installation_id)`.execute(db)
  await sql`
    CREATE TABLE meter_readings (
      meter_id integer NOT NULL REFERENCES meters(id) ON DELETE CASCADE,
      ts timestamptz NOT NULL,
      measurand text NOT NULL,
      value double precision NOT NULL,
      delta_value double precision,
      flag text,
      via text NOT NULL,
      PRIMARY KEY (meter_id, measurand, ts)
    )`.execute(db)
  await sql`CREATE INDEX meter_readings_ts ON meter_readings (ts)`.execute(db)
  await sql`
    CREATE TABLE meter_registers (
      meter_id integer NOT NULL REFERENCES meters(id) ON DELETE CASCADE,
      measurand text NOT NULL,
      ts timestamptz NOT NULL,
      value double precision NOT NULL,
      PRIMARY KEY (meter_id, measurand)
    )`.execute(db)
  await sql`ALTER TABLE meters ADD COLUMN max_power_kw double precision CHECK (max_power_kw > 0)`.execute(db)
  await sql`
    CREATE TABLE meter_status (
      meter_id integer PRIMARY KEY REFERENCES meters(id) ON DELETE CASCADE,
      last_reading_at timestamptz,
      quality_reason text,
      quality_at timestamptz
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE meter_status`.execute(db)
  await sql`ALTER TABLE meters DROP COLUMN max_power_kw`.execute(db)
  await sql`DROP TABLE meter_registers`.execute(db)
  await sql`DROP TABLE meter_readings`.execute(db)
  await sql`DROP TABLE device_keys`.execute(db)
}
