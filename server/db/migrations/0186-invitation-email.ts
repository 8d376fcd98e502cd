import { sql, type Kysely } from 'kysely'

/**
 * The address an admin typed when creating the user an invitation stands for (docs/decisions.md "Accounts:
 * pending invitations"): the admin's list of pending invitations shows it, never the account's address of
 * today (which the person may have changed since, and which is not the admin's to learn). Rows from before
 * take the account's address, which was the typed one when they were made.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE user_invitations ADD COLUMN email text`.execute(db)
  await sql`UPDATE user_invitations SET email = users.email FROM users WHERE users.id = user_invitations.user_id`.execute(db)
  await sql`ALTER TABLE user_invitations ALTER COLUMN email SET NOT NULL`.execute(db)
  await sql`CREATE INDEX user_invitations_installation ON user_invitations (installation_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP INDEX user_invitations_installation`.execute(db)
  await sql`ALTER TABLE user_invitations DROP COLUMN email`.execute(db)
}
