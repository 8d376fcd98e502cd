import { sql, type Kysely } from 'kysely'

/**
 * OCPP 1.6J central system. `ocpp_charge_points`: a station (and connector) bound to a charge
 * point id with its HTTP Basic password (argon2id, security profile 1), what its BootNotification said,
 * and when it was last heard from. `ocpp_transactions`: the transactions the central system numbered,
 * each with its session and the meter register (Wh) at start, at the last meter value and at stop; a
 * stopped transaction is never billed again. `ocpp_commands`: commands to charge points, queued while
 * they are offline, with their answers (the journal of what was sent).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE ocpp_charge_points (
      id text PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      station_id integer NOT NULL UNIQUE REFERENCES charging_stations(id) ON DELETE CASCADE,
      connector_id integer NOT NULL DEFAULT 1,
      password_hash text NOT NULL,
      vendor text,
      model text,
      firmware text,
      serial text,
      last_status text,
      last_boot_at timestamptz,
      last_message_at timestamptz,
      connected boolean NOT NULL DEFAULT false,
      messages_in bigint NOT NULL DEFAULT 0,
      messages_out bigint NOT NULL DEFAULT 0,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `.execute(db)
  await sql`
    CREATE TABLE ocpp_transactions (
      id serial PRIMARY KEY,
      charge_point_id text NOT NULL,
      station_id integer NOT NULL REFERENCES charging_stations(id) ON DELETE CASCADE,
      connector_id integer NOT NULL,
      id_tag text NOT NULL,
      session_id integer REFERENCES charging_sessions(id) ON DELETE SET NULL,
      meter_start_wh double precision NOT NULL,
      last_meter_wh double precision NOT NULL,
      last_meter_at timestamptz NOT NULL,
      meter_stop_wh double precision,
      started_at timestamptz NOT NULL,
      stopped_at timestamptz,
      UNIQUE (charge_point_id, connector_id, started_at)
    )
  `.execute(db)
  await sql`
    CREATE TABLE ocpp_commands (
      id serial PRIMARY KEY,
      charge_point_id text NOT NULL REFERENCES ocpp_charge_points(id) ON DELETE CASCADE,
      action text NOT NULL,
      payload jsonb NOT NULL,
      status text NOT NULL DEFAULT 'queued',
      answer jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz,
      answered_at timestamptz
    )
  `.execute(db)
  await sql`CREATE INDEX ocpp_commands_queued ON ocpp_commands (charge_point_id, id) WHERE status = 'queued'`.execute(db)
}
