import { sql, type Kysely } from 'kysely'

/**
 * A sign-in address change waits for the new address to confirm it (docs/decisions.md "Accounts: an e-mail
 * change is confirmed from the new address"; OWASP Authentication Cheat Sheet, "Changing a User's Registered
 * Email Address"). One row per request: `token_hash` is SHA-256 of the link's 256-bit token, single use
 * (`used_at`, also set when a later request of the same user replaces it), valid until `expires_at`.
 * `address_taken`: the new address had an account when asked, so it got a short notice instead of the link
 * (the token was never sent). `created_at` counts the mails to an address per hour.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE email_change_requests (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      requested_by integer REFERENCES users(id) ON DELETE SET NULL,
      old_email text NOT NULL,
      new_email text NOT NULL,
      address_taken boolean NOT NULL,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db)
  await sql`CREATE INDEX email_change_requests_user ON email_change_requests (user_id)`.execute(db)
  await sql`CREATE INDEX email_change_requests_new_email ON email_change_requests (new_email, created_at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE email_change_requests`.execute(db)
}
