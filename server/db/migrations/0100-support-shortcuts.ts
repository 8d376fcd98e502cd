import { sql, type Kysely } from 'kysely'

/**
 * Support tickets with their conversation, and personal shortcuts (SPEC §3).
 * - A ticket belongs to the person who opened it; `reply_token` (160 random bits, hex) is the secret part of
 *   the ticket's reply address (support+<token>@domain), so mail can land on it without a guessable id.
 * - Messages are from the owner ('user') or from support; `via` says whether they came through the portal
 *   or by e-mail; `refused_attachments` names the attachments that were refused.
 * - A shortcut is one person's pin of an app path in one installation.
 * - The outbox gets `reply_to`, so every mail about a ticket carries its reply address.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE support_tickets (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      installation_id integer REFERENCES installations(id) ON DELETE SET NULL,
      topic text NOT NULL,
      status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closed')),
      reply_token text NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  await sql`CREATE INDEX support_tickets_user ON support_tickets (user_id, id DESC)`.execute(db)
  await sql`
    CREATE TABLE support_messages (
      id serial PRIMARY KEY,
      ticket_id integer NOT NULL REFERENCES support_tickets(id) ON DELETE CASCADE,
      author text NOT NULL CHECK (author IN ('user', 'support')),
      author_user_id integer REFERENCES users(id) ON DELETE SET NULL,
      body text NOT NULL,
      via text NOT NULL CHECK (via IN ('portal', 'email')),
      refused_attachments jsonb NOT NULL DEFAULT '[]',
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  await sql`CREATE INDEX support_messages_ticket ON support_messages (ticket_id, id)`.execute(db)
  await sql`
    CREATE TABLE shortcuts (
      id serial PRIMARY KEY,
      user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      name text NOT NULL,
      url text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  await sql`CREATE INDEX shortcuts_owner ON shortcuts (user_id, installation_id, id)`.execute(db)
  await sql`ALTER TABLE mail_outbox ADD COLUMN reply_to text`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE mail_outbox DROP COLUMN reply_to`.execute(db)
  await sql`DROP TABLE shortcuts`.execute(db)
  await sql`DROP TABLE support_messages`.execute(db)
  await sql`DROP TABLE support_tickets`.execute(db)
}
