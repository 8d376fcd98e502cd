import { sql, type Kysely } from 'kysely'

/**
 * User details of SPEC §3: address, zip code, city, country (SPEC §9 list), telephone,
 * company and comment. Title (mr/ms) and ietf_lang_tag ("de-CH": language and region format) exist.
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ['address', 'zip_code', 'city', 'country', 'telephone', 'company', 'comment']) {
    await sql.raw(`ALTER TABLE users ADD COLUMN ${column} text NOT NULL DEFAULT ''`).execute(db)
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['address', 'zip_code', 'city', 'country', 'telephone', 'company', 'comment']) {
    await sql.raw(`ALTER TABLE users DROP COLUMN ${column}`).execute(db)
  }
}
