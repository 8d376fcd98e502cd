import { sql, type Kysely } from 'kysely'

/** The mail outbox: every message is stored before sending, so none is lost while SMTP is down. */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE mail_outbox (
      id serial PRIMARY KEY,
      kind text NOT NULL,
      recipient text NOT NULL,
      subject text NOT NULL,
      body_text text NOT NULL,
      body_html text,
      attachments jsonb NOT NULL DEFAULT '[]',
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent')),
      attempts integer NOT NULL DEFAULT 0,
      next_attempt_at timestamptz NOT NULL DEFAULT now(),
      last_error text,
      created_at timestamptz NOT NULL DEFAULT now(),
      sent_at timestamptz
    )`.execute(db)
  await sql`CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending'`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE mail_outbox`.execute(db)
}
