import { sql, type Kysely } from 'kysely'

/**
 * Invoice numbers without gaps, per operator (docs/decisions.md "Invoices: numbers without gaps, per
 * operator"): `invoice_counters` holds the last number each operator issued; a session gets its number in
 * the transaction that takes it from the counter (never from a sequence, which skips values after a crash
 * or a rollback). The payment provider (docs/decisions.md "Payments: a provider interface and Stripe"):
 * a user's customer at a provider (`payment_customers`) and the provider's reference of a checkout (a
 * Stripe SetupIntent id).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE invoice_counters (
      operator_key text PRIMARY KEY,
      last_number integer NOT NULL CHECK (last_number >= 0)
    )`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD COLUMN invoice_operator text`.execute(db)
  await sql`ALTER TABLE charging_sessions ADD COLUMN invoice_number integer`.execute(db)
  await sql`CREATE UNIQUE INDEX charging_sessions_invoice_number ON charging_sessions (invoice_operator, invoice_number) WHERE invoice_number IS NOT NULL`.execute(db)
  await sql`
    CREATE TABLE payment_customers (
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider text NOT NULL,
      customer_id text NOT NULL,
      PRIMARY KEY (user_id, provider)
    )`.execute(db)
  await sql`ALTER TABLE payment_checkouts ADD COLUMN provider_ref text`.execute(db)
  await sql`CREATE UNIQUE INDEX payment_checkouts_provider_ref ON payment_checkouts (provider_ref) WHERE provider_ref IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX payment_checkouts_provider_ref`.execute(db)
  await sql`ALTER TABLE payment_checkouts DROP COLUMN provider_ref`.execute(db)
  await sql`DROP TABLE payment_customers`.execute(db)
  await sql`DROP INDEX charging_sessions_invoice_number`.execute(db)
  await sql`ALTER TABLE charging_sessions DROP COLUMN invoice_number`.execute(db)
  await sql`ALTER TABLE charging_sessions DROP COLUMN invoice_operator`.execute(db)
  await sql`DROP TABLE invoice_counters`.execute(db)
}
