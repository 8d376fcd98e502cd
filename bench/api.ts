/**
 * Statistics API figures on the demo facility with a year of history. Starts
 * `node server/main.ts` as production does, on a free port with DATA_DIR, DEMO=on and SIM_BACKFILL_DAYS,
 * waits for the backfill, then measures from outside:
 *  - each call alone: median and p99 of BENCH_REPS runs (fewer for the slow ones), first computed (each
 *    run a period not asked before), then kept (the same period again: the server's kept answer);
 *  - 10 concurrent clients alternating month (by day) and year (by month) statistics for BENCH_SECONDS,
 *    on the same periods (kept answers), then for BENCH_SECONDS more with a new period per request,
 *    while /api/health is probed every 100 ms and an open /live stream (metrics) records the delay of
 *    each event behind the reading it carries and the gaps between events (idle first, then under load);
 *  - a short request (the relay's poll of /api/metrics, one short statement) every 100 ms while a year
 *    at 15 minutes is computed: how long it waits behind the year, against the same poll idle;
 *  - SIGTERM under that load with a year at 15 minutes in flight: time to the process's exit.
 * Then it restarts the same database with STATS_ROLLUPS=off (the design without rollups: 15-minute rows,
 * labels per value in JavaScript) and repeats, printing the ratios. A call that fails (reset, timeout
 * after BENCH_TIMEOUT_MS, HTTP error) is counted as failed in the table and the run goes on.
 *
 * Environment: BENCH_DAYS (history, default 365), BENCH_REPS (10), BENCH_SECONDS (20), BENCH_TIMEOUT_MS
 * (60000), BENCH_OLD=off (skip the old design), BENCH_DATA_DIR (keep and reuse the backfilled
 * database), BENCH_QUICK=1 (30 days, 3 reps, 15 s windows: a few minutes). Run: `npm run bench:api`
 * (10–20 min, most of it the backfill and the old design's slow calls).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const QUICK = process.env.BENCH_QUICK === '1'
const DAYS = Number(process.env.BENCH_DAYS ?? process.env.SIM_BACKFILL_DAYS ?? (QUICK ? 30 : 365))
const REPS = Number(process.env.BENCH_REPS ?? (QUICK ? 3 : 10))
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 15 : 20))
/** A call that has not answered by then is recorded as a timeout, and the run goes on. */
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 60_000)
/** `BENCH_OLD=off` skips the STATS_ROLLUPS=off comparison (half the run). */
const OLD = process.env.BENCH_OLD !== 'off'
const PASSWORD = 'Cockpit-2026!'
const root = path.join(import.meta.dirname, '..')
// BENCH_DATA_DIR keeps (and reuses) the backfilled database between runs; else a fresh one, removed after.
const keepData = !!process.env.BENCH_DATA_DIR
const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-bench-api-'))
const children = new Set<ChildProcess>()

const freePort = () => new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as net.AddressInfo
    s.close(() => resolve(port))
  })
})

/** Start the server; resolves once it listens and the simulator's catch-up (backfill) is done. */
async function start(env: Record<string, string>, waitBackfill: boolean): Promise<{ child: ChildProcess; base: string; backfill: { ms: number; buckets: number } | null }> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--max-semi-space-size=4', 'server/main.ts'], {
    cwd: root, stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATA_DIR: dataDir, DEMO: 'on', PORT: String(port), HOST: '127.0.0.1', SIM_BACKFILL_DAYS: String(DAYS), LOG_LEVEL: 'info', ...env },
  })
  children.add(child)
  const base = `http://127.0.0.1:${port}`
  let buffer = ''
  const backfill = await new Promise<{ ms: number; buckets: number } | null>((resolve, reject) => {
    let listening = false
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)))
    child.stdout!.on('data', (d: Buffer) => {
      buffer += d.toString()
      for (let i; (i = buffer.indexOf('\n')) >= 0; ) {
        const line = buffer.slice(0, i)
        buffer = buffer.slice(i + 1)
        if (line.includes('Cockpit listening')) {
          listening = true
          // A restart on a filled database backfills only the last minutes (or nothing: no log line).
          if (!waitBackfill) setTimeout(() => resolve(null), 15_000)
        }
        if (line.includes('simulator backfill done')) {
          const j = JSON.parse(line) as { ms: number; buckets: number }
          if (listening) resolve({ ms: j.ms, buckets: j.buckets })
        }
      }
    })
  })
  child.stdout!.resume()
  return { child, base, backfill }
}

