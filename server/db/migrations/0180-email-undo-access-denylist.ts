import { sql, type Kysely } from 'kysely'

/**
 * Accounts (docs/decisions.md "Accounts: e-mail change with password and undo, access tokens denied at
 * logout, deactivation from its date"):
 * - `email_change_undo`: when a sign-in address changes, the old address gets a single-use link (stored as
 *   SHA-256) that restores it until `expires_at`.
 * - `revoked_access_tokens`: access JWT ids (jti) refused until the token's own expiry, written at logout
 *   and read by every API process (RFC 7519 §4.1.7). Each insert bumps the rights revision, so processes
 *   that keep sign-in facts between requests (server/domain/auth/rights-cache.ts) drop them at once.
 * - `refresh_tokens.access_jti` / `access_expires_at`: the access token issued with each refresh token,
 *   so a logout (which names only the refresh token) can deny the access tokens of its family.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE email_change_undo (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      old_email text NOT NULL,
      new_email text NOT NULL,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db)
  await sql`CREATE INDEX email_change_undo_user ON email_change_undo (user_id)`.execute(db)
  await sql`
    CREATE TABLE revoked_access_tokens (
      jti text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    )`.execute(db)
  await sql`CREATE INDEX revoked_access_tokens_expiry ON revoked_access_tokens (expires_at)`.execute(db)
  await sql`CREATE TRIGGER revoked_access_tokens_rights_revision AFTER INSERT ON revoked_access_tokens FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_revision()`.execute(db)
  await sql`ALTER TABLE refresh_tokens ADD COLUMN access_jti text`.execute(db)
  await sql`ALTER TABLE refresh_tokens ADD COLUMN access_expires_at timestamptz`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE refresh_tokens DROP COLUMN access_expires_at`.execute(db)
  await sql`ALTER TABLE refresh_tokens DROP COLUMN access_jti`.execute(db)
  await sql`DROP TABLE revoked_access_tokens`.execute(db)
  await sql`DROP TABLE email_change_undo`.execute(db)
}
