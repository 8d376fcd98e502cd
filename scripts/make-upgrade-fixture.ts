import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import zlib from 'node:zlib'
import { migrationOrderProblems, type ReleasedMigrations } from '../server/db/migration-order.ts'

/**
 * Makes the upgrade fixture of a release (CHANGELOG.md "Releasing"; docs/decisions.md "Migrations run
 * out of order"): starts the server of a source tree on an empty DATA_DIR with the demo and one day of
 * simulator backfill, waits for GET /api/ready, stops it with SIGTERM, and stores its embedded database
 * in tests/fixtures/upgrade/:
 * - `<name>.tar.br`: PGlite's `dumpDataDir()` tar of DATA_DIR/pgdata, brotli-compressed;
 * - `<name>.json`: what tests/integration/upgrade.test.ts expects to find after today's code started on
 *   it (migrations that had run, rows per table, the demo users and password, the main meters' energy).
 * For a release (no --name) it also writes server/db/migrations/released.json, after checking that no
 * migration of the tree breaks the naming rule against the previous release's list, and removes the
 * previous release's fixture.
 *
 *   node scripts/make-upgrade-fixture.ts                       # this tree, named by package.json's version
 *   node scripts/make-upgrade-fixture.ts --tree /tmp/old --name bd39bdd   # an older checkout, not a release
 *
 * The tree is run with its own node_modules (a git worktree may link today's). Takes about a minute.
 */
const ROOT = path.resolve(import.meta.dirname, '..')
const FIXTURES = path.join(ROOT, 'tests/fixtures/upgrade')
const RELEASED = path.join(ROOT, 'server/db/migrations/released.json')
const DEMO_PASSWORD = 'Cockpit-2026!'

const args = process.argv.slice(2)
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : undefined
}
const tree = path.resolve(opt('tree') ?? ROOT)
const version = (JSON.parse(fs.readFileSync(path.join(tree, 'package.json'), 'utf8')) as { version: string }).version
const name = opt('name') ?? version
const release = opt('name') === undefined
const commit = execFileSync('git', ['-C', tree, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })

/** Start the tree's server on `dataDir`, wait until it is ready (backfill done, jobs started), stop it. */
async function runServer(dataDir: string): Promise<void> {
  const port = await freePort()
  const node = path.join(tree, 'node_modules/.bin/node')
  const child = spawn(fs.existsSync(node) ? node : process.execPath, ['server/main.ts'], {
    cwd: tree,
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      DEMO: 'on',
      DEMO_PASSWORD,
      SIM_BACKFILL_DAYS: '1',
      SIM_SEED: '7',
      ROLES: 'api,simulator',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let gone = false
  void exited.then(() => (gone = true))
  const deadline = performance.now() + 300_000
  for (;;) {
    if (gone) throw new Error('the server ended before it was ready')
    if (performance.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error('the server was not ready within 5 minutes')
    }
    const ready = await fetch(`http://127.0.0.1:${port}/api/ready`).then((r) => r.ok, () => false)
    if (ready) break
    await new Promise((r) => setTimeout(r, 500))
  }
  child.kill('SIGTERM')
  const code = await exited
  if (code !== 0) throw new Error(`the server exited with ${code} on SIGTERM`)
}

/** What the fixture holds, read with the tree's own PGlite; returns it and the dump (uncompressed tar). */
async function inspect(pgdata: string) {
  const { PGlite } = (await import(pathToFileURL(path.join(tree, 'node_modules/@electric-sql/pglite/dist/index.js')).href)) as typeof import('@electric-sql/pglite')
  const db = await PGlite.create({ dataDir: pgdata })
  try {
    const q = async <T>(text: string) => (await db.query<T>(text)).rows
    const migrations = (await q<{ name: string }>('select name from kysely_migration order by name')).map((r) => r.name)
    const tables = (await q<{ t: string }>(`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%' order by 1`)).map((r) => r.t)
    const rows: Record<string, number> = {}
    for (const t of tables) rows[t] = Number((await q<{ n: number }>(`select count(*)::int as n from "${t}"`))[0].n)
    const users = (await q<{ email: string }>('select email from users where is_active and password_hash is not null order by id')).map((r) => r.email)
    // Per installation: the main meter's imported energy (kWh) over the installation-local days that
    // hold 15-minute aggregates; GET /api/statistics/{id}/totals answers it as grid_import.
    const energy = await q<{ installation_id: number; start: string; end: string; grid_import_kwh: number }>(`
      select i.id as installation_id,
             to_char(min(a.bucket at time zone i.timezone), 'YYYY-MM-DD') as start,
             to_char(max(a.bucket at time zone i.timezone) + interval '1 day', 'YYYY-MM-DD') as "end",
             sum(a.energy_in_kwh)::float8 as grid_import_kwh
      from installations i join meters m on m.installation_id = i.id and m.meter_type = 'main_power'
      join measurements_15m a on a.meter_id = m.id
      group by i.id order by i.id`)
    const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer())
    return { migrations, rows, users, energy, dump }
  } finally {
    await db.close()
  }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-fixture-'))
try {
  if (release) {
    const previous = JSON.parse(fs.readFileSync(RELEASED, 'utf8')) as ReleasedMigrations
    const files = fs.readdirSync(path.join(tree, 'server/db/migrations')).filter((f) => /^\d{4}-.+\.ts$/.test(f) && !f.endsWith('.test.ts'))
    const problems = migrationOrderProblems(previous.migrations, files.map((f) => f.replace(/\.ts$/, '')))
    if (problems.length) throw new Error(`migration names break the rule against release ${previous.release}:\n  ${problems.join('\n  ')}`)
  }
  console.log(`Starting the server of ${tree} (${commit}, version ${version}) on ${tmp} …`)
  await runServer(tmp)
  const { dump, ...facts } = await inspect(path.join(tmp, 'pgdata'))
  const compressed = zlib.brotliCompressSync(dump, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_LGWIN]: 24, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: dump.length },
  })
  fs.mkdirSync(FIXTURES, { recursive: true })
  if (release) {
    // One release fixture at a time: the previous one is replaced (git keeps it).
    for (const f of fs.readdirSync(FIXTURES)) {
      if (!f.endsWith('.json')) continue
      const other = JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as { release?: boolean; name: string }
      if (other.release && other.name !== name) for (const ext of ['.json', '.tar.br']) fs.rmSync(path.join(FIXTURES, other.name + ext), { force: true })
    }
  }
  fs.writeFileSync(path.join(FIXTURES, `${name}.tar.br`), compressed)
  const made = { name, release, version, commit, made_at: new Date().toISOString().slice(0, 10), demo_password: DEMO_PASSWORD, ...facts }
  fs.writeFileSync(path.join(FIXTURES, `${name}.json`), JSON.stringify(made, null, 2) + '\n')
  if (release) {
    const list: ReleasedMigrations = { release: version, commit, migrations: facts.migrations }
    fs.writeFileSync(RELEASED, JSON.stringify(list, null, 2) + '\n')
  }
  console.log(`Wrote tests/fixtures/upgrade/${name}.tar.br (${(compressed.length / 1e6).toFixed(2)} MB, ${(dump.length / 1e6).toFixed(1)} MB unpacked) and ${name}.json${release ? ', and server/db/migrations/released.json' : ''}.`)
} finally {
  fs.rmSync(tmp, { recursive: true, force: true })
}
