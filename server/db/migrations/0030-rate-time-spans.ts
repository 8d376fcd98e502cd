import { sql, type Kysely } from 'kysely'

/**
 * Rates: power rates get their time spans (start, end, repetition by weekday) and the
 * switch for the flat rate, which SPEC §4 allows only in a rate that starts in the future.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE rates ADD COLUMN time_spans jsonb NOT NULL DEFAULT '[]'`.execute(db)
  await sql`ALTER TABLE rates ADD COLUMN flat_enabled boolean NOT NULL DEFAULT false`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE rates DROP COLUMN flat_enabled`.execute(db)
  await sql`ALTER TABLE rates DROP COLUMN time_spans`.execute(db)
}
