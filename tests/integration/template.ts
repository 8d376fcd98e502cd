import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { isRunning, openDatabase } from '../../server/db/connection.ts'
import { seedDemo } from '../../server/db/demo-seed.ts'
import { hashPassword } from '../../server/domain/auth/passwords.ts'

/**
 * Migrated and seeded template databases for the test apps (docs/decisions.md "Test apps start from a
 * template"). Migrating an empty database (PGlite also runs initdb in WASM) and seeding the demo took
 * most of a test app's start; now it is done once and every app starts from a copy:
 * - PGlite: a dump of the seeded data folder (PGlite's dumpDataDir, plain tar) kept in .tmp/test-templates
 *   across runs; the app's embedded database loads it (Config.pgliteDump);
 * - Postgres (TEST_DB=postgres): a database on the run's cluster, copied by CREATE DATABASE … TEMPLATE.
 * The demo seed depends on the demo password and on the seed's instant (server/db/demo-seed.ts: the
 * rates start on 1 January of last year, cards expire in three years, the legal texts are accepted "now"),
 * so a template is made for the password and the UTC day of the app's clock, seeded at 00:00 UTC of that
 * day: it serves every app whose clock starts on that day (the suite's hours, tests/integration/hours.ts,
 * fall on a few days), and its legal acceptances and creation times date from before the app's start.
 * Which template serves an app depends on the app's clock only, never on the machine's. The kept dump's
 * name also holds a digest of the code that makes it (migrations, seed, PGlite's version), so a changed
 * migration makes a new one. The template holds no JWT secret (server/domain/auth/service.ts loadJwtSecret), so
 * every app still makes its own, and no relay service account (made by the app that runs the relay).
 *
 * A template is made on first use, so a run of unit tests only pays nothing. Test files run in several
 * processes at once: a lock lets one process make a template while the others wait.
 */

const repo = path.resolve(import.meta.dirname, '../..')
/** Where the PGlite templates are kept between runs (git-ignored). */
const CACHE_DIR = path.join(repo, '.tmp', 'test-templates')
/** A kept template older than this is removed when a new one is made. */
const CACHE_DAYS = 2

/** The UTC day of `at`, 'YYYY-MM-DD'. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10)
/** 00:00 UTC of `at`'s UTC day: the instant a template for that day is seeded at. */
const dayStart = (at: Date) => new Date(`${utcDay(at)}T00:00:00Z`)
/** A short digest of the demo password for the template's name (the password itself stays out of it). */
const digest = (password: string) => crypto.createHash('sha256').update(password).digest('hex').slice(0, 8)

/** Migrate a database and seed the demo into it at `now`, as buildApp does with DEMO on. */
async function migrateAndSeed(open: () => ReturnType<typeof openDatabase>, password: string, now: Date): Promise<void> {
  const database = await open()
  try {
    await seedDemo(database.db, { passwordHash: await hashPassword(password), now })
  } finally {
    await database.close()
  }
}

