import type { Db } from './connection.ts'

/**
 * Run `fn` in a transaction: a new one on the database, or the caller's own when `db` is already a
 * transaction (Kysely's `isTransaction`). A service made on a transaction (a configuration import,
 * the demo seed) thereby writes in its caller's one transaction, which commits or rolls back as a whole
 * (docs/decisions.md "Configuration files: one transaction through the provisioning services").
 */
export function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn)
}
