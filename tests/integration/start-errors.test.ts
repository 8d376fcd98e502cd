import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'

/**
 * An operator's typo in DATABASE_URL, HOST or PORT: one line that names the variable and what to do,
 * exit code 2 like every other bad variable (README "Configuration"), never a stack trace.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const DATA = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-start-'))
function start(env: Record<string, string>) {
  return spawnSync(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATA_DIR: DATA, PORT: '0', HOST: '127.0.0.1', ROLES: 'api', LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  })
}
/** Exit 2, no stack trace, and one line (after the configuration check's heading, if any) says it all. */
function expectOneLine(r: ReturnType<typeof start>, ...parts: RegExp[]) {
  expect(r.status, r.stderr).toBe(2)
  const lines = r.stderr.trim().split('\n').filter((l) => l !== 'Invalid configuration:')
  expect(lines, r.stderr).toHaveLength(1)
  for (const p of parts) expect(lines[0]).toMatch(p)
  expect(r.stderr).not.toMatch(/\n\s+at /)
}

let busy: net.Server
beforeAll(async () => {
  busy = net.createServer()
  await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
})
afterAll(() => {
  busy.close()
  fs.rmSync(DATA, { recursive: true, force: true })
})

describe('start-up mistakes are one line and exit 2', () => {
  it('a malformed DATABASE_URL names the variable and the form to write', () => {
    expectOneLine(start({ DATABASE_URL: 'postgres://u:p@[bad' }), /DATABASE_URL/, /postgres:\/\/user:password@host:5432\/database/)
  })

  it('a PORT another process holds says so before the database is opened or the demo seeded', () => {
    const port = (busy.address() as AddressInfo).port
    const fresh = path.join(DATA, 'never-made')
    expectOneLine(start({ PORT: String(port), DATA_DIR: fresh, DEMO: 'on' }), new RegExp(`PORT ${port}: already in use`))
    // Nothing was opened: the data folder a first start makes is not there.
    expect(fs.existsSync(fresh)).toBe(false)
  }, 60_000)

  it('the demo payment provider in production, unless explicitly allowed', () => {
    expectOneLine(start({ NODE_ENV: 'production' }), /PAYMENT_PROVIDER=demo is refused with NODE_ENV=production/, /PAYMENT_PROVIDER_DEMO_ALLOWED=true/)
  }, 60_000)

  it('a HOST that is not this machine says which addresses work', () => {
    // 203.0.113.0/24 is TEST-NET-3 (RFC 5737): never an address of this machine, no DNS involved.
    expectOneLine(start({ HOST: '203.0.113.5' }), /HOST 203\.0\.113\.5: not an address of this machine/, /0\.0\.0\.0/)
  }, 60_000)
})
