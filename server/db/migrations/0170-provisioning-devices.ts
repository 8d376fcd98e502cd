import { sql, type Kysely } from 'kysely'

/**
 * Meters and charging stations made through the provisioning API (SPEC §3 meter kinds).
 *
 * meters: `serial` (the device's serial number, unique among an installation's live meters), `unit`
 * (kWh, or m3 for water; a row written without one gets its type's unit), `source` (where its readings
 * come from: the simulator, the ingest API, MQTT or Modbus; rows made before this migration were all
 * the simulator's, so that stays the column's default) and `archived_at` (deleted by an admin: gone from
 * lists, live data and the simulator, its measurements still in statistics and reports).
 *
 * charging_stations: `phases` (1 or 3) and `archived_at`, a soft delete, so charging_sessions,
 * journal_events and ocpp_transactions (whose foreign keys cascade) keep their station.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE meters ADD COLUMN serial text`.execute(db)
  await sql`ALTER TABLE meters ADD COLUMN unit text`.execute(db)
  await sql`UPDATE meters SET unit = CASE WHEN meter_type IN ('cold_water', 'hot_water') THEN 'm3' ELSE 'kWh' END`.execute(db)
  await sql`ALTER TABLE meters ALTER COLUMN unit SET NOT NULL`.execute(db)
  await sql`ALTER TABLE meters ADD CONSTRAINT meters_unit_check CHECK (unit IN ('kWh', 'm3'))`.execute(db)
  // A writer that names no unit (the demo seed, older code) gets the meter type's unit.
  await sql`
    CREATE FUNCTION meters_default_unit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.unit IS NULL THEN
        NEW.unit := CASE WHEN NEW.meter_type IN ('cold_water', 'hot_water') THEN 'm3' ELSE 'kWh' END;
      END IF;
      RETURN NEW;
    END $$`.execute(db)
  await sql`CREATE TRIGGER meters_default_unit BEFORE INSERT ON meters FOR EACH ROW EXECUTE FUNCTION meters_default_unit()`.execute(db)
  await sql`ALTER TABLE meters ADD COLUMN source text NOT NULL DEFAULT 'simulator' CHECK (source IN ('simulator', 'ingest', 'mqtt', 'modbus'))`.execute(db)
  await sql`ALTER TABLE meters ADD COLUMN archived_at timestamptz`.execute(db)
  await sql`CREATE UNIQUE INDEX meters_serial ON meters (installation_id, serial) WHERE serial IS NOT NULL AND archived_at IS NULL`.execute(db)
  await sql`ALTER TABLE charging_stations ADD COLUMN phases integer NOT NULL DEFAULT 3 CHECK (phases IN (1, 3))`.execute(db)
  await sql`ALTER TABLE charging_stations ADD COLUMN archived_at timestamptz`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE charging_stations DROP COLUMN archived_at`.execute(db)
  await sql`ALTER TABLE charging_stations DROP COLUMN phases`.execute(db)
  await sql`DROP INDEX IF EXISTS meters_serial`.execute(db)
  await sql`DROP TRIGGER IF EXISTS meters_default_unit ON meters`.execute(db)
  await sql`DROP FUNCTION IF EXISTS meters_default_unit()`.execute(db)
  for (const c of ['archived_at', 'source', 'unit', 'serial']) await sql`ALTER TABLE meters DROP COLUMN ${sql.raw(c)}`.execute(db)
}
