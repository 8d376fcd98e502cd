import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { inject } from 'vitest'
import { openDatabase } from '../../server/db/connection.ts'
import { seedDemo } from '../../server/db/demo-seed.ts'
import { hashPassword } from '../../server/domain/auth/passwords.ts'

/**
 * Migrated and seeded template databases for the test apps (docs/decisions.md "Test apps start from a
 * template"). Migrating an empty database (PGlite also runs initdb in WASM) and seeding the demo took
 * most of a test app's start; a run now does it once per seed and every app starts from a copy:
 * - PGlite: a dump of the seeded data folder (PGlite's dumpDataDir, plain tar) in the run's folder
 *   (tests/integration/global-setup.ts); the app's embedded database loads it (Config.pgliteDump);
 * - Postgres (TEST_DB=postgres): a database on the run's cluster, copied by CREATE DATABASE … TEMPLATE.
 * The demo seed depends on the demo password and on the seed's instant (server/db/demo-seed.ts: the
 * rates start on 1 January of last year, cards expire in three years, the legal texts are accepted "now"),
 * so a template is made for the password and the UTC day it was seeded on, and serves only apps whose
 * seed instant falls on that day (its legal acceptances then date from the template's instant, earlier
 * that day). An app whose clock is on another day seeds anew as before. The template holds no JWT
 * secret (server/domain/auth/service.ts loadJwtSecret), so every app still makes its own, and no relay
 * service account (made by the app that runs the relay).
 *
 * Both are made on first use, not in the global set-up, so a run of unit tests only pays nothing. Test
 * files run in several processes at once: a lock lets one process make a template while the others wait.
 */

/** The UTC day of `at`, 'YYYY-MM-DD'. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10)
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

const pgliteTemplates = new Map<string, Promise<string | undefined>>()

/**
 * The PGlite dump file of the demo seeded with `password` on today's UTC day, made on first use, or
 * undefined when `seedAt` is on another day, outside a Vitest run with the global set-up, or when
 * another process failed to make it in time (the app then seeds anew).
 */
export async function pgliteTemplate(password: string, seedAt: Date): Promise<string | undefined> {
  const dir = inject('templateDir')
  const now = new Date()
  if (!dir || utcDay(seedAt) !== utcDay(now)) return undefined
  const file = path.join(dir, `demo-${utcDay(now)}-${digest(password)}.tar`)
  let made = pgliteTemplates.get(file)
  if (!made) pgliteTemplates.set(file, (made = makeOnce(file, () => makePgliteTemplate(file, password, now))))
  return made
}

/** Make the dump `file` in a data folder of its own, then write it atomically (a reader never sees half). */
async function makePgliteTemplate(file: string, password: string, now: Date): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-template-'))
  try {
    await migrateAndSeed(() => openDatabase({ dataDir }), password, now)
    const pglite = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata') })
    try {
      // Plain tar: a fifth of the gzipped dump's loading time for ~40 MB on disk.
      const dump = await pglite.dumpDataDir('none')
      fs.writeFileSync(`${file}.part`, Buffer.from(await dump.arrayBuffer()))
      fs.renameSync(`${file}.part`, file)
    } finally {
      await pglite.close()
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/** How long a process waits for another one making a template before it seeds its app anew. */
const WAIT_MS = 120_000

/**
 * `file` once it exists: made here when this process takes the lock (a folder beside it: mkdir is
 * atomic), else awaited from the process holding it. Undefined when making or waiting failed.
 */
async function makeOnce(file: string, make: () => Promise<void>): Promise<string | undefined> {
  if (fs.existsSync(file)) return file
  const lock = `${file}.lock`
  try {
    fs.mkdirSync(lock)
  } catch {
    const end = Date.now() + WAIT_MS
    while (!fs.existsSync(file) && fs.existsSync(lock) && Date.now() < end) await new Promise((r) => setTimeout(r, 100))
    return fs.existsSync(file) ? file : undefined
  }
  try {
    await make()
    return file
  } catch (err) {
    console.error(`test template ${file} could not be made; apps seed anew:`, err)
    return undefined
  } finally {
    fs.rmSync(lock, { recursive: true, force: true })
  }
}

/** Advisory lock key serializing template work on the test cluster (any fixed bigint). */
const TEMPLATE_LOCK = 0x74706c /* "tpl" */

/**
 * A new database on the test cluster `admin` (tests/postgres/global-setup.ts): a copy of the template
 * with the demo seeded with `password` on `seedAt`'s UTC day when that is today (the template made on
 * first use), else an empty one (template0). Returns its URL.
 *
 * CREATE DATABASE refuses a template another session is connected to, and a copy in progress counts as
 * one; so making the template and every copy run under one advisory lock, across the test processes.
 */
export async function postgresDatabase(admin: string, name: string, password: string, seedAt: Date): Promise<string> {
  const urlOf = (db: string) => Object.assign(new URL(admin), { pathname: `/${db}` }).toString()
  const now = new Date()
  const client = new pg.Client({ connectionString: admin })
  await client.connect()
  try {
    if (utcDay(seedAt) !== utcDay(now)) {
      await client.query(`CREATE DATABASE ${name} TEMPLATE template0`)
      return urlOf(name)
    }
    const template = `cockpit_demo_${utcDay(now).replaceAll('-', '')}_${digest(password)}`
    await client.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK])
    try {
      const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [template])
      if (!rowCount) {
        await client.query(`CREATE DATABASE ${template} TEMPLATE template0`)
        try {
          await migrateAndSeed(() => openDatabase({ dataDir: '/nonexistent', databaseUrl: urlOf(template) }), password, now)
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
