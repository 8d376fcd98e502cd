import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net, { type AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { inProcessRunner, pgBossRunner } from '../../server/jobs/runner.ts'
import { auth, login, startApp, until } from './helpers.ts'

/**
 * GET /metrics as Prometheus scrapes it (docs/operations.md "Metrics"): on every process whatever its
 * roles, behind METRICS_TOKEN, with the HTTP histogram labelled by route pattern (never an id), and the
 * database, job, mail and ingestion figures; and the request id every answer carries.
 */
const TOKEN = 'metrics-token-for-the-test-0123456789abcdef'
/** The API process's last scrape, for the dashboard check of the second block. */
let apiText = ''
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** The value of the sample `name{labels}` in Prometheus text, labels in any order; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!m || m[1] !== name) continue
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]))
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3])
  }
  return undefined
}

describe('an API process with METRICS_TOKEN', () => {
  let app: FastifyInstance
  let url: string
  let admin: string
  const scrape = async () => {
    const r = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(r.status).toBe(200)
    return r.text()
  }
  beforeAll(async () => {
    ;({ app, url } = await startApp({ roles: ['api'], metricsToken: TOKEN }))
    admin = await login(app, 'admin@example.com')
  })
  afterAll(async () => app?.close())

  it('refuses a scrape without the token, with a wrong one or another scheme: 401, nothing of the figures', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }, { authorization: `Bearer ${admin}` }] as Record<string, string>[]) {
      const r = await fetch(`${url}/metrics`, { headers })
      expect(r.status, JSON.stringify(headers)).toBe(401)
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer/)
      const text = await r.text()
      expect(text).not.toContain('http_request_duration_seconds')
      expect(text).not.toContain('process_cpu')
    }
  })

  it('times requests by route pattern and status: three reads are one label set, another id and an unknown URL no new route label, no id in any label', async () => {
    const installations = await app.domain!.db.selectFrom('installations').select('id').orderBy('id').execute()
    const route = '/api/cockpit/installations/:installationId/'
    const before = sample(await scrape(), 'http_request_duration_seconds_count', { method: 'GET', route, status_code: '200' }) ?? 0
    const id = installations[0].id
    for (let i = 0; i < 3; i++) expect((await fetch(`${url}/api/cockpit/installations/${id}/`, { headers: auth(admin) })).status).toBe(200)
    // An id that is no installation of this admin's: a 404, counted under the same pattern with its status.
    const foreign = 999_999
    expect((await fetch(`${url}/api/cockpit/installations/${foreign}/`, { headers: auth(admin) })).status).toBe(404)
    // An unknown URL: one label for all of them, not one per URL.
    expect((await fetch(`${url}/api/no-such-thing/12345`)).status).toBe(404)
    const text = await scrape()
    expect(text).toContain('# TYPE http_request_duration_seconds histogram')
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status_code: '200' })).toBe(before + 3)
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status_code: '404' })).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'http_request_duration_seconds_bucket', { method: 'GET', route, status_code: '200', le: '+Inf' })).toBe(before + 3)
    expect(sample(text, 'http_request_duration_seconds_count', { method: 'GET', route: '(unmatched)', status_code: '404' })).toBeGreaterThanOrEqual(1)
    const routes = [...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1])
    expect(routes.filter((r) => /\/\d+(\/|$)/.test(r)), 'a raw id in a route label').toEqual([])
    expect(text).not.toContain('no-such-thing')
  })

  it('answers prom-client\'s process metrics, the database\'s query times and pool, and the mail outbox', async () => {
    const text = await scrape()
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0)
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(sample(text, 'cockpit_process_roles', { role: 'api' })).toBe(1)
    expect(sample(text, 'cockpit_db_query_duration_seconds_count', { statement: 'select' })).toBeGreaterThan(0)
    // The embedded database's one connection, or a Postgres server's pool of 10 (server/db/connection.ts).
    expect(sample(text, 'cockpit_db_pool_max')).toBe(app.databaseUrl ? 10 : 1)
    expect(sample(text, 'cockpit_db_pool_waiting')).toBe(0)
    expect(sample(text, 'cockpit_db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0)
    const outbox = sample(text, 'cockpit_mail_outbox_messages', { state: 'new' })!
    // A password reset puts one mail into the outbox (no SMTP here: it stays).
    expect((await fetch(`${url}/api/password-reset/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'user@example.com' }) })).status).toBeLessThan(300)
    await expect.poll(async () => sample(await scrape(), 'cockpit_mail_outbox_messages', { state: 'new' })).toBe(outbox + 1)
  })

  it('counts ingested readings by channel and outcome', async () => {
    const db = app.domain!.db
    const installation = (await db.selectFrom('installations').select('id').where('name', '=', 'Demo Residence Zürich').executeTakeFirstOrThrow()).id
    const object = (await db.selectFrom('objects').select('id').where('installation_id', '=', installation).orderBy('id').executeTakeFirstOrThrow()).id
    const meter = await fetch(`${url}/api/cockpit/installations/${installation}/meters/`, { method: 'POST', headers: { ...auth(admin), 'content-type': 'application/json' }, body: JSON.stringify({ object_id: object, meter_type: 'main_power', name: 'Metrics meter', serial: 'METRICS-1' }) })
    expect(meter.status).toBe(201)
    const meterId = ((await meter.json()) as { id: number }).id
    const key = await fetch(`${url}/api/cockpit/installations/${installation}/device_keys/`, { method: 'POST', headers: { ...auth(admin), 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Metrics gateway' }) })
    const deviceKey = ((await key.json()) as { key: string }).key
    const now = app.clock.now().toISOString()
    const sent = await fetch(`${url}/api/ingest/v1/readings`, {
      method: 'POST', headers: { ...auth(deviceKey), 'content-type': 'application/json' },
      body: JSON.stringify({ readings: [
        { meter_id: meterId, timestamp: now, measurand: 'Power.Active.Import', unit: 'W', value: 1500 },
        { meter_id: 2 ** 30, timestamp: now, measurand: 'Power.Active.Import', unit: 'W', value: 1500 },
        { meter_id: meterId, timestamp: now, measurand: 'Power.Active.Import', unit: 'parsec', value: 1 },
      ] }),
    })
    expect(sent.status).toBe(202)
    const text = await scrape()
    expect(sample(text, 'cockpit_ingest_readings_total', { via: 'ingest', outcome: 'accepted' })).toBe(1)
    expect(sample(text, 'cockpit_ingest_readings_total', { via: 'ingest', outcome: 'rejected' })).toBe(2)
    expect(sample(text, 'cockpit_ingest_batch_duration_seconds_count', { via: 'ingest' })).toBe(1)
  })

  it('counts job passes and failures', async () => {
    let runs = 0
    const runner = inProcessRunner([
      { name: 'probe-ok', schedule: { everySeconds: 3600 }, runAtStart: true, run: async () => void runs++ },
      { name: 'probe-broken', schedule: { everySeconds: 3600 }, runAtStart: true, run: async () => { runs++; throw new Error('broken on purpose') } },
    ], app.log, app.clock, app.metrics)
    await runner.start()
    await expect.poll(() => runs).toBe(2)
    await runner.stop()
    await expect.poll(async () => sample(await scrape(), 'cockpit_job_runs_total', { job: 'probe-broken', outcome: 'failed' })).toBe(1)
    const text = await scrape()
    expect(sample(text, 'cockpit_job_runs_total', { job: 'probe-ok', outcome: 'ok' })).toBe(1)
    expect(sample(text, 'cockpit_job_queue_depth', { job: 'probe-ok' })).toBe(0)
    expect(sample(text, 'cockpit_job_running', { job: 'probe-ok' })).toBe(0)
    apiText = text
  })

  // On Postgres (npm run test:pg) jobs go through pg-boss: its queues' depth is read at scrape time.
  it.runIf(inject('pgUrl'))('on Postgres, counts pg-boss passes and answers the queue depth', async () => {
    let runs = 0
    const runner = pgBossRunner([{ name: 'probe-queued', schedule: { everySeconds: 3600 }, runAtStart: true, run: async () => void runs++ }], app.databaseUrl!, app.log, app.clock, { metrics: app.metrics, pollingIntervalSeconds: 0.5 })
    await runner.start()
    try {
      await expect.poll(() => runs, { timeout: 20_000 }).toBe(1)
      await expect.poll(async () => sample(await scrape(), 'cockpit_job_runs_total', { job: 'probe-queued', outcome: 'ok' }), { timeout: 5_000 }).toBe(1)
      expect(sample(await scrape(), 'cockpit_job_queue_depth', { job: 'probe-queued' })).toBe(0)
    } finally {
      await runner.stop()
    }
  }, 60_000)

  it('echoes a caller\'s X-Request-Id, makes a UUID when there is none, and replaces one that is no id', async () => {
    const kept = await fetch(`${url}/api/health`, { headers: { 'x-request-id': 'lb-7f3a.42:9' } })
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a.42:9')
    const fresh = await fetch(`${url}/api/health`)
    expect(fresh.headers.get('x-request-id')).toMatch(UUID)
    for (const bad of ['x" level=50 msg=forged', 'a'.repeat(129), 'ünïcödé', '']) {
      const r = await fetch(`${url}/api/health`, { headers: { 'x-request-id': bad } })
      expect(r.headers.get('x-request-id'), JSON.stringify(bad)).toMatch(UUID)
    }
    // Also on the metrics answer and on its refusal.
    expect((await fetch(`${url}/metrics`, { headers: { 'x-request-id': 'scrape-1' } })).headers.get('x-request-id')).toBe('scrape-1')
  })
})

describe('a process without the api role', () => {
  let app: FastifyInstance
  let url: string
  beforeAll(async () => {
    ;({ app, url } = await startApp({ roles: ['ocpp', 'relay'], metricsToken: TOKEN }))
  })
  afterAll(async () => app?.close())
  const scrape = async (path = '/metrics') => {
    const r = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } })
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/)
    expect(r.headers.get('cache-control')).toBe('no-store')
    return r.text()
  }

  it('answers its process, database, OCPP and relay figures in one text, at /metrics and the relay\'s /live/metrics', async () => {
    for (const path of ['/metrics', '/live/metrics']) {
      const text = await scrape(path)
      expect(sample(text, 'process_resident_memory_bytes'), path).toBeGreaterThan(0)
      expect(sample(text, 'cockpit_process_roles', { role: 'ocpp' }), path).toBe(1)
      expect(sample(text, 'cockpit_process_roles', { role: 'api' }), path).toBeUndefined()
      expect(sample(text, 'cockpit_ocpp_connected'), path).toBe(0)
      expect(sample(text, 'cockpit_relay_subscribers'), path).toBe(0)
      expect(sample(text, 'cockpit_db_query_duration_seconds_count', { statement: 'select' }), path).toBeGreaterThan(0)
    }
  })

  it('the Grafana dashboard (deploy/grafana-dashboard.json) asks only for metrics the processes answer', async () => {
    const dashboard = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../deploy/grafana-dashboard.json'), 'utf8')) as { panels: { targets?: { expr: string }[] }[] }
    const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr)
    expect(exprs.length).toBeGreaterThan(15)
    const asked = new Set(exprs.flatMap((e) => [...e.matchAll(/\b((?:http|cockpit|process|nodejs)_[a-z0-9_]+)/g)].map((m) => m[1])))
    // The names this process and the API process above declare (# TYPE), a histogram's with its series' suffixes.
    const answered = new Set<string>()
    for (const text of [await scrape(), apiText]) {
      for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
        answered.add(name)
        if (type === 'histogram') for (const suffix of ['_bucket', '_count', '_sum']) answered.add(name + suffix)
      }
    }
    expect(apiText).toContain('http_request_duration_seconds')
    expect([...asked].filter((n) => !answered.has(n))).toEqual([])
  })
})

describe('a facility gateway process (ROLES=gateway, started as an operator does)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-gw-metrics-'))
  let server: ChildProcess
  let base: string
  beforeAll(async () => {
    const probe = net.createServer()
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r))
    const { port } = probe.address() as AddressInfo
    await new Promise((r) => probe.close(r))
    base = `http://127.0.0.1:${port}`
    // A portal that does not answer (port 9 on this machine): the gateway starts on its disk buffer all the same.
    server = spawn(process.execPath, ['server/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', ROLES: 'gateway', GATEWAY_URL: 'http://127.0.0.1:9', GATEWAY_KEY: `ck_${'a'.repeat(43)}`, GATEWAY_DIR: dir, METRICS_TOKEN: TOKEN, LOG_LEVEL: 'warn' },
      stdio: 'ignore',
    })
    await until(async () => (await fetch(`${base}/api/health`).catch(() => null))?.ok === true, 60_000, 'the gateway listening')
  })
  afterAll(async () => {
    server?.kill('SIGTERM')
    if (server && server.exitCode === null) await new Promise((r) => server.once('exit', r))
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it('answers its process and gateway figures, without any database', async () => {
    expect((await fetch(`${base}/metrics`)).status).toBe(401)
    const text = await until(async () => {
      const t = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text()
      return t.includes('cockpit_gateway_readings') ? t : null
    }, 30_000, 'the gateway figures')
    expect(sample(text, 'cockpit_process_roles', { role: 'gateway' })).toBe(1)
    expect(sample(text, 'cockpit_gateway_readings', { state: 'pending' })).toBe(0)
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    // No database in this role: no pool, and no statement timed.
    expect(sample(text, 'cockpit_db_pool_max')).toBeUndefined()
    expect(text).not.toMatch(/^cockpit_db_query_duration_seconds_count/m)
  })
})

describe('without METRICS_TOKEN', () => {
  let app: FastifyInstance
  let url: string
  beforeAll(async () => {
    ;({ app, url } = await startApp({ roles: ['api'] }))
  })
  afterAll(async () => app?.close())

  it('/metrics is off: 404 to anyone, with or without a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const r = await fetch(`${url}/metrics`, { headers })
      expect(r.status).toBe(404)
      expect(await r.text()).not.toContain('process_cpu')
    }
  })
})
