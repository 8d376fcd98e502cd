import { sql, type Kysely } from 'kysely'

/** The foundation schema: accounts, installations, hierarchy, devices, tariffs, sessions, measurements. */
const DDL = `
    CREATE TABLE users (
      id serial PRIMARY KEY,
      email text NOT NULL UNIQUE,
      password_hash text NOT NULL,
      first_name text NOT NULL DEFAULT '',
      last_name text NOT NULL DEFAULT '',
      title text,
      is_superuser boolean NOT NULL DEFAULT false,
      is_active boolean NOT NULL DEFAULT true,
      is_service boolean NOT NULL DEFAULT false,
      deactivation_datetime timestamptz,
      ietf_lang_tag text NOT NULL DEFAULT 'en',
      last_login timestamptz,
      previous_login timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE installations (
      id serial PRIMARY KEY,
      name text NOT NULL,
      timezone text NOT NULL DEFAULT 'Europe/Zurich',
      currency text NOT NULL DEFAULT 'CHF',
      latitude double precision NOT NULL,
      longitude double precision NOT NULL,
      pay_enabled boolean NOT NULL DEFAULT false,
      online boolean NOT NULL DEFAULT true,
      offline_since timestamptz,
      alerts jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE installation_users (
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('installation_admin', 'installation_user')),
      PRIMARY KEY (user_id, installation_id)
    );
    CREATE TABLE objects (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      parent_object_id integer REFERENCES objects(id) ON DELETE CASCADE,
      description text NOT NULL,
      object_type text NOT NULL
    );
    CREATE TABLE permissions (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      object_type text NOT NULL CHECK (object_type IN ('object', 'charging_station', 'rfid')),
      object_id integer NOT NULL,
      level text NOT NULL CHECK (level IN ('none', 'read', 'read_and_write', 'inherit')),
      cost boolean NOT NULL DEFAULT false,
      overview boolean NOT NULL DEFAULT false,
      UNIQUE (user_id, installation_id, object_type, object_id)
    );
    CREATE TABLE meters (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      object_id integer REFERENCES objects(id) ON DELETE SET NULL,
      meter_type text NOT NULL,
      name text NOT NULL,
      capacity double precision
    );
    CREATE INDEX meters_installation ON meters (installation_id, meter_type);
    CREATE TABLE charging_stations (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      object_id integer REFERENCES objects(id) ON DELETE SET NULL,
      meter_id integer NOT NULL REFERENCES meters(id),
      device_id text NOT NULL UNIQUE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      capacity_kw double precision NOT NULL,
      charging_mode text NOT NULL,
      status text,
      status_code integer NOT NULL DEFAULT 0,
      alerts jsonb NOT NULL DEFAULT '[]',
      rfid_lernmodus integer NOT NULL DEFAULT 0,
      power_kw double precision NOT NULL DEFAULT 0,
      current_session_id integer,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE rfids (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      user_id integer REFERENCES users(id) ON DELETE SET NULL,
      tag text NOT NULL CHECK (tag !~ '\\s'),
      description text NOT NULL DEFAULT '',
      active boolean NOT NULL DEFAULT true,
      all_stations boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE UNIQUE INDEX rfids_active_tag ON rfids (installation_id, tag) WHERE active;
    CREATE TABLE rfid_stations (
      rfid_id integer NOT NULL REFERENCES rfids(id) ON DELETE CASCADE,
      station_id integer NOT NULL REFERENCES charging_stations(id) ON DELETE CASCADE,
      PRIMARY KEY (rfid_id, station_id)
    );
    CREATE TABLE timers (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      object_type text NOT NULL,
      object_id integer NOT NULL,
      repeat_monday boolean NOT NULL DEFAULT false,
      repeat_tuesday boolean NOT NULL DEFAULT false,
      repeat_wednesday boolean NOT NULL DEFAULT false,
      repeat_thursday boolean NOT NULL DEFAULT false,
      repeat_friday boolean NOT NULL DEFAULT false,
      repeat_saturday boolean NOT NULL DEFAULT false,
      repeat_sunday boolean NOT NULL DEFAULT false,
      start_time text NOT NULL,
      description text NOT NULL DEFAULT '',
      charging_mode text NOT NULL
    );
    CREATE TABLE tariffs (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      name text NOT NULL,
      basic_rappen integer NOT NULL DEFAULT 0,
      high_rappen_per_kwh double precision NOT NULL,
      low_rappen_per_kwh double precision NOT NULL,
      flat_rappen_per_kwh double precision,
      flat boolean NOT NULL DEFAULT false,
      valid_from date NOT NULL,
      valid_to date,
      schedule jsonb NOT NULL DEFAULT '[]'
    );
    CREATE TABLE rates (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('power', 'water', 'heat')),
      name text NOT NULL,
      start_date date,
      end_date date,
      prices jsonb NOT NULL DEFAULT '{}'
    );
    CREATE TABLE charging_sessions (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      station_id integer NOT NULL REFERENCES charging_stations(id) ON DELETE CASCADE,
      rfid_id integer REFERENCES rfids(id) ON DELETE SET NULL,
      user_id integer REFERENCES users(id) ON DELETE SET NULL,
      start timestamptz NOT NULL,
      "end" timestamptz,
      energy_kwh double precision NOT NULL DEFAULT 0,
      high_kwh double precision NOT NULL DEFAULT 0,
      low_kwh double precision NOT NULL DEFAULT 0,
      price_rappen integer NOT NULL DEFAULT 0,
      fee_rappen integer NOT NULL DEFAULT 0,
      status text NOT NULL CHECK (status IN ('charging', 'unpaid', 'paid')),
      paid_on timestamptz,
      set_by_timer boolean NOT NULL DEFAULT false
    );
    CREATE INDEX charging_sessions_installation_start ON charging_sessions (installation_id, start);
    CREATE INDEX charging_sessions_open ON charging_sessions (installation_id) WHERE "end" IS NULL;
    CREATE TABLE measurements (
      meter_id integer NOT NULL REFERENCES meters(id) ON DELETE CASCADE,
      ts timestamptz NOT NULL,
      power_kw double precision NOT NULL DEFAULT 0,
      energy_in_kwh double precision NOT NULL DEFAULT 0,
      energy_out_kwh double precision NOT NULL DEFAULT 0,
      soc double precision,
      volume_m3 double precision NOT NULL DEFAULT 0,
      PRIMARY KEY (meter_id, ts)
    );
    CREATE INDEX measurements_ts ON measurements (ts);
    CREATE TABLE measurements_15m (
      meter_id integer NOT NULL REFERENCES meters(id) ON DELETE CASCADE,
      bucket timestamptz NOT NULL,
      energy_in_kwh double precision NOT NULL DEFAULT 0,
      energy_out_kwh double precision NOT NULL DEFAULT 0,
      volume_m3 double precision NOT NULL DEFAULT 0,
      power_sum double precision NOT NULL DEFAULT 0,
      samples integer NOT NULL DEFAULT 0,
      soc_last double precision,
      PRIMARY KEY (meter_id, bucket)
    );
    CREATE TABLE refresh_tokens (
      id text PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      family_id text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX refresh_tokens_family ON refresh_tokens (family_id);
    CREATE TABLE app_settings (key text PRIMARY KEY, value text NOT NULL);
`

/** Prepared statements take one command each, so the DDL runs statement by statement. */
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of DDL.split(/;\s*\n/).map((s) => s.trim()).filter(Boolean)) {
    await sql.raw(statement).execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP SCHEMA public CASCADE; CREATE SCHEMA public;`.execute(db)
}
