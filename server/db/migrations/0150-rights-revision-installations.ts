import { sql, type Kysely } from 'kysely'

/**
 * The rights revision (0004) also moves when an installation is added or removed, or its time zone or
 * position changes: the API keeps sign-in and rights facts, including whether an installation exists and
 * its time zone, for as long as the revision stands (server/domain/auth/rights-cache.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TRIGGER installations_rights_revision AFTER INSERT OR DELETE OR UPDATE OF timezone, latitude, longitude ON installations
    FOR EACH STATEMENT EXECUTE FUNCTION bump_rights_revision()`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TRIGGER installations_rights_revision ON installations`.execute(db)
}
