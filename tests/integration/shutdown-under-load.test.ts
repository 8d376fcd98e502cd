import { afterAll, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { AT, PASSWORD, until } from './helpers.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')

/**
 * This process's environment without the test runner's marks: with VITEST set, the server checks every
 * answer against its schema's own serialization (server/api/openapi.ts, statistics-json.ts), seconds of
 * its one thread per year at 15 minutes, which no production server spends.
 */
const productionEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_ENV'))

/**
 * "SIGTERM during that load: no exit within 15 s" → exit ≤ 10 s. The server as production
 * runs it (node server/main.ts, the embedded database on disk, the demo with two days of history, all
 * roles), under 10 clients asking for statistics (a year at 15 minutes among them, the longest
 * statement there is) with a live stream open, gets SIGTERM: it must exit, with code 0, within 10 s.
 */
describe('SIGTERM under a statistics load', () => {
  let child: ChildProcess | undefined
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-term-'))
  afterAll(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('exits with code 0 within 10 s while statistics requests and a live stream are in flight', async () => {
    const server = spawn(process.execPath, ['server/main.ts'], {
      cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...productionEnv(), DATA_DIR: dir, DEMO: 'on', CLOCK_START: AT.morning, SIM_BACKFILL_DAYS: '2', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    })
    child = server
    let stderr = ''
    server.stderr!.on('data', (d) => (stderr += d))
    const exited = new Promise<{ code: number | null; at: number }>((resolve) => server.on('exit', (code) => resolve({ code, at: performance.now() })))
    // The port Fastify chose, then the simulator's backfill (the statistics have something to sum).
    const base = await new Promise<string>((resolve, reject) => {
      let out = ''
      let url = ''
      server.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        url ||= /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? ''
        if (url && out.includes('simulator backfill done')) resolve(url)
      })
      void exited.then(({ code }) => reject(new Error(`server exited with ${code} before it was ready: ${stderr}`)))
    })
    const login = (await (await fetch(`${base}/api/authentication/token/`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    })).json()) as { access: string }
    const headers = { authorization: `Bearer ${login.access}` }
    const { ticket } = (await (await fetch(`${base}/live/tickets`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ installation_id: 1 }),
    })).json()) as { ticket: string }
    const live = await fetch(`${base}/live/installations/1?ticket=${ticket}`)
    expect(live.status).toBe(200)
    const liveDone = live.body!.pipeTo(new WritableStream()).catch(() => {})

    // Days before the server's clock start (CLOCK_START above), not the machine's today.
    const day = (n: number) => new Date(Date.parse(AT.morning) - n * 86_400_000).toISOString().slice(0, 10)
    const queries = [`start=${day(365)}&end=${day(-1)}&granularity=fifteen_minutes`, `start=${day(30)}&end=${day(-1)}&granularity=hour`, `start=${day(365)}&end=${day(-1)}&granularity=day`]
    let stop = false
    let answered = 0
    const client = async (k: number) => {
      for (let i = k; !stop; i++) {
        const r = await fetch(`${base}/api/statistics/1?${queries[i % queries.length]}`, { headers }).catch(() => null)
        if (!r) return // the server went away: what this test waits for
        await r.arrayBuffer().catch(() => {})
        answered++
      }
    }
    const clients = Array.from({ length: 10 }, (_, k) => client(k))
    // Load for real: answers are coming, and the other clients' statements are queued behind.
    await until(() => answered >= 2, 120_000, 'statistics answers')
    const sent = performance.now()
    server.kill('SIGTERM')
    const killer = setTimeout(() => server.kill('SIGKILL'), 30_000)
    const { code, at } = await exited
    clearTimeout(killer)
    stop = true
    await Promise.all([...clients, liveDone])
    expect(at - sent, stderr).toBeLessThan(10_000)
    expect(code, stderr).toBe(0)
    expect(stderr).not.toMatch(/has already been destroyed|unhandled/i)
  }, 240_000)
})
