import { sql, type Kysely } from 'kysely'

/**
 * Setup links of the first start (server/domain/auth/first-start.ts): while no superuser exists, each
 * start without ADMIN_EMAIL/ADMIN_PASSWORD logs a link `<PUBLIC_URL>/setup#<token>`. Only the SHA-256 of
 * the 256-bit token is kept; a token is used once (used_at) and expires one hour after it was issued
 * (expires_at, the process clock's instant).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE setup_tokens (
      id serial PRIMARY KEY,
      token_hash text NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE setup_tokens`.execute(db)
}
