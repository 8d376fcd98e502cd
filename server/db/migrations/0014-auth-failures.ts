import { sql, type Kysely } from 'kysely'

/**
 * Failed sign-ins: kept in the database so throttling survives restarts and holds across
 * processes sharing one database. `scope` is 'account' (lower-cased e-mail) or 'ip'.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE auth_failures (
      id bigserial PRIMARY KEY,
      scope text NOT NULL,
      key text NOT NULL,
      at timestamptz NOT NULL DEFAULT now()
    )`.execute(db)
  await sql`CREATE INDEX auth_failures_key ON auth_failures (scope, key, at)`.execute(db)
  await sql`CREATE INDEX auth_failures_at ON auth_failures (at)`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE auth_failures`.execute(db)
}
