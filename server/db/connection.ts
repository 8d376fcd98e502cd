import fs from 'node:fs'
import path from 'node:path'
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import type { Database } from './schema.ts'

export type Db = Kysely<Database>

/** Refused start: another process holds the PGlite data directory. */
export class DataDirLockedError extends Error {}

/** Refused start: DATA_DIR cannot be created or written (message: one line naming the folder and the cause). */
export class DataDirUnusableError extends Error {}

/** Causes of an unusable DATA_DIR by errno code, worded for the person starting the program. */
const DATA_DIR_CAUSES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'no permission to write there',
  EPERM: 'no permission to write there',
  ENOTDIR: 'the path runs through a file, not a folder',
  EEXIST: 'it is a file, not a folder',
}

/** `err` as a {@link DataDirUnusableError} when its errno code says the folder is unusable, else as is. */
function unusable(dataDir: string, err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | undefined)?.code
  const cause = code ? DATA_DIR_CAUSES[code] : undefined
  return cause ? new DataDirUnusableError(`DATA_DIR ${dataDir} cannot be used: ${cause} (${code}).`) : err
}

// DATE columns stay 'YYYY-MM-DD' strings: a calendar date has no time zone to be converted in.
const DATE_OID = 1082
const keepDate = (v: string) => v
pg.types.setTypeParser(DATE_OID, keepDate)

/**
 * Migrations are the files of server/db/migrations, applied in name order (`NNNN-what.ts`, each
 * exporting `up` and optionally `down`). Adding a file is all a feature needs to do.
 */
const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations')
const provider: MigrationProvider = {
  async getMigrations() {
    const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^\d{4}-.+\.ts$/.test(f) && !f.endsWith('.test.ts')).sort()
    const out: Record<string, Migration> = {}
    for (const f of files) out[f.replace(/\.ts$/, '')] = (await import(path.join(MIGRATIONS_DIR, f))) as Migration
    return out
  },
}

/**
 * Take the PGlite data directory for this process. PGlite is single-process: a second process on the
 * same files would corrupt them, so it is refused with a message naming the holder. A lock left by a
 * process that no longer runs is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  try {
    fs.mkdirSync(dataDir, { recursive: true })
    // mkdir of an existing file succeeds with recursive: it must be a folder.
    if (!fs.statSync(dataDir).isDirectory()) throw Object.assign(new Error('not a directory'), { code: 'EEXIST' })
  } catch (err) {
    throw unusable(dataDir, err)
  }
  const lockPath = path.join(dataDir, 'cockpit.lock')
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lockPath, String(process.pid), { flag: 'wx' })
      return () => fs.rmSync(lockPath, { force: true })
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw unusable(dataDir, err)
      const pid = Number(fs.readFileSync(lockPath, 'utf8').trim())
      if (pid && pid !== process.pid && isRunning(pid)) {
        throw new DataDirLockedError(
          `DATA_DIR ${dataDir} is in use by another Cockpit process (pid ${pid}). The embedded database allows ` +
            'one process only: stop the other process, choose another DATA_DIR, or set DATABASE_URL to a Postgres server.',
        )
      }
      fs.rmSync(lockPath, { force: true })
    }
  }
  throw new DataDirLockedError(`Could not lock DATA_DIR ${dataDir}`)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Open the system of record and bring its schema up to date.
 * - `databaseUrl` → a Postgres server (pg pool);
 * - `memory` → an in-memory PGlite (tests);
 * - otherwise PGlite files in `dataDir/pgdata`, locked to this process ({@link DataDirLockedError});
 *   a folder that cannot be created or written (full, read-only, no permission, a file) throws
 *   {@link DataDirUnusableError}.
 */
export async function openDatabase(opts: { dataDir: string; databaseUrl?: string; memory?: boolean }): Promise<{
  db: Db
  kind: 'postgres' | 'pglite'
  close: () => Promise<void>
}> {
  let db: Db
  let release = () => {}
  if (opts.databaseUrl) {
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: opts.databaseUrl, max: 10 }) }) })
  } else {
    let pglite: PGlite
    if (opts.memory) {
      pglite = await PGlite.create({ parsers: { [DATE_OID]: keepDate } })
    } else {
      release = lockDataDir(opts.dataDir)
      try {
        pglite = await PGlite.create({ dataDir: path.join(opts.dataDir, 'pgdata'), parsers: { [DATE_OID]: keepDate } })
      } catch (err) {
        release()
        throw unusable(opts.dataDir, err)
      }
    }
    db = new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) })
  }
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest()
  if (error) {
    await db.destroy()
    release()
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`Database migration ${failed ?? ''} failed: ${(error as Error).message}`)
  }
  return {
    db,
    kind: opts.databaseUrl ? 'postgres' : 'pglite',
    close: async () => {
      await db.destroy()
      release()
    },
  }
}
