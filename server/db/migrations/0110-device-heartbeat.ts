import { sql, type Kysely } from 'kysely'

/**
 * Facility offline (SPEC §4): the time of an installation's last device heartbeat, and the
 * changes made while it was offline, kept until its devices report again. A change is `pending` until
 * it is sent, then `applied` or `failed` (with the message key of the refusal), or `superseded` by a
 * later change of the same field before it was sent.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE installations ADD COLUMN last_heartbeat_at timestamptz`.execute(db)
  await sql`
    CREATE TABLE device_changes (
      id serial PRIMARY KEY,
      installation_id integer NOT NULL REFERENCES installations(id) ON DELETE CASCADE,
      target_type text NOT NULL,
      target_id integer NOT NULL,
      field text NOT NULL,
      value jsonb NOT NULL,
      user_id integer REFERENCES users(id) ON DELETE SET NULL,
      requested_at timestamptz NOT NULL,
      state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'applied', 'failed', 'superseded')),
      settled_at timestamptz,
      outcome text
    )
  `.execute(db)
  await sql`CREATE INDEX device_changes_pending ON device_changes (installation_id, id) WHERE state IN ('pending', 'sending')`.execute(db)
}
