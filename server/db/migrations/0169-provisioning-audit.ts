import { sql, type Kysely } from 'kysely'

/**
 * Provisioning (SPEC §3 Installation; docs/decisions.md "Provisioning: the audit trail"):
 * - audit_events: who changed what and when, with the entity before and after (JSON, never a password or
 *   secret). installation_id has no foreign key: the trail of a deleted installation stays, and so does the
 *   row recording its deletion. actor_user_id is null for changes made by the system (seed, CLI).
 * - installations get a postal address (street, building number, zip, city, country CH or LI; '' on the
 *   installations made before) and archived_at: an archived installation is read-only and kept for its
 *   billing history (Swiss bookkeeping keeps records 10 years, OR Art. 958f).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE audit_events (
      id serial PRIMARY KEY,
      at timestamptz NOT NULL,
      actor_user_id integer REFERENCES users(id) ON DELETE SET NULL,
      installation_id integer,
      action text NOT NULL,
      entity_type text NOT NULL,
      entity_id text NOT NULL,
      before jsonb,
      after jsonb
    )
  `.execute(db)
  await sql`CREATE INDEX audit_events_installation ON audit_events (installation_id, id DESC)`.execute(db)
  await sql`CREATE INDEX audit_events_entity ON audit_events (entity_type, id DESC)`.execute(db)
  await sql`
    ALTER TABLE installations
      ADD COLUMN street text NOT NULL DEFAULT '',
      ADD COLUMN building_number text NOT NULL DEFAULT '',
      ADD COLUMN zip text NOT NULL DEFAULT '',
      ADD COLUMN city text NOT NULL DEFAULT '',
      ADD COLUMN country text NOT NULL DEFAULT 'CH' CHECK (country IN ('CH', 'LI')),
      ADD COLUMN archived_at timestamptz
  `.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE installations
      DROP COLUMN street, DROP COLUMN building_number, DROP COLUMN zip, DROP COLUMN city, DROP COLUMN country, DROP COLUMN archived_at
  `.execute(db)
  await sql`DROP TABLE audit_events`.execute(db)
}
