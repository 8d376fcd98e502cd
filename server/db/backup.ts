import fs from 'node:fs'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { lockDataDir } from './connection.ts'

/**
 * Backup and restore of the embedded database. PGlite keeps a Postgres data folder
 * under DATA_DIR/pgdata; `dumpDataDir` writes it as one gzipped tar file, and a restore loads that file
 * into an empty folder. Both take the DATA_DIR lock, so they refuse while a Cockpit process runs on the
 * folder (DataDirLockedError): stop the server first (a backup takes seconds for a year of data).
 * For a Postgres server use pg_dump/pg_restore (docs/operations.md).
 */
export async function backupDataDir(dataDir: string, file: string): Promise<{ bytes: number }> {
  const pgdata = path.join(dataDir, 'pgdata')
  if (!fs.existsSync(pgdata)) throw new Error(`No embedded database in ${dataDir} (no pgdata folder)`)
  const unlock = lockDataDir(dataDir)
  try {
    const db = await PGlite.create({ dataDir: pgdata })
    try {
      const dump = await db.dumpDataDir('gzip')
      const bytes = Buffer.from(await dump.arrayBuffer())
      fs.writeFileSync(file, bytes)
      return { bytes: bytes.length }
    } finally {
      await db.close()
    }
  } finally {
    unlock()
  }
}

/**
 * Restore a {@link backupDataDir} file into `dataDir`, which must hold no database yet (an existing
 * pgdata folder is refused rather than overwritten: move it away first).
 */
export async function restoreDataDir(file: string, dataDir: string): Promise<void> {
  const pgdata = path.join(dataDir, 'pgdata')
  if (fs.existsSync(pgdata) && fs.readdirSync(pgdata).length) throw new Error(`${pgdata} already holds a database: restore into an empty DATA_DIR`)
  const unlock = lockDataDir(dataDir)
  try {
    const db = await PGlite.create({ dataDir: pgdata, loadDataDir: new Blob([fs.readFileSync(file)]) })
    await db.close()
  } finally {
    unlock()
  }
}
