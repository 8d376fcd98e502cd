import { sql, type Kysely } from 'kysely'

/**
 * Idempotency keys of payment charges: a charge row is written `pending` with the key it is
 * sent under *before* the provider debits the card, and settled to `succeeded` or `declined` after. A run
 * that died in between finds the pending row and sends the same key again, which the provider answers
 * with its first result instead of a second debit.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE payment_charges ADD COLUMN idempotency_key text UNIQUE`.execute(db)
  await sql`ALTER TABLE payment_charges DROP CONSTRAINT payment_charges_status_check`.execute(db)
  await sql`ALTER TABLE payment_charges ADD CONSTRAINT payment_charges_status_check CHECK (status IN ('pending', 'succeeded', 'declined'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM payment_charges WHERE status = 'pending'`.execute(db)
  await sql`ALTER TABLE payment_charges DROP CONSTRAINT payment_charges_status_check`.execute(db)
  await sql`ALTER TABLE payment_charges ADD CONSTRAINT payment_charges_status_check CHECK (status IN ('succeeded', 'declined'))`.execute(db)
  await sql`ALTER TABLE payment_charges DROP COLUMN idempotency_key`.execute(db)
}
