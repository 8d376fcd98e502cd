import { sql, type Kysely } from 'kysely'

/**
 * Invitations of an existing account to an installation (docs/decisions.md "Accounts: creating a user whose
 * address has an account elsewhere"): an admin who creates a user with an address that already has an
 * account they cannot reach gets the same answer as for a new address, and the person an invitation by
 * mail. `token_hash`: SHA-256 of the link's 256-bit token, single use (`accepted_at`), valid until
 * `expires_at` (7 days, as a welcome link). Accepting adds the membership with `role`.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE user_invitations (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('installation_admin', 'installation_user')),
      invited_by integer REFERENCES users(id) ON DELETE SET NULL,
      token_hash text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      accepted_at timestamptz
    )`.execute(db)
  await sql`CREATE INDEX user_invitations_user ON user_invitations (user_id)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE user_invitations`.execute(db)
}
