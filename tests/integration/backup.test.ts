import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { openDatabase, type Db } from '../../server/db/connection.ts'
import { seedDemo } from '../../server/db/demo-seed.ts'
import { backupDataDir, restoreDataDir } from '../../server/db/backup.ts'
import { hashPassword } from '../../server/domain/auth/passwords.ts'
import { AT, testDatabaseUrl } from './helpers.ts'

// A backup restored elsewhere has the same rows, for the embedded database and for Postgres.
const dirs: string[] = []
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-backup-'))
  dirs.push(d)
  return d
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

/** Rows per table of the public schema. */
async function rowCounts(db: Db): Promise<Record<string, number>> {
  const tables = await sql<{ table_name: string }>`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`.execute(db)
  const out: Record<string, number> = {}
  for (const { table_name } of tables.rows) out[table_name] = Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table_name)}`.execute(db)).rows[0].n)
  return out
}

async function seeded(open: () => ReturnType<typeof openDatabase>) {
  const database = await open()
  // Seeded at the suite's morning (hours.ts), not at the machine's time.
  const now = new Date(AT.morning)
  await seedDemo(database.db, { passwordHash: await hashPassword('Cockpit-2026!'), now })
  // Some history too, so more than the seed's rows travel.
  await sql`insert into measurements (meter_id, ts, power_kw, energy_in_kwh, energy_out_kwh, soc, volume_m3)
    select m.id, ${now.toISOString()}::timestamptz - (g * interval '1 minute'), 1.5, 0.025, 0, null, 0 from meters m, generate_series(1, 200) g`.execute(database.db)
  return database
}

describe('backup and restore', () => {
  // The embedded one on the PGlite run only (it does not use the run's database).
  it.skipIf(Boolean(inject('pgUrl')))('the embedded database: a folder backed up and restored into another has the same rows', async () => {
    const source = tmp()
    const first = await seeded(() => openDatabase({ dataDir: source }))
    const before = await rowCounts(first.db)
    // While a server runs on the folder, the backup command refuses (PGlite is one process at a time).
    const cli = spawnSync(process.execPath, ['scripts/backup.ts', 'backup', path.join(tmp(), 'x.tar.gz'), source], { cwd: path.resolve(import.meta.dirname, '../..'), encoding: 'utf8' })
    expect(cli.status).toBe(1)
    expect(cli.stderr).toMatch(/in use by another Cockpit process/)
    await first.close()
    const file = path.join(tmp(), 'cockpit.tar.gz')
    expect((await backupDataDir(source, file)).bytes).toBeGreaterThan(1000)
    const target = tmp()
    await restoreDataDir(file, target)
    await expect(restoreDataDir(file, target)).rejects.toThrow(/already holds a database/)
    const restored = await openDatabase({ dataDir: target })
    try {
      expect(before.measurements).toBeGreaterThan(1000)
      expect(await rowCounts(restored.db)).toEqual(before)
      await sql`delete from measurements`.execute(restored.db)
    } finally {
      await restored.close()
    }
    // The backup file as the start of an in-memory database (openDatabase's `dump`), and of a new
    // DATA_DIR; a DATA_DIR that holds a database already keeps its own rows.
    for (const open of [() => openDatabase({ dataDir: '/nonexistent', memory: true, dump: file }), () => openDatabase({ dataDir: tmp(), dump: file })]) {
      const started = await open()
      try {
        expect(await rowCounts(started.db)).toEqual(before)
      } finally {
        await started.close()
      }
    }
    const kept = await openDatabase({ dataDir: target, dump: file })
    try {
      expect(await rowCounts(kept.db)).toEqual({ ...before, measurements: 0 })
    } finally {
      await kept.close()
    }
  }, 120_000)

  it.skipIf(!inject('pgUrl'))('Postgres: pg_dump and pg_restore into a new database give the same rows', async () => {
    const from = (await testDatabaseUrl())!
    const first = await seeded(() => openDatabase({ dataDir: '/nonexistent', databaseUrl: from }))
    const before = await rowCounts(first.db)
    const file = path.join(tmp(), 'cockpit.dump')
    execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${file}`, from])
    await first.close()
    const to = (await testDatabaseUrl())!
    execFileSync('pg_restore', ['--no-owner', `--dbname=${to}`, file])
    const restored = await openDatabase({ dataDir: '/nonexistent', databaseUrl: to })
    try {
      expect(await rowCounts(restored.db)).toEqual(before)
    } finally {
      await restored.close()
    }
  }, 120_000)
})
