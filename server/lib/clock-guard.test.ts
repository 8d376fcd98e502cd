import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * ARCHITECTURE §1 "Time": the server takes "now" only from its one clock (server/lib/clock.ts). This test
 * reads every product source file of server/ and shared/ and fails on a new read of the wall clock:
 * `Date.now()`, `new Date()` or `dayjs()` without an argument, SQL's `now()`/CURRENT_TIMESTAMP/CURRENT_DATE (the
 * database's own clock), and jose's `setIssuedAt()` without a time. Migrations may keep column defaults;
 * code that decides by time passes the clock's instant instead.
 */
const repo = path.resolve(import.meta.dirname, '../..')
const ALLOWED = new Set(['server/lib/clock.ts'])

const READS: Array<[RegExp, string]> = [
  [/\bDate\.now\(\)/, 'Date.now()'],
  [/\bnew Date\(\s*\)/, 'new Date()'],
  [/\bdayjs(?:\.tz|\.utc)?\(\s*\)/, 'dayjs()'],
  [/\bnew Date\b(?!\s*\()/, 'new Date'],
  [/\b(current_timestamp|current_date|localtimestamp|clock_timestamp\(\)|statement_timestamp\(\)|transaction_timestamp\(\))/i, 'SQL clock'],
  [/\.setIssuedAt\(\s*\)/, 'setIssuedAt() without a time'],
]
// SQL's now() inside a Kysely sql`…` template (a clock's `now()` call in code is fine).
const SQL_TEMPLATE = /\bsql(?:<[^>`]*>)?`([^`]*)`/g

function sources(dir: string): string[] {
  const out: string[] = []
  for (const entry of fs.readdirSync(path.join(repo, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name)
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || rel === path.join('server', 'db', 'migrations')) continue
      out.push(...sources(rel))
    } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      out.push(rel)
    }
  }
  return out
}

/** Every wall-clock read in product code, as `file:line: what`. */
export function wallClockReads(): string[] {
  const found: string[] = []
  for (const file of [...sources('server'), ...sources('shared')]) {
    if (ALLOWED.has(file.split(path.sep).join('/'))) continue
    const text = fs.readFileSync(path.join(repo, file), 'utf8')
    text.split('\n').forEach((line, i) => {
      const code = line.replace(/(^|[^:])\/\/.*$/, '$1').replace(/^\s*\*.*$/, '')
      for (const [re, what] of READS) if (re.test(code)) found.push(`${file}:${i + 1}: ${what}`)
    })
    for (const m of text.matchAll(SQL_TEMPLATE)) {
      if (/\bnow\(\)/i.test(m[1])) found.push(`${file}:${text.slice(0, m.index).split('\n').length}: SQL now()`)
    }
  }
  return found
}

describe('one clock', () => {
  it('no product code reads the wall clock except server/lib/clock.ts', () => {
    expect(wallClockReads()).toEqual([])
  })

  it('finds a read (the check itself works)', () => {
    const probe = path.join(repo, 'server/lib/.clock-guard-probe.ts')
    fs.writeFileSync(probe, 'export const t = Date.now()\nexport const d = new Date()\nexport const q = sql`SELECT now()`\nexport const j = dayjs()\n')
    try {
      expect(wallClockReads().filter((r) => r.includes('.clock-guard-probe'))).toHaveLength(4)
    } finally {
      fs.rmSync(probe)
    }
  })
})