const stop = (child: ChildProcess) => new Promise<void>((resolve) => {
  children.delete(child)
  child.removeAllListeners('exit')
  if (child.exitCode !== null || child.signalCode !== null) return resolve()
  child.once('exit', () => resolve())
  child.kill('SIGTERM')
  // A server that does not end on SIGTERM must not hold the benchmark.
  setTimeout(() => child.kill('SIGKILL'), 30_000).unref()
})

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN
}
const localDate = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(d)
const today = localDate(new Date())
const daysBack = (n: number) => localDate(new Date(Date.now() - n * 86_400_000))

/**
 * The calls of the issue's table, each over whole local days up to today's midnight. `at(n)` is the same
 * call over a period shifted n days back: a period the server has not answered yet, so it is computed,
 * not served from the statistics answers it keeps (server/domain/statistics/answer-cache.ts).
 */
const period = (days: number, granularity: string) => (n = 0, extra = 0) => `start=${daysBack(days + n + extra)}&end=${daysBack(n)}&granularity=${granularity}`
const CALLS = [
  { name: 'year by day', at: period(365, 'day'), target: 100, reps: REPS },
  { name: 'month by hour', at: period(30, 'hour'), target: 100, reps: REPS },
  { name: 'month at 15 min', at: period(30, 'fifteen_minutes'), target: 300, reps: REPS },
  { name: 'year at 15 min', at: period(365, 'fifteen_minutes'), target: 2000, reps: Math.max(3, Math.round(REPS / 3)) },
]
const MONTH = period(30, 'day')
const YEAR = period(365, 'month')
const YEAR_15 = CALLS[3].at()

/** One call: its time, or why it failed (HTTP status, `timeout`, `ECONNRESET`…); never throws. */
type Timed = { ok: true; ms: number; bytes: number } | { ok: false; ms: number; error: string }
interface CallFigures { median: number; p99: number; bytes: number; runs: number; failed: number; errors: string[] }
interface Run {
  calls: Record<string, CallFigures>
  load: { requests: number; rps: number; median: number; p99: number; errors: number; errorKinds: string[] }
  /** The same 10 clients, every request a period not answered before (computed, not kept). */
  loadComputed: { rps: number; p99: number; errors: number; healthP99: number }
  health: { idle: { median: number; p99: number; failed: number }; load: { median: number; p99: number; max: number; failed: number } }
  live: { idle: LiveFigures; load: LiveFigures }
  /** The metrics poll while a year at 15 minutes is computed (`yearMs`), and idle. */
  wait: { yearMs: number; median: number; max: number; polls: number; idleMedian: number }
}
/** Live stream figures of a window: metrics events seen, their gaps, and reading → arrival delays. */
interface LiveFigures { events: number; maxGap: number; medianGap: number; delayMedian: number; delayP99: number; delayMax: number }

/** Why a fetch failed, in a few words (undici hides the socket error in `cause`). */
const reason = (err: unknown) => {
  const e = err as Error & { cause?: { code?: string; message?: string } }
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return 'timeout'
  return e.cause?.code ?? e.cause?.message ?? e.message
}

