import { sql, type Kysely } from 'kysely'

/**
 * Load management (docs/decisions.md "Load management: model, controller and reasons"):
 * - `load_management`: per installation the on/off switch and the grid connection's limit, in A per
 *   phase and/or kW (at least one when enabled; the tighter one holds);
 * - `load_circuits`: sub-distributions as a tree below the connection (`parent_id` null: fed by the
 *   connection), each with its limit in A per phase; ids are the admin's short names, unique per
 *   installation;
 * - `charging_stations.load_circuit_id`: the circuit a station hangs on (null: the connection itself);
 * - `load_limits`: what the controller decided for each station at its last run: the limit in A per
 *   phase (null: not limited), the reason code with its parameters and until when it holds, the SPEC §4
 *   load-management status code and alerts it sets; `sent` the TxProfile last queued for a charge point
 *   ({limit_a, transaction_id, at}) and `failsafe` what its fail-safe TxDefaultProfile was sent for;
 * - `load_management.state`: the allocator's state between runs (hysteresis, turn-taking), so a run in
 *   another process continues where the last one stopped.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE load_management (
      installation_id integer PRIMARY KEY REFERENCES installations(id) ON DELETE CASCADE,
      enabled boolean NOT NULL DEFAULT false,
      grid_limit_a double precision CHECK (grid_limit_a > 0),
      grid_limit_kw double precision CHECK (grid_limit_kw > 0),
      state jsonb,
      updated_at timestamptz NOT NULL
    )`.execute(db)
  await sql`
    CREATE TABLE load_circuits (
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      id text NOT NULL,
      name text NOT NULL,
      parent_id text,
      limit_a double precision NOT NULL CHECK (limit_a > 0),
      PRIMARY KEY (installation_id, id)
    )`.execute(db)
  await sql`ALTER TABLE charging_stations ADD COLUMN load_circuit_id text`.execute(db)
  await sql`
    CREATE TABLE load_limits (
      station_id integer PRIMARY KEY REFERENCES charging_stations(id) ON DELETE CASCADE,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      limit_a double precision CHECK (limit_a >= 0),
      reason text NOT NULL,
      params jsonb NOT NULL DEFAULT '{}'::jsonb,
      until timestamptz,
      status_code integer,
      alerts jsonb NOT NULL DEFAULT '[]'::jsonb,
      sent jsonb,
      failsafe text,
      updated_at timestamptz NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX load_limits_installation ON load_limits (installation_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE load_limits`.execute(db)
  await sql`ALTER TABLE charging_stations DROP COLUMN load_circuit_id`.execute(db)
  await sql`DROP TABLE load_circuits`.execute(db)
  await sql`DROP TABLE load_management`.execute(db)
}
