import { sql, type Kysely } from 'kysely'

/**
 * The monthly app fee of the card payment add-on (SPEC §1, §9: equal to the installation's basic_tariff,
 * charged to the payment method). One row per user, installation and installation-local month
 * ("YYYY-MM"): the unique key makes charging idempotent even when two charge runs overlap, in one process
 * or several. `claimed_until` is a short lease a run takes before it debits the card, so a second run
 * skips the row instead of debiting it again. Charge attempts of a fee are `payment_charges` rows with
 * purpose 'app_fee' and its `app_fee_id`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE app_fees (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      month text NOT NULL CHECK (month ~ '^[0-9]{4}-[0-9]{2}$'),
      amount_rappen integer NOT NULL CHECK (amount_rappen >= 0),
      fee_rappen integer NOT NULL DEFAULT 0,
      status text NOT NULL DEFAULT 'unpaid' CHECK (status IN ('unpaid', 'paid')),
      paid_on timestamptz,
      claimed_until timestamptz,
      created_at timestamptz NOT NULL,
      UNIQUE (user_id, installation_id, month)
    )`.execute(db)
  await sql`ALTER TABLE payment_charges ADD COLUMN app_fee_id integer REFERENCES app_fees(id) ON DELETE CASCADE`.execute(db)
  await sql`ALTER TABLE payment_charges DROP CONSTRAINT payment_charges_purpose_check`.execute(db)
  await sql`ALTER TABLE payment_charges ADD CONSTRAINT payment_charges_purpose_check CHECK (purpose IN ('session', 'rfid_order', 'app_fee'))`.execute(db)
  await sql`CREATE INDEX payment_charges_app_fee ON payment_charges (app_fee_id, at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM payment_charges WHERE purpose = 'app_fee'`.execute(db)
  await sql`ALTER TABLE payment_charges DROP CONSTRAINT payment_charges_purpose_check`.execute(db)
  await sql`ALTER TABLE payment_charges ADD CONSTRAINT payment_charges_purpose_check CHECK (purpose IN ('session', 'rfid_order'))`.execute(db)
  await sql`ALTER TABLE payment_charges DROP COLUMN app_fee_id`.execute(db)
  await sql`DROP TABLE app_fees`.execute(db)
}
