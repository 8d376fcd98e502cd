import { sql, type Kysely } from 'kysely'

/**
 * Charge plans (SPEC §4 charging modes; docs/decisions.md "Load management: charge plans"): what a
 * resident needs by when, for their RFID card (every session of the card) or for the session running at
 * a station (that session only). Exactly one of `station_id` and `rfid_id`; one plan per card and per
 * station.
 * - `energy_kwh`: kWh to charge, 0 < x ≤ 200; null: "full" (the car decides when it is full);
 * - `deadline_time` "HH:mm" installation-local; `deadline_at`: a once-plan's instant (null: it repeats on
 *   the weekdays `repeat_monday` … `repeat_sunday`);
 * - `session_id`: a station plan's session (the plan ends with it);
 * - `window_*`: the session and deadline the controller counts the plan's energy for, and the session's
 *   kWh when that window began (what was charged before does not count);
 * - `slots`, `reachable`, `remaining_kwh`, `planned_at`: the controller's last plan ({start, end, kw,
 *   source} in ISO and kW) and whether the need is met by the deadline.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE charge_plans (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      station_id integer UNIQUE REFERENCES charging_stations(id) ON DELETE CASCADE,
      rfid_id integer UNIQUE REFERENCES rfids(id) ON DELETE CASCADE,
      session_id integer REFERENCES charging_sessions(id) ON DELETE CASCADE,
      energy_kwh double precision CHECK (energy_kwh > 0 AND energy_kwh <= 200),
      deadline_time text NOT NULL,
      deadline_at timestamptz,
      repeat_monday boolean NOT NULL DEFAULT false,
      repeat_tuesday boolean NOT NULL DEFAULT false,
      repeat_wednesday boolean NOT NULL DEFAULT false,
      repeat_thursday boolean NOT NULL DEFAULT false,
      repeat_friday boolean NOT NULL DEFAULT false,
      repeat_saturday boolean NOT NULL DEFAULT false,
      repeat_sunday boolean NOT NULL DEFAULT false,
      window_session_id integer,
      window_deadline timestamptz,
      window_base_kwh double precision,
      slots jsonb NOT NULL DEFAULT '[]'::jsonb,
      reachable boolean,
      remaining_kwh double precision,
      planned_at timestamptz,
      created_by integer REFERENCES users(id) ON DELETE SET NULL,
      updated_at timestamptz NOT NULL,
      CHECK ((station_id IS NULL) <> (rfid_id IS NULL))
    )`.execute(db)
  await sql`CREATE INDEX charge_plans_installation ON charge_plans (installation_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE charge_plans`.execute(db)
}
