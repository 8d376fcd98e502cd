import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import type { AddressInfo } from 'node:net'
import { PGlite } from '@electric-sql/pglite'
import { sql } from 'kysely'
import request from 'supertest'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { buildApp } from '../../server/app.ts'
import { loadConfig, type Config } from '../../config/env.ts'
import { migrationNames, openDatabase, type Db } from '../../server/db/connection.ts'
import { auth, testDatabaseUrl } from './helpers.ts'

/**
 * Upgrades (CHANGELOG.md; docs/decisions.md "Migrations run out of order"): today's code starts on a
 * database made by an earlier version and keeps its data. tests/fixtures/upgrade/ holds such databases
 * (scripts/make-upgrade-fixture.ts): the last release's, and bd39bdd's, whose 0125 and 0130 sort below
 * migrations it had run and which Kysely's default refused ("corrupted migrations").
 */
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures/upgrade')

interface Fixture {
  name: string
  release: boolean
  commit: string
  demo_password: string
  migrations: string[]
  rows: Record<string, number>
  users: string[]
  energy: { installation_id: number; start: string; end: string; grid_import_kwh: number }[]
}
const fixtures = fs
  .readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(FIXTURES, f), 'utf8')) as Fixture)

const dirs: string[] = []
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-upgrade-'))
  dirs.push(d)
  return d
}
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })))

/** Unpack a fixture's database into `dataDir`/pgdata, as `scripts/backup.ts restore` loads a backup. */
async function unpack(name: string, dataDir: string): Promise<void> {
  const tar = zlib.brotliDecompressSync(fs.readFileSync(path.join(FIXTURES, `${name}.tar.br`)))
  const db = await PGlite.create({ dataDir: path.join(dataDir, 'pgdata'), loadDataDir: new Blob([tar]) })
  await db.close()
}

const count = async (db: Db, table: string) => Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(db)).rows[0].n)
const ran = async (db: Db) => (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db)).rows.map((r) => r.name)

it('the fixtures are there: the last release and bd39bdd', () => {
  expect(fixtures.filter((f) => f.release)).toHaveLength(1)
  expect(fixtures.map((f) => f.name)).toContain('bd39bdd')
})

// The fixtures are embedded databases: the PGlite run only (the Postgres run has the test below).
describe.skipIf(Boolean(inject('pgUrl'))).each(fixtures)('a database made by $name ($commit)', (fixture) => {
  let app: FastifyInstance
  let db: Db
  const api = () => request(app.server)

  beforeAll(async () => {
    const dataDir = tmp()
    await unpack(fixture.name, dataDir)
    const config: Config = {
      ...loadConfig({}),
      port: 0,
      host: '127.0.0.1',
      dataDir,
      databaseUrl: undefined,
      memoryDb: false,
      // As the demo is run: a demo already seeded is left as it is.
      demo: true,
      demoPassword: fixture.demo_password,
      roles: ['api'],
      logLevel: 'silent',
    }
    app = await buildApp(config)
    await app.listen({ port: 0, host: '127.0.0.1' })
    expect((app.server.address() as AddressInfo).port).toBeGreaterThan(0)
    db = app.domain!.db
  })
  afterAll(async () => app?.close())

  it('starts: the migrations it lacked have run', async () => {
    expect(await ran(db)).toEqual(migrationNames())
    expect(migrationNames()).toEqual(expect.arrayContaining(fixture.migrations))
  })

  it('keeps every row of every table it had', async () => {
    const now: Record<string, number> = {}
    for (const table of Object.keys(fixture.rows)) now[table] = await count(db, table)
    expect(now).toEqual(fixture.rows)
    expect(fixture.rows.measurements_15m).toBeGreaterThan(1000)
    expect(fixture.rows.charging_sessions).toBeGreaterThan(0)
  })

  it('signs in its users with their password; the superuser sees its installations and stations', async () => {
    let superToken = ''
    for (const email of fixture.users) {
      const r = await api().post('/api/authentication/token/').send({ email, password: fixture.demo_password })
      expect(r.status, email).toBe(200)
      if (email === 'super@example.com') superToken = r.body.access as string
    }
    expect(superToken).not.toBe('')
    const installations = await api().get('/api/cockpit/installations/').set(auth(superToken)).expect(200)
    expect(installations.body.count).toBe(fixture.rows.installations)
    let stations = 0
    for (const { id } of installations.body.results as { id: number }[]) {
      stations += (await api().get(`/api/ladestation/?installation=${id}`).set(auth(superToken)).expect(200)).body.count as number
    }
    expect(stations).toBe(fixture.rows.charging_stations)
  })

  it("answers its stored energy through the statistics, migrations' rollups included", async () => {
    const token = (await api().post('/api/authentication/token/').send({ email: 'super@example.com', password: fixture.demo_password }).expect(200)).body.access as string
    expect(fixture.energy.length).toBeGreaterThan(0)
    for (const e of fixture.energy) {
      const r = await api().get(`/api/statistics/${e.installation_id}/totals?start=${e.start}&end=${e.end}`).set(auth(token)).expect(200)
      expect(r.body.series.grid_import).toBeCloseTo(e.grid_import_kwh, 3)
    }
  })
})

describe('migrations numbered below ones that ran', () => {
  // On both databases: a schema as bd39bdd left it (0140 and 0150 run, 0125 and 0130 not yet) is
  // made by undoing those two, and the next start runs them.
  it('run at the next start; the database starts', async () => {
    const databaseUrl = await testDatabaseUrl()
    const opts = { dataDir: databaseUrl ? '/nonexistent' : tmp(), databaseUrl }
    const first = await openDatabase(opts)
    try {
      await sql`drop table legal_versions`.execute(first.db)
      await sql`alter table ocpp_charge_points drop column simulated`.execute(first.db)
      await sql`delete from kysely_migration where name in ('0125-legal-versions', '0130-ocpp-simulated')`.execute(first.db)
      expect(await ran(first.db)).toContain('0150-rights-revision-installations')
    } finally {
      await first.close()
    }
    const second = await openDatabase(opts)
    try {
      expect(await ran(second.db)).toEqual(migrationNames())
      expect(await count(second.db, 'legal_versions')).toBe(2)
      await sql`select simulated from ocpp_charge_points`.execute(second.db)
    } finally {
      await second.close()
    }
  }, 120_000)
})
