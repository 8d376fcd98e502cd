import { sql, type Kysely } from 'kysely'

/**
 * Password reset tokens: only the SHA-256 of the 256-bit token is stored; a token is used
 * once (used_at) and expires 60 minutes after it was issued.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE password_reset_tokens (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  await sql`CREATE INDEX password_reset_tokens_user ON password_reset_tokens (user_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE password_reset_tokens`.execute(db)
}
