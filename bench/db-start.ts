/**
 * Database start and per-query cost: time from nothing to the demo ready (migrations,
 * seed, 30-day backfill) on a fresh DATA_DIR, then 1000 simple selects and the time they take.
 * Usage: node bench/db-start.ts [dataDir]  (a fresh temporary directory by default; removed afterwards).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'kysely'
import { loadConfig } from '../config/env.ts'
import { buildApp, startBackground } from '../server/app.ts'

const dataDir = process.argv[2] ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-bench-'))
const t0 = performance.now()
const app = await buildApp({ ...loadConfig({ DATA_DIR: dataDir, DEMO: 'on', LOG_LEVEL: 'silent' }), logLevel: 'silent' })
const tBuilt = performance.now()
await startBackground(app)
const tReady = performance.now()
await app.jobRunner?.stop()
await app.simulator?.stop()
const db = app.domain!.db
const t1 = performance.now()
for (let i = 0; i < 1000; i++) await sql`select 1 as x`.execute(db)
const tSelect = performance.now()
for (let i = 0; i < 1000; i++) await db.selectFrom('installations').selectAll().where('id', '=', 1).execute()
const tRows = performance.now()
await app.close()
if (!process.argv[2]) fs.rmSync(dataDir, { recursive: true, force: true })
const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`
console.log(`buildApp (migrate + seed): ${f(tBuilt - t0)}; startBackground (backfill): ${f(tReady - tBuilt)}; total ${f(tReady - t0)}`)
console.log(`1000 × select 1: ${(tSelect - t1).toFixed(0)} ms (${((tSelect - t1) / 1000).toFixed(3)} ms each)`)
console.log(`1000 × installation by id: ${(tRows - tSelect).toFixed(0)} ms (${((tRows - tSelect) / 1000).toFixed(3)} ms each)`)
