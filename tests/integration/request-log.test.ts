import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { PASSWORD, until } from './helpers.ts'
import { AT } from './hours.ts'

/**
 * The server's log as an operator reads it (docs/operations.md "Logs"): JSON lines only, one per
 * request with its id, the caller's X-Request-Id kept and echoed, and a wall display's live stream —
 * the relay's polls behind it — silent at info.
 */
const ROOT = path.resolve(import.meta.dirname, '../..')
const DATA = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-log-'))
let server: ChildProcess
let base: string
const lines: string[] = []

async function freePort(): Promise<number> {
  const s = net.createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const { port } = s.address() as AddressInfo
  await new Promise((r) => s.close(r))
  return port
}
const parsed = () => lines.map((l) => JSON.parse(l) as { level: number; msg: string; reqId?: string; url?: string; status?: number })

beforeAll(async () => {
  const port = await freePort()
  base = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, ['server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, DATA_DIR: DATA, PORT: String(port), HOST: '127.0.0.1', ROLES: 'api,relay', DEMO: 'on', DEMO_PASSWORD: PASSWORD, LOG_LEVEL: 'info', CLOCK_START: AT.morning },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let rest = ''
  server.stdout!.on('data', (chunk: Buffer) => {
    const parts = (rest + chunk.toString('utf8')).split('\n')
    rest = parts.pop()!
    lines.push(...parts.filter(Boolean))
  })
  await until(async () => (await fetch(`${base}/api/ready`).catch(() => null))?.ok === true, 170_000, 'the server ready')
})
afterAll(async () => {
  server?.kill('SIGTERM')
  await new Promise((r) => server?.once('exit', r))
  fs.rmSync(DATA, { recursive: true, force: true })
})

describe('logs', () => {
  it('keeps a caller\'s X-Request-Id, echoes it and logs the request under it; a forged one is replaced by a UUID', async () => {
    const kept = await fetch(`${base}/api/cockpit/installations/`, { headers: { 'x-request-id': 'lb-7f3a.42' } })
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42')
    const forged = await fetch(`${base}/api/cockpit/installations/`, { headers: { 'x-request-id': 'x" level=50 msg=forged' } })
    expect(forged.headers.get('x-request-id')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
    const fresh = await fetch(`${base}/api/cockpit/installations/`)
    expect(fresh.headers.get('x-request-id')).not.toBe(forged.headers.get('x-request-id'))
    await until(() => parsed().some((l) => l.reqId === 'lb-7f3a.42' && l.msg === 'request' && l.status === 401), 5_000, 'the request logged under its id')
  })

  it('a wall display watching an installation for 10 s adds no info line; every line is JSON', async () => {
    const login = await fetch(`${base}/api/authentication/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }) })
    const { access } = (await login.json()) as { access: string }
    const ticket = await fetch(`${base}/live/tickets`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${access}` }, body: JSON.stringify({ installation_id: 1 }) })
    const { ticket: t } = (await ticket.json()) as { ticket: string }
    const stream = new AbortController()
    const res = await fetch(`${base}/live/installations/1?ticket=${t}`, { signal: stream.signal })
    expect(res.status).toBe(200)
    const reader = res.body!.getReader()
    let events = 0
    const reading = (async () => {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) return
        events += new TextDecoder().decode(value).split('\nevent:').length - 1
      }
    })().catch(() => undefined)
    const before = lines.length
    await new Promise((r) => setTimeout(r, 10_000)) // real time: the relay's polls run on real intervals
    const during = parsed().slice(before)
    stream.abort()
    await reading
    expect(events, 'the display received updates meanwhile').toBeGreaterThan(0)
    expect(during.filter((l) => l.level >= 30), JSON.stringify(during.slice(0, 5))).toEqual([])
    expect(() => parsed()).not.toThrow()
  }, 30_000)
})
