import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { EventEmitter } from 'node:events'
import { Worker } from 'node:worker_threads'
import { Kysely, PostgresDialect, sql, type LogEvent } from 'kysely'
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration'
import pg from 'pg'
import type { Database } from './schema.ts'

export type Db = Kysely<Database>

/** The connection pool now: its size limit, connections open, of them idle, and callers waiting for one. */
export interface PoolUse {
  max: number
  total: number
  idle: number
  waiting: number
}

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

/**
 * How values come back, the same for PGlite and a Postgres server since both are reached through `pg`:
 * - DATE stays a 'YYYY-MM-DD' string: a calendar date has no time zone to be converted in;
 * - int8 (count(*), bigint, bigserial) is a number, as PGlite's own driver returned it and as the code
 *   expects (`countAll<number>()`); a value beyond 2^53 comes back as a bigint rather than rounded;
 * - timestamptz is a Date, numeric a string, json/jsonb parsed: pg's defaults.
 */
const DATE_OID = 1082
const INT8_OID = 20
const INT8_ARRAY_OID = 1016
const int8 = (v: string): number | bigint => {
  const n = Number(v)
  return Number.isSafeInteger(n) ? n : BigInt(v)
}
const int8Array = (pg.types.getTypeParser as (oid: number) => (v: string) => (string | null)[])(INT8_ARRAY_OID)
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === DATE_OID) return (v: string) => v
    if (oid === INT8_OID) return int8
    if (oid === INT8_ARRAY_OID) return (v: string) => int8Array(v).map((x) => (x === null ? null : int8(x)))
    return pg.types.getTypeParser(oid, format)
  }) as typeof pg.types.getTypeParser,
}

/**
 * Time the pool gets to end (a statement in flight finishes), then the time the embedded database
 * gets to close its files before its thread is ended: with the HTTP grace (SHUTDOWN_GRACE_MS, 4 s)
 * they stay inside the 10 s main.ts allows a shutdown.
 */
const POOL_END_MS = 2_000
/** Sort and hash memory of the embedded database's session (Postgres's default is 4 MB). */
const EMBEDDED_WORK_MEM = '32MB'
const WORKER_CLOSE_MS = 2_000

/**
 * Migrations are the files of server/db/migrations, applied in name order (`NNNN-what.ts`, each
 * exporting `up` and optionally `down`). Adding a file is all a feature needs to do; its name must sort
 * after every released one (server/db/migrations/released.json, checked by migrations.test.ts).
 * Those not yet run are run in name order even when a later-numbered one already ran
 * ({@link MIGRATOR_OPTIONS}; docs/decisions.md "Migrations run out of order").
 */
export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations')

/** Names of the migrations (file names without `.ts`), in the order they run. */
export function migrationNames(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => /^\d{4}-.+\.ts$/.test(f) && !f.endsWith('.test.ts'))
    .map((f) => f.replace(/\.ts$/, ''))
    .sort()
}

const provider: MigrationProvider = {
  async getMigrations() {
    const out: Record<string, Migration> = {}
    for (const name of migrationNames()) out[name] = (await import(path.join(MIGRATIONS_DIR, `${name}.ts`))) as Migration
    return out
  },
}

/**
 * Kysely refuses by default to start on a database where a migration ran that sorts after one not yet
 * run ("corrupted migrations"). Seven migrations were added below numbers already on main, so every
 * database made in between could not start on later code; here the missing ones are run in name order
 * instead. Each migration therefore must not depend on a later-numbered one having run, nor undo it
 * (docs/decisions.md "Migrations run out of order").
 */
export const MIGRATOR_OPTIONS = { allowUnorderedMigrations: true } as const