/** Sign in as the demo admin; the client signs in again each minute (access tokens are short-lived). */
async function client(base: string) {
  let headers = { authorization: '' }
  let signedIn = -Infinity
  const signIn = async () => {
    if (performance.now() - signedIn < 60_000) return
    try {
      const r = await fetch(`${base}/api/authentication/token/`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
      const login = (await r.json()) as { access?: string }
      if (login.access) {
        headers = { authorization: `Bearer ${login.access}` }
        signedIn = performance.now()
      }
    } catch (err) {
      console.error(`  sign-in failed: ${reason(err)}`)
    }
  }
  await signIn()
  const refresher = setInterval(() => void signIn(), 10_000)
  const timed = async (url: string, timeout = TIMEOUT_MS): Promise<Timed> => {
    const t = performance.now()
    try {
      const r = await fetch(url, { headers, signal: AbortSignal.timeout(timeout) })
      const body = await r.arrayBuffer()
      if (!r.ok) return { ok: false, ms: performance.now() - t, error: `HTTP ${r.status}` }
      return { ok: true, ms: performance.now() - t, bytes: body.byteLength }
    } catch (err) {
      return { ok: false, ms: performance.now() - t, error: reason(err) }
    }
  }
  return { timed, get headers() { return headers }, close: () => clearInterval(refresher) }
}

/**
 * An open /live stream of installation 1 (metrics topic): records each metrics event's arrival and its
 * delay behind the reading it carries (`timestamp` of the metrics, set by the simulator's step).
 */
async function liveStream(base: string, headers: Record<string, string>) {
  const arrivals: { at: number; delay: number }[] = []
  let reader: ReadableStreamDefaultReader<Uint8Array> | null = null
  let open = true
  try {
    const { ticket } = (await (await fetch(`${base}/live/tickets`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ installation_id: 1 }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    })).json()) as { ticket: string }
    const stream = await fetch(`${base}/live/installations/1?ticket=${ticket}&topics=metrics`)
    reader = stream.body!.getReader()
  } catch (err) {
    console.error(`  live stream failed to open: ${reason(err)}`)
  }
  void (async () => {
    let buf = ''
    const decoder = new TextDecoder()
    while (open && reader) {
      const chunk = await reader.read().catch(() => null)
      if (!chunk || chunk.done) break
      buf += decoder.decode(chunk.value, { stream: true })
      for (let i; (i = buf.indexOf('\n\n')) >= 0; ) {
        const frame = buf.slice(0, i)
        buf = buf.slice(i + 2)
        const kind = /^event: (snapshot|patch|merge)$/m.exec(frame)?.[1]
        if (!kind) continue
        const data = /^data: (.*)$/m.exec(frame)?.[1]
        let ts: string | undefined
        try {
          const e = JSON.parse(data ?? '{}') as { data?: { timestamp?: string }; merge?: { timestamp?: string }; ops?: { path: string; value?: unknown }[] }
          ts = e.data?.timestamp ?? e.merge?.timestamp ?? (e.ops?.find((o) => o.path === '/timestamp')?.value as string | undefined)
        } catch { /* a frame we cannot read counts as an arrival without delay */ }
        const now = performance.now()
        // The snapshot at connect carries the state as it was, not a change just made: no delay.
        arrivals.push({ at: now, delay: ts && kind !== 'snapshot' ? Date.now() - Date.parse(ts) : NaN })
      }
    }
  })()
  return {
    /** Figures of the events that arrived in [from, to] (performance.now() times). */
    window(from: number, to: number): LiveFigures {
      const xs = arrivals.filter((a) => a.at >= from && a.at <= to)
      const gaps = xs.slice(1).map((a, i) => a.at - xs[i].at)
      const delays = xs.map((a) => a.delay).filter((d) => !Number.isNaN(d))
      return { events: xs.length, maxGap: Math.max(0, ...gaps), medianGap: quantile(gaps, 0.5), delayMedian: quantile(delays, 0.5), delayP99: quantile(delays, 0.99), delayMax: Math.max(0, ...delays) }
    },
    close: async () => {
      open = false
      await reader?.cancel().catch(() => {})
    },
  }
}

/** `clients` statistics clients alternating month (by day) and year (by month) until `end`. */
async function statisticsLoad(timed: (url: string) => Promise<Timed>, base: string, clients: number, end: () => boolean, computed = false) {
  const latencies: number[] = []
  const errors: string[] = []
  let sent = 0
  const one = async (k: number) => {
    for (let i = k; !end(); i++) {
      // Computed: every request a period not asked before (900 per kind: end and length shifted by 0–29 days).
      const n = sent++
      const q = computed ? (i % 2 ? YEAR : MONTH)(n % 30, Math.floor(n / 30) % 30) : (i % 2 ? YEAR : MONTH)()
      const r = await timed(`${base}/api/statistics/1?${q}`)
      if (r.ok) latencies.push(r.ms)
      else errors.push(r.error)
    }
  }
  await Promise.all(Array.from({ length: clients }, (_, k) => one(k)))
  return { latencies, errors }
}

