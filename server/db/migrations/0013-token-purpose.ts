import { sql, type Kysely } from 'kysely'

/**
 * One-time tokens serve two purposes: `reset` (reset and welcome links: set a
 * password) and `verify` (confirm the address after self-registration). A token only works for its purpose.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE password_reset_tokens ADD COLUMN purpose text NOT NULL DEFAULT 'reset' CHECK (purpose IN ('reset', 'verify'))`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE password_reset_tokens DROP COLUMN purpose`.execute(db)
}
