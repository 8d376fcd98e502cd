import { sql, type Kysely } from 'kysely'

/**
 * A short lease the payment job takes on an unpaid session before it debits the card, so a
 * second charge run, in another process, skips the session instead of charging it again; null when no
 * run holds it. The app fees have the same (migration 0070).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE charging_sessions ADD COLUMN charge_claimed_until timestamptz`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE charging_sessions DROP COLUMN charge_claimed_until`.execute(db)
}
