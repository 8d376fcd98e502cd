import { sql, type Kysely } from 'kysely'

/**
 * Payments (SPEC §3 payment info, §4, §9): stored payment methods (masked number, brand, expiry and a
 * provider token, never a full number), hosted-checkout sessions of the provider, and every charge
 * attempt (sessions and RFID card orders), which also drives the automatic retries of declined charges.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE payment_methods (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('credit_card', 'twint')),
      brand text NOT NULL,
      masked text NOT NULL,
      exp_month integer,
      exp_year integer,
      alias text NOT NULL DEFAULT '',
      favourite boolean NOT NULL DEFAULT false,
      provider text NOT NULL,
      token text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  await sql`CREATE INDEX payment_methods_user ON payment_methods (user_id)`.execute(db)
  await sql`
    CREATE TABLE payment_checkouts (
      id text PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      success_url text NOT NULL,
      error_url text NOT NULL,
      cancel_url text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'completed', 'failed', 'cancelled')),
      payment_method_id integer REFERENCES payment_methods(id) ON DELETE SET NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )`.execute(db)
  await sql`
    CREATE TABLE payment_charges (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      payment_method_id integer REFERENCES payment_methods(id) ON DELETE SET NULL,
      session_id integer REFERENCES charging_sessions(id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('session', 'rfid_order')),
      amount_rappen integer NOT NULL,
      fee_rappen integer NOT NULL,
      status text NOT NULL CHECK (status IN ('succeeded', 'declined')),
      reference text,
      at timestamptz NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX payment_charges_session ON payment_charges (session_id, at)`.execute(db)
  await sql`CREATE INDEX payment_charges_user ON payment_charges (user_id, at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE payment_charges`.execute(db)
  await sql`DROP TABLE payment_checkouts`.execute(db)
  await sql`DROP TABLE payment_methods`.execute(db)
}