async function measure(base: string, slowCap: number): Promise<Run> {
  const c = await client(base)
  const calls: Run['calls'] = {}
  for (const call of CALLS) {
    let bytes = 0
    await c.timed(`${base}/api/statistics/1?${call.at()}`) // warm-up (plans, JIT)
    const reps = slowCap > 0 && call.target >= 2000 ? Math.min(call.reps, slowCap) : call.reps
    // Computed first (each rep a period shifted one more day back), then kept (the same period again).
    for (const kind of ['computed', 'kept'] as const) {
      const ms: number[] = []
      const errors: string[] = []
      for (let i = 0; i < reps; i++) {
        const r = await c.timed(`${base}/api/statistics/1?${kind === 'computed' ? call.at(i + 1) : call.at()}`)
        if (r.ok) (ms.push(r.ms), (bytes = r.bytes))
        else errors.push(`${r.error} after ${f(r.ms)}`)
      }
      const x: CallFigures = { median: quantile(ms, 0.5), p99: quantile(ms, 0.99), bytes, runs: reps, failed: errors.length, errors: [...new Set(errors)] }
      calls[kind === 'computed' ? call.name : `${call.name} (kept)`] = x
      console.log(`  ${call.name}, ${kind}: median ${f(x.median)}, p99 ${f(x.p99)}, ${(bytes / 1024).toFixed(0)} KiB${x.failed ? `; ${x.failed}/${reps} failed: ${x.errors.join(', ')}` : ''}`)
    }
  }

  const wait = await waitBehindYear(c.timed, base)
  console.log(`  metrics poll while a year at 15 min is computed (${f(wait.yearMs)}): median ${f(wait.median)}, max ${f(wait.max)} of ${wait.polls} polls (idle median ${f(wait.idleMedian)})`)

  const live = await liveStream(base, c.headers)
  const health: number[] = []
  let healthFailed = 0
  const probe = async (until: number) => {
    while (performance.now() < until) {
      const r = await c.timed(`${base}/api/health`, 10_000)
      if (r.ok) health.push(r.ms)
      else healthFailed++
      await new Promise((res) => setTimeout(res, 100))
    }
  }
  const idleStart = performance.now()
  await probe(idleStart + SECONDS * 1000)
  const idleHealth = health.splice(0)
  const idleFailed = healthFailed
  healthFailed = 0
  const loadStart = performance.now()
  const loadEnd = loadStart + SECONDS * 1000
  const [, load] = await Promise.all([probe(loadEnd), statisticsLoad(c.timed, base, 10, () => performance.now() >= loadEnd)])
  const loadElapsed = (performance.now() - loadStart) / 1000
  const loadHealth = health.splice(0)
  const loadFailed = healthFailed
  const coldStart = performance.now()
  const coldEnd = coldStart + SECONDS * 1000
  const [, cold] = await Promise.all([probe(coldEnd), statisticsLoad(c.timed, base, 10, () => performance.now() >= coldEnd, true)])
  const coldElapsed = (performance.now() - coldStart) / 1000
  const coldHealth = health.splice(0)
  const run: Run = {
    calls,
    load: { requests: load.latencies.length, rps: load.latencies.length / loadElapsed, median: quantile(load.latencies, 0.5), p99: quantile(load.latencies, 0.99), errors: load.errors.length, errorKinds: [...new Set(load.errors)] },
    loadComputed: { rps: cold.latencies.length / coldElapsed, p99: quantile(cold.latencies, 0.99), errors: cold.errors.length, healthP99: quantile(coldHealth, 0.99) },
    health: {
      idle: { median: quantile(idleHealth, 0.5), p99: quantile(idleHealth, 0.99), failed: idleFailed },
      load: { median: quantile(loadHealth, 0.5), p99: quantile(loadHealth, 0.99), max: Math.max(0, ...loadHealth), failed: loadFailed },
    },
    live: { idle: live.window(idleStart, loadStart), load: live.window(loadStart, performance.now()) },
    wait,
  }
  await live.close()
  c.close()
  console.log(`  10 clients, computed periods: ${run.loadComputed.rps.toFixed(1)} req/s, p99 ${f(run.loadComputed.p99)}, ${run.loadComputed.errors} errors; health p99 ${f(run.loadComputed.healthP99)}`)
  console.log(`  10 clients: ${run.load.rps.toFixed(1)} req/s, p99 ${f(run.load.p99)}, ${run.load.errors} errors; health p99 ${f(run.health.load.p99)} (idle ${f(run.health.idle.p99)}); live delay p99 ${f(run.live.load.delayP99)} (idle ${f(run.live.idle.delayP99)})`)
  return run
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * "One slow query never delays another request": the relay's poll of the live metrics
 * (`/api/metrics/?installation=1`, a short statement) every 100 ms while a year at 15 minutes of a
 * period not asked before is computed; on the embedded database's one connection it waits for whatever
 * statement runs (the whole year, or one 31-day piece of it). Idle: 5 polls before.
 */
async function waitBehindYear(timed: (url: string) => Promise<Timed>, base: string): Promise<Run['wait']> {
  const poll = `${base}/api/metrics/?installation=1`
  const idle: number[] = []
  for (let i = 0; i < 5; i++) {
    const r = await timed(poll)
    if (r.ok) idle.push(r.ms)
  }
  const waits: number[] = []
  let done = false
  const t = performance.now()
  // Shifted a week back: computed (the calls above asked periods up to 3 days back and today's).
  const year = timed(`${base}/api/statistics/1?${CALLS[3].at(7)}`).then((r) => ((done = true), r))
  await sleep(50)
  while (!done) {
    const r = await timed(poll)
    if (r.ok) waits.push(r.ms)
    if (!done) await sleep(100)
  }
  const y = await year
  return { yearMs: y.ok ? y.ms : NaN, median: quantile(waits, 0.5), max: Math.max(0, ...waits), polls: waits.length, idleMedian: quantile(idle, 0.5) }
}

/**
 * SIGTERM while 10 clients load month and year statistics and one asks for a year at 15 minutes (the
 * longest statement there is), with a live stream open: time from the signal to the process's exit.
 */
async function sigtermUnderLoad(base: string, child: ChildProcess): Promise<{ ms: number; code: number | null; signal: string | null; killed: boolean }> {
  const c = await client(base)
  const live = await liveStream(base, c.headers)
  let stopLoad = false
  const load = statisticsLoad(c.timed, base, 10, () => stopLoad)
  const slow = c.timed(`${base}/api/statistics/1?${YEAR_15}`)
  await new Promise((r) => setTimeout(r, 3_000))
  children.delete(child)
  child.removeAllListeners('exit')
  const t = performance.now()
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  child.kill('SIGTERM')
  let killed = false
  const cap = setTimeout(() => ((killed = true), child.kill('SIGKILL')), 30_000)
  const { code, signal } = await exited
  const ms = performance.now() - t
  clearTimeout(cap)
  stopLoad = true
  await Promise.all([load, slow])
  await live.close()
  c.close()
  return { ms, code, signal, killed }
}

// Ctrl-C or a kill must not leave a server behind (finally does not run on a signal).
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const c of children) c.kill('SIGKILL')
    if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true })
    process.exit(130)
  })
}