let codeDigestValue: string | undefined
/** A digest of what the PGlite template is made by: the migrations, the seed and the services it uses, this file and PGlite's version. */
function codeDigest(): string {
  if (codeDigestValue) return codeDigestValue
  const h = crypto.createHash('sha256')
  const migrations = path.join(repo, 'server/db/migrations')
  // The seed writes through the provisioning services (server/db/demo-seed.ts): their code makes the template too.
  const seedServices = ['installations', 'objects', 'meters', 'stations', 'ocpp', 'configuration', 'audit'].map((d) => path.join(repo, 'server/domain', d))
  const files = [
    ...fs.readdirSync(migrations).sort().map((f) => path.join(migrations, f)),
    ...seedServices.flatMap((d) => fs.readdirSync(d).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts')).sort().map((f) => path.join(d, f))),
    ...['server/db/demo-seed.ts', 'server/db/connection.ts', 'server/domain/auth/passwords.ts', 'tests/integration/template.ts', 'node_modules/@electric-sql/pglite/package.json'].map((f) => path.join(repo, f)),
  ]
  for (const f of files) h.update(f).update(fs.readFileSync(f))
  return (codeDigestValue = h.digest('hex').slice(0, 12))
}

const pgliteTemplates = new Map<string, Promise<string | undefined>>()

/**
 * The PGlite dump file of the demo seeded with `password` at 00:00 UTC of `seedAt`'s UTC day, made on
 * first use, or undefined when another process failed to make it in time (the app then seeds anew).
 */
export async function pgliteTemplate(password: string, seedAt: Date): Promise<string | undefined> {
  const file = path.join(CACHE_DIR, `demo-${utcDay(seedAt)}-${digest(password)}-${codeDigest()}.tar`)
  let made = pgliteTemplates.get(file)
  if (!made) pgliteTemplates.set(file, (made = makeOnce(file, () => makePgliteTemplate(file, password, dayStart(seedAt)))))
  return made
}

/** Make the dump `file` in a data folder of its own, then write it atomically (a reader never sees half). */
async function makePgliteTemplate(file: string, password: string, now: Date): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-template-'))
  try {
    await migrateAndSeed(() => openDatabase({ dataDir }), password, now)
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata') })
    try {
      // Plain tar: loads in about half the time of the gzipped dump, for ~40 MB on disk.
      const dump = await pglite.dumpDataDir('none')
      fs.writeFileSync(`${file}.${process.pid}.part`, Buffer.from(await dump.arrayBuffer()))
      fs.renameSync(`${file}.${process.pid}.part`, file)
    } finally {
      await pglite.close()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  for (const f of fs.readdirSync(CACHE_DIR)) {
    const old = path.join(CACHE_DIR, f)
    if (old !== file && Date.now() - fs.statSync(old).mtimeMs > CACHE_DAYS * 86_400_000) fs.rmSync(old, { force: true })
  }
}

/** How long a process waits for another one making a template before it seeds its app anew. */
const WAIT_MS = 120_000

/**
 * `file` once it exists: made here when this process takes the lock (a file beside it holding the
 * maker's pid, created exclusively), else awaited from the process holding it; a lock whose process
 * ended is taken over. Undefined when making or waiting failed.
 */
async function makeOnce(file: string, make: () => Promise<void>): Promise<string | undefined> {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const lock = `${file}.lock`
  const end = Date.now() + WAIT_MS
  for (;;) {
    if (fs.existsSync(file)) return file
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: 'wx' })
      break
    } catch {
      let holder = 0
      try {
        holder = Number(fs.readFileSync(lock, 'utf8'))
      } catch {
        continue // released meanwhile
      }
      if (holder && !isRunning(holder)) fs.rmSync(lock, { force: true })
      else if (Date.now() > end) return undefined
      else await new Promise((r) => setTimeout(r, 100))
    }
  }
  try {
    if (!fs.existsSync(file)) await make()
    return file
  } catch (err) {
    console.error(`test template ${file} could not be made; apps seed anew:`, err)
    return undefined
  } finally {
    fs.rmSync(lock, { force: true })
  }
}

/** Advisory lock key serializing template work on the test cluster (any fixed bigint). */
const TEMPLATE_LOCK = 0x74706c /* "tpl" */

/**
 * A new database on the test cluster `admin` (tests/postgres/global-setup.ts): a copy of the template
 * with the demo seeded with `password` at 00:00 UTC of `seedAt`'s UTC day (the template made on first
 * use). Returns its URL.
 *
 * CREATE DATABASE refuses a template another session is connected to, and a copy in progress counts as
 * one; so making the template and every copy run under one advisory lock, across the test processes.
 */
export async function postgresDatabase(admin: string, name: string, password: string, seedAt: Date): Promise<string> {
  const urlOf = (db: string) => Object.assign(new URL(admin), { pathname: `/${db}` }).toString()
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    const template = `cockpit_demo_${utcDay(seedAt).replaceAll('-', '')}_${digest(password)}`
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK])
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [template])
      if (!rowCount) {
        await client.query(`CREATE DATABASE ${template} TEMPLATE template0`)
        try {
          await migrateAndSeed(() => openDatabase({ dataDir: '/nonexistent', databaseUrl: urlOf(template) }), password, dayStart(seedAt))
        } catch (err) {
          await client.query(`DROP DATABASE ${template}`)
          throw err
        }
      }
      await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`)
    } finally {
      await client.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK])
    }
    return urlOf(name)
  } finally {
    await client.end()
  }
}
