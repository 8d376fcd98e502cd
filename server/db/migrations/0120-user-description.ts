import { sql, type Kysely } from 'kysely'

/**
 * The user's description (SPEC §3 "description (shown in brackets)"): a short label an
 * admin gives a person, e.g. their flat, shown after the name. '' when not given.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN description text NOT NULL DEFAULT ''`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE users DROP COLUMN description`.execute(db)
}
