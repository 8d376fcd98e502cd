import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, inject, it } from 'vitest'
import { testDatabaseUrl, until } from './helpers.ts'

// Three processes started at once on one empty Postgres database give one schema and one
// demo (migrations under Kysely's migration lock, the demo seed under an advisory lock). Only on the
// Postgres run (npm run test:pg); PGlite allows one process per data folder anyway.
const repo = path.resolve(import.meta.dirname, '../..')
const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) c.kill('SIGKILL')
})

describe.skipIf(!inject('pgUrl'))('concurrent start on Postgres', () => {
  it('three API processes started at once migrate once and seed one demo', async () => {
    const url = (await testDatabaseUrl())!
    const logs: string[] = ['', '', '']
    const exits: (number | null)[] = [null, null, null]
    for (let i = 0; i < 3; i++) {
      const child = spawn(process.execPath, ['server/main.ts'], {
        cwd: repo,
        env: { ...process.env, DATABASE_URL: url, ROLES: 'api', DEMO: 'on', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATA_DIR: '/nonexistent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      child.stdout!.on('data', (d) => (logs[i] += d))
      child.stderr!.on('data', (d) => (logs[i] += d))
      child.on('exit', (code) => (exits[i] = code))
      children.push(child)
    }
    await until(() => logs.every((l) => l.includes('Cockpit listening')) || exits.some((e) => e !== null), 60_000, 'three processes listening')
    expect(exits, logs.join('\n----\n')).toEqual([null, null, null])
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      const migrations = fs.readdirSync(path.join(repo, 'server/db/migrations')).filter((f) => /^\d{4}-.+\.ts$/.test(f) && !f.endsWith('.test.ts'))
      const applied = await client.query('select name from kysely_migration order by name')
      expect(applied.rows.map((r) => r.name)).toEqual(migrations.map((f) => f.replace(/\.ts$/, '')).sort())
      const installations = await client.query('select name from installations order by id')
      expect(installations.rows.map((r) => r.name)).toEqual(['Demo Residence Zürich', 'Demo Office Bern'])
      const admins = await client.query("select count(*)::int as n from users where email = 'admin@example.com'")
      expect(admins.rows[0].n).toBe(1)
    } finally {
      await client.end()
    }
    // Exactly one process seeded.
    expect(logs.filter((l) => l.includes('demo facility seeded'))).toHaveLength(1)
  }, 90_000)
})
