import { sql, type Kysely } from 'kysely'

/**
 * users.sessions_valid_after: when a user's sessions were last ended (password change or reset,
 * deactivation). Access tokens issued before it are refused and live streams opened before it close.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN sessions_valid_after timestamptz`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN sessions_valid_after`.execute(db)
}