const f = (ms: number) => (Number.isNaN(ms) ? '–' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`)
const ratio = (x: number) => (Number.isFinite(x) ? `${x.toFixed(1)}×` : '–')
const failures = (x: CallFigures | undefined) => (x?.failed ? ` (${x.failed}/${x.runs} failed: ${x.errors.join(', ')})` : '')
try {
  const filled = fs.existsSync(path.join(dataDir, 'pgdata'))
  console.log(filled ? `Reusing the database in ${dataDir} …` : `Backfilling ${DAYS} days into ${dataDir} …`)
  const load = os.loadavg()
  console.log(`load average before: ${load.map((x) => x.toFixed(2)).join(' ')}`)
  const t0 = performance.now()
  const fresh = await start({}, !filled)
  console.log(`backfill: ${fresh.backfill ? `${fresh.backfill.buckets} buckets in ${(fresh.backfill.ms / 1000).toFixed(0)} s` : 'none'} (server start to ready ${((performance.now() - t0) / 1000).toFixed(0)} s)`)
  console.log('rollups (this design):')
  const now = await measure(fresh.base, 0)
  console.log('SIGTERM under load …')
  const term = await sigtermUnderLoad(fresh.base, fresh.child)
  console.log(`  exit ${term.killed ? 'only after SIGKILL at' : 'after'} ${f(term.ms)} (code ${term.code}, signal ${term.signal})`)
  let before: Run | null = null
  if (OLD) {
    const old = await start({ STATS_ROLLUPS: 'off' }, false)
    console.log('STATS_ROLLUPS=off (15-minute rows, labels per value in JavaScript):')
    before = await measure(old.base, Number(process.env.BENCH_OLD_SLOW_REPS ?? 1))
    await stop(old.child)
  }

  const b = (fn: (r: Run) => string) => (before ? fn(before) : 'not run')
  const rows = [
    '| call | target | rollups median / p99 | off median / p99 | speed-up (median) | size | target |',
    '|---|---|---|---|---|---|---|',
    ...CALLS.flatMap((call) => [call.name, `${call.name} (kept)`].map((name) => {
      const a = now.calls[name]
      const o = before?.calls[name]
      const met = Number.isNaN(a.median) ? 'failed' : a.median <= call.target ? 'met' : `missed by ${f(a.median - call.target)}`
      return `| ${name} | ≤ ${f(call.target)} | ${f(a.median)} / ${f(a.p99)}${failures(a)} | ${o ? `${f(o.median)} / ${f(o.p99)}${failures(o)}` : 'not run'} | ${o ? ratio(o.median / a.median) : ''} | ${(a.bytes / 1024).toFixed(0)} KiB | ${met} |`
    })),
    `| 10 clients, month by day + year by month, every period new (computed) | ≥ 50 req/s | ${now.loadComputed.rps.toFixed(1)} req/s, p99 ${f(now.loadComputed.p99)}, ${now.loadComputed.errors} errors; health p99 ${f(now.loadComputed.healthP99)} | ${b((r) => `${r.loadComputed.rps.toFixed(1)} req/s, p99 ${f(r.loadComputed.p99)}`)} | | | ${now.loadComputed.rps >= 50 ? 'met' : `missed by ${(50 - now.loadComputed.rps).toFixed(1)} req/s`} |`,
    `| 10 clients, month by day + year by month (kept) | ≥ 50 req/s | ${now.load.rps.toFixed(1)} req/s, p99 ${f(now.load.p99)}, ${now.load.errors} errors | ${b((r) => `${r.load.rps.toFixed(1)} req/s, p99 ${f(r.load.p99)}, ${r.load.errors} errors`)} | ${before ? ratio(now.load.rps / before.load.rps) : ''} | | ${now.load.rps >= 50 ? 'met' : `missed by ${(50 - now.load.rps).toFixed(1)} req/s`} |`,
    `| /api/health under that load (idle p99) | p99 ≤ 50 ms | median ${f(now.health.load.median)}, p99 ${f(now.health.load.p99)}, max ${f(now.health.load.max)}, ${now.health.load.failed} failed (${f(now.health.idle.p99)}) | ${b((r) => `median ${f(r.health.load.median)}, p99 ${f(r.health.load.p99)}, max ${f(r.health.load.max)}, ${r.health.load.failed} failed (${f(r.health.idle.p99)}, ${r.health.idle.failed} failed)`)} | | | ${now.health.load.p99 <= 50 ? 'met' : `missed by ${f(now.health.load.p99 - 50)}`} |`,
    `| live metrics events: reading → arrival p50 / p99 under load (idle) | nothing slowed | ${f(now.live.load.delayMedian)} / ${f(now.live.load.delayP99)} (${f(now.live.idle.delayMedian)} / ${f(now.live.idle.delayP99)}) | ${b((r) => `${f(r.live.load.delayMedian)} / ${f(r.live.load.delayP99)} (${f(r.live.idle.delayMedian)} / ${f(r.live.idle.delayP99)})`)} | | | |`,
    `| live metrics events: longest gap under load (idle; events) | | ${f(now.live.load.maxGap)} (${f(now.live.idle.maxGap)}; ${now.live.load.events}/${now.live.idle.events}) | ${b((r) => `${f(r.live.load.maxGap)} (${f(r.live.idle.maxGap)}; ${r.live.load.events}/${r.live.idle.events})`)} | | | |`,
    `| metrics poll every 100 ms while a year at 15 min is computed: median / max (polls; idle median) | nothing slowed | ${f(now.wait.median)} / ${f(now.wait.max)} (${now.wait.polls}; ${f(now.wait.idleMedian)}), year ${f(now.wait.yearMs)} | ${b((r) => `${f(r.wait.median)} / ${f(r.wait.max)} (${r.wait.polls}; ${f(r.wait.idleMedian)}), year ${f(r.wait.yearMs)}`)} | | | |`,
    `| SIGTERM under that load + a year at 15 min in flight → exit | ≤ 10 s | ${term.killed ? `no exit in 30 s (SIGKILL)` : `${f(term.ms)}, code ${term.code}`} | | | | ${!term.killed && term.ms <= 10_000 ? 'met' : 'missed'} |`,
  ]
  console.log(`\n${filled ? `database reused from ${dataDir}` : `${DAYS} days of history`}, ${os.cpus().length} cores, load average before ${load.map((x) => x.toFixed(2)).join(' ')}, ${new Date().toISOString()}; errors under load: ${now.load.errorKinds.join(', ') || 'none'}${before ? ` / ${before.load.errorKinds.join(', ') || 'none'}` : ''}\n`)
  console.log(rows.join('\n'))
} finally {
  for (const c of children) await stop(c)
  if (!keepData) fs.rmSync(dataDir, { recursive: true, force: true })
}