/**
 * Take the PGlite data directory for this process. PGlite is single-process: a second process on the
 * same files would corrupt them, so it is refused with a message naming the holder. A lock left by a
 * process that no longer runs is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
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

/** Whether process `pid` runs (EPERM: it does, under another user); a lock of an ended process is stale. */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Start the embedded PGlite in a worker thread serving the Postgres protocol on a unix socket in a
 * private temporary directory (0700, socket 0600: only this user can connect; PGlite itself has no
 * authentication). `dump` (a file of PGlite's dumpDataDir) is loaded when the database is new: see
 * server/db/pglite-worker.ts. Resolves once it accepts connections; `stop` closes the database and
 * ends the thread.
 */
async function startPgliteWorker(pgdata: string | null, log: ErrorLog, dump?: string): Promise<{ socketDir: string; stop: (busy: boolean) => Promise<void> }> {
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-db-'))
  const worker = new Worker(new URL('./pglite-worker.ts', import.meta.url), {
    workerData: { pgdata, dump, socketPath: path.join(socketDir, '.s.PGSQL.5432') },
  })
  const removeDir = () => fs.rmSync(socketDir, { recursive: true, force: true })
  // One listener for the thread's whole life: 'ready' (or 'error') once, 'closed' at the end.
  const events = new EventEmitter()
  worker.on('message', (m: { type: string; message?: string; code?: string }) => events.emit(m.type, m))
  worker.on('exit', (code) => events.emit('exit', code))
  worker.on('error', (err) => events.emit('failed', err))
  try {
    await new Promise<void>((resolve, reject) => {
      events.once('ready', resolve)
      events.once('error', (e: { message: string; code?: string }) => reject(Object.assign(new Error(`Embedded database: ${e.message}`), { code: e.code })))
      events.once('failed', reject)
      events.once('exit', (code: number) => reject(new Error(`Embedded database thread exited (${code}) while starting`)))
    })
  } catch (err) {
    await worker.terminate()
    removeDir()
    throw err
  }
  events.removeAllListeners()
  let stopping = false
  events.on('failed', (err: Error) => log.error({ err }, 'embedded database thread failed'))
  // Every statement fails from here on (pg: connection refused): said once, where an operator looks.
  events.on('exit', (code: number) => stopping || log.error({ code }, 'embedded database thread exited; the database is gone until restart'))
  const stop = async (busy: boolean) => {
    stopping = true
    // A clean close checkpoints PGlite's files; if the thread is stuck in a statement, it is ended and
    // the next start recovers from the write-ahead log as Postgres does after a crash. `busy` (a
    // statement outlived the pool's end) ends it at once: the thread reads no message before the
    // statement is done, so waiting for a clean close only spent WORKER_CLOSE_MS of the shutdown.
    if (!busy) {
      const closed = new Promise<void>((resolve) => {
        events.once('closed', resolve)
        events.once('exit', resolve)
      })
      worker.postMessage('close')
      await withTimeout(closed, WORKER_CLOSE_MS)
    }
    await worker.terminate()
    removeDir()
  }
  return { socketDir, stop }
}

/** How often the embedded database's tables are checked for growth since their last ANALYZE. */
const AUTO_ANALYZE_MS = 60_000

/**
 * ANALYZE the tables that grew by more than a fifth (and 64 KiB) since their last ANALYZE, as Postgres's
 * autovacuum does; PGlite has no such daemon, so its planner never had statistics and guessed one row
 * for the rollups (sorts and nested loops where hash aggregates win: "a year by day" took twice as
 * long). Growth is read from the catalog (pages now vs. pages at the last ANALYZE), which costs nothing.
 */
export async function analyzeGrownTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r' and pg_relation_size(c.oid) / 8192 > greatest(c.relpages, 0) * 1.2 + 8`.execute(db)
  for (const r of rows) await sql`analyze ${sql.table(r.name)}`.execute(db)
  return rows.map((r) => r.name)
}

/** Waits for `p` at most `ms`; true when it settled in time. */
const withTimeout = (p: Promise<unknown>, ms: number) =>
  new Promise<boolean>((resolve) => {
    const t = setTimeout(() => resolve(false), ms)
    void p.then(
      () => (clearTimeout(t), resolve(true)),
      () => (clearTimeout(t), resolve(true)),
    )
  })

/**
 * Where the database reports trouble after it opened: the server's JSON logger (pino, through Fastify),
 * or standard error for the scripts that open a database on their own.
 */
export interface ErrorLog {
  error(obj: object, msg: string): void
}
const stderrLog: ErrorLog = { error: (obj, msg) => console.error(msg, JSON.stringify(obj)) }

/**
 * Open the system of record and bring its schema up to date. Both kinds are reached through `pg` and
 * Kysely's PostgresDialect (ARCHITECTURE §1: one SQL dialect and one code path):
 * - `databaseUrl` → a Postgres server (pool of 10);
 * - otherwise the embedded PGlite in its own worker thread ({@link startPgliteWorker}), so a long
 *   statement never blocks the server's event loop: `memory` → in-memory (tests), else files in
 *   `dataDir/pgdata`, locked to this process ({@link DataDirLockedError}; a folder that cannot be created
 *   or written, full, read-only, no permission, a file, throws {@link DataDirUnusableError}). PGlite runs one statement at
 *   a time, so the pool holds one connection: pglite-socket multiplexes several connections message by
 *   message, which would interleave two clients' Parse/Bind/Execute on PGlite's single session.
 *   `dump` (a backupDataDir file or any PGlite dumpDataDir tarball, gzipped or not) is what a new
 *   embedded database starts from instead of an empty one: always in memory, in `dataDir` only while
 *   its pgdata folder holds no database. Its migrations are then only those it lacks. The tests start
 *   every app from one migrated and seeded dump (tests/integration/template.ts).
 * `close` ends the pool (waiting at most POOL_END_MS for a statement in flight), then the worker.
 * `onQuery` hears of every statement Kysely ran (its SQL text, seconds, whether it failed: Kysely's
 * `log` hook) and `pool()` tells the pool's use now, both for the process's metrics (server/lib/metrics.ts).
 */
export async function openDatabase(opts: { dataDir: string; databaseUrl?: string; memory?: boolean; dump?: string; log?: ErrorLog; onQuery?: (sql: string, seconds: number, failed: boolean) => void }): Promise<{
  db: Db
  kind: 'postgres' | 'pglite'
  close: () => Promise<void>
  pool: () => PoolUse
}> {
  const log = opts.log ?? stderrLog
  let pool: pg.Pool
  let release = async (_busy: boolean) => {}
  if (opts.databaseUrl) {
    pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10, types })
  } else {
    const unlock = opts.memory ? () => {} : lockDataDir(opts.dataDir)
    let worker
    try {
      worker = await startPgliteWorker(opts.memory ? null : path.join(opts.dataDir, 'pgdata'), log, opts.dump)
    } catch (err) {
      unlock()
      throw opts.memory ? err : unusable(opts.dataDir, err)
    }
    // user/database are what PGlite has; it accepts any credentials (the socket's permissions guard it).
    pool = new pg.Pool({ host: worker.socketDir, port: 5432, user: 'postgres', database: 'postgres', max: 1, idleTimeoutMillis: 0, types })
    release = async (busy: boolean) => {
      await worker.stop(busy)
      unlock()
    }
  }
  // A connection that breaks (the worker ended under a statement at close) must not take the process
  // down: pg reports it on the client, also while Kysely holds it, where nothing else listens.
  pool.on('error', (err) => log.error({ err: err.message }, 'database connection error'))
  const clients = new Set<pg.PoolClient>()
  pool.on('connect', (client) => {
    clients.add(client)
    client.on('error', () => {})
    client.on('end', () => clients.delete(client))
    // The embedded database's one connection: a year at 15 minutes sorts ~6 MB of buckets, which the
    // 4 MB default spilled to temporary files; a Postgres server keeps its operator's setting.
    if (!opts.databaseUrl) void client.query(`set work_mem = '${EMBEDDED_WORK_MEM}'`).catch(() => {})
  })
  const onQuery = opts.onQuery
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    ...(onQuery ? { log: (e: LogEvent) => onQuery(e.query.sql, e.queryDurationMillis / 1000, e.level === 'error') } : {}),
  })
  let analyzer: NodeJS.Timeout | undefined
  let closing = false
  const close = async () => {
    closing = true
    clearInterval(analyzer)
    const ended = await withTimeout(db.destroy(), POOL_END_MS)
    // A statement still running after the grace (a long report on a Postgres server) is cut: its
    // connection is closed under it, so it fails here instead of holding the shutdown (main.ts: 10 s).
    for (const client of clients) (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy()
    await release(!ended)
  }
  const { error, results } = await new Migrator({ db, provider, ...MIGRATOR_OPTIONS }).migrateToLatest()
  if (error) {
    await close()
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`Database migration ${failed ?? ''} failed: ${(error as Error).message}`)
  }
  if (!opts.databaseUrl) {
    // A round cut short by close (the pool is gone) is no failure worth a line.
    const analyze = () => analyzeGrownTables(db).catch((err: Error) => closing || log.error({ err: err.message }, 'ANALYZE of the embedded database failed'))
    await analyze()
    analyzer = setInterval(() => void analyze(), AUTO_ANALYZE_MS).unref()
  }
  const use = pool
  return { db, kind: opts.databaseUrl ? 'postgres' : 'pglite', close, pool: () => ({ max: use.options.max ?? 10, total: use.totalCount, idle: use.idleCount, waiting: use.waitingCount }) }
}
