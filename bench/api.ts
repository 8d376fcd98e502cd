/**
 * Statistics API figures on the demo facility with a year of history (issue 11 §3). Starts
 * `node server/main.ts` as production does, on a free port with a fresh DATA_DIR, DEMO=on and
 * SIM_BACKFILL_DAYS (default 365), waits for the backfill, then measures from outside:
 *  - each call alone: median and p99 of BENCH_REPS runs (fewer for the slow ones);
 *  - 10 concurrent clients alternating month (by day) and year (by month) statistics for BENCH_SECONDS,
 *    while /api/health is probed every 100 ms and an open /live stream records its event gaps.
 * Then it restarts the same database with STATS_ROLLUPS=off (the design before issue 11: 15-minute rows,
 * labels per value in JavaScript) and repeats, printing the ratios. Run: `npm run bench:api`
 * (about 10–15 min on 2 busy cores, most of it the backfill).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

const DAYS = Number(process.env.SIM_BACKFILL_DAYS ?? 365)
const REPS = Number(process.env.BENCH_REPS ?? 10)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20)
const PASSWORD = 'Cockpit-2026!'
const root = path.join(import.meta.dirname, '..')
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-bench-api-'))
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
  child.once('exit', () => resolve())
  child.kill('SIGTERM')
})

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)] : NaN
}
const localDate = (d: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Zurich' }).format(d)
const today = localDate(new Date())
const daysBack = (n: number) => localDate(new Date(Date.now() - n * 86_400_000))

/** The calls of the issue's table, each over whole local days up to today's midnight. */
const CALLS = [
  { name: 'year by day', q: `start=${daysBack(365)}&end=${today}&granularity=day`, target: 100, reps: REPS },
  { name: 'month by hour', q: `start=${daysBack(30)}&end=${today}&granularity=hour`, target: 100, reps: REPS },
  { name: 'month at 15 min', q: `start=${daysBack(30)}&end=${today}&granularity=fifteen_minutes`, target: 300, reps: REPS },
  { name: 'year at 15 min', q: `start=${daysBack(365)}&end=${today}&granularity=fifteen_minutes`, target: 2000, reps: Math.max(3, Math.round(REPS / 3)) },
]
const MONTH = `start=${daysBack(30)}&end=${today}&granularity=day`
const YEAR = `start=${daysBack(365)}&end=${today}&granularity=month`

interface Run {
  calls: Record<string, { median: number; p99: number; bytes: number }>
  load: { requests: number; rps: number; median: number; p99: number; errors: number }
  health: { idle: { median: number; p99: number }; load: { median: number; p99: number; max: number } }
  live: { idleMaxGap: number; loadMaxGap: number; medianGap: number }
}

async function measure(base: string, slowCap: number): Promise<Run> {
  // Access tokens are short-lived: sign in again every minute.
  let headers = { authorization: '' }
  let signedIn = 0
  const signIn = async () => {
    if (performance.now() - signedIn < 60_000) return
    const login = (await (await fetch(`${base}/api/authentication/token/`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
    })).json()) as { access: string }
    headers = { authorization: `Bearer ${login.access}` }
    signedIn = performance.now()
  }
  await signIn()
  const refresher = setInterval(() => void signIn(), 10_000)
  const timed = async (url: string) => {
    const t = performance.now()
    // A kept-alive socket the server closed meanwhile resets once; ask again on a new one.
    const r = await fetch(url, { headers }).catch(() => fetch(url, { headers, keepalive: false }))
    const body = await r.arrayBuffer()
    if (!r.ok) throw new Error(`${url}: ${r.status} ${Buffer.from(body).toString()}`)
    return { ms: performance.now() - t, bytes: body.byteLength }
  }

  const calls: Run['calls'] = {}
  for (const c of CALLS) {
    const ms: number[] = []
    let bytes = 0
    await timed(`${base}/api/statistics/1?${c.q}`) // warm-up (plans, JIT)
    const reps = slowCap > 0 && c.target >= 2000 ? Math.min(c.reps, slowCap) : c.reps
    for (let i = 0; i < reps; i++) {
      const r = await timed(`${base}/api/statistics/1?${c.q}`)
      ms.push(r.ms)
      bytes = r.bytes
    }
    calls[c.name] = { median: quantile(ms, 0.5), p99: quantile(ms, 0.99), bytes }
    console.log(`  ${c.name}: median ${calls[c.name].median.toFixed(0)} ms, p99 ${calls[c.name].p99.toFixed(0)} ms, ${(bytes / 1024).toFixed(0)} KiB`)
  }

  // Live stream: gaps between events, idle first, then under load.
  const { ticket } = (await (await fetch(`${base}/live/tickets`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ installation_id: 1 }),
  })).json()) as { ticket: string }
  const events: number[] = []
  const stream = await fetch(`${base}/live/installations/1?ticket=${ticket}`)
  const reader = stream.body!.getReader()
  let open = true
  void (async () => {
    let buf = ''
    while (open) {
      const chunk = await reader.read().catch(() => null)
      if (!chunk || chunk.done) break
      buf += new TextDecoder().decode(chunk.value)
      for (let i; (i = buf.indexOf('\n\n')) >= 0; ) {
        if (/^event: (snapshot|patch|merge)$/m.test(buf.slice(0, i))) events.push(performance.now())
        buf = buf.slice(i + 2)
      }
    }
  })()
  const health: number[] = []
  const probe = async (until: number) => {
    while (performance.now() < until) {
      health.push((await timed(`${base}/api/health`)).ms)
      await new Promise((r) => setTimeout(r, 100))
    }
  }
  const idleStart = performance.now()
  await probe(idleStart + SECONDS * 1000)
  const idleHealth = health.splice(0)
  const loadStart = performance.now()
  const loadEnd = loadStart + SECONDS * 1000
  const latencies: number[] = []
  let errors = 0
  const client = async (k: number) => {
    for (let i = k; performance.now() < loadEnd; i++) {
      try {
        latencies.push((await timed(`${base}/api/statistics/1?${i % 2 ? YEAR : MONTH}`)).ms)
      } catch {
        errors++
      }
    }
  }
  await Promise.all([probe(loadEnd), ...Array.from({ length: 10 }, (_, k) => client(k))])
  const loadElapsed = (performance.now() - loadStart) / 1000
  open = false
  clearInterval(refresher)
  await reader.cancel().catch(() => {})
  const gaps = (from: number, to: number) => {
    const ts = events.filter((t) => t >= from && t <= to)
    return ts.slice(1).map((t, i) => t - ts[i])
  }
  const idleGaps = gaps(idleStart, loadStart)
  const loadGaps = gaps(loadStart, performance.now())
  return {
    calls,
    load: { requests: latencies.length, rps: latencies.length / loadElapsed, median: quantile(latencies, 0.5), p99: quantile(latencies, 0.99), errors },
    health: {
      idle: { median: quantile(idleHealth, 0.5), p99: quantile(idleHealth, 0.99) },
      load: { median: quantile(health, 0.5), p99: quantile(health, 0.99), max: Math.max(...health) },
    },
    live: { idleMaxGap: Math.max(0, ...idleGaps), loadMaxGap: Math.max(0, ...loadGaps), medianGap: quantile(idleGaps, 0.5) },
  }
}

const f = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${ms.toFixed(0)} ms`)
try {
  console.log(`Backfilling ${DAYS} days into ${dataDir} …`)
  const t0 = performance.now()
  const fresh = await start({}, true)
  console.log(`backfill: ${fresh.backfill ? `${fresh.backfill.buckets} buckets in ${(fresh.backfill.ms / 1000).toFixed(0)} s` : 'none'} (server start to ready ${((performance.now() - t0) / 1000).toFixed(0)} s)`)
  console.log('rollups (this design):')
  const now = await measure(fresh.base, 0)
  await stop(fresh.child)
  const old = await start({ STATS_ROLLUPS: 'off' }, false)
  console.log('STATS_ROLLUPS=off (15-minute rows, labels per value in JavaScript):')
  const before = await measure(old.base, Number(process.env.BENCH_OLD_SLOW_REPS ?? 1))
  await stop(old.child)

  const rows = [
    '| call | target | rollups median / p99 | off median / p99 | speed-up (median) | size | target |',
    '|---|---|---|---|---|---|---|',
    ...CALLS.map((c) => {
      const a = now.calls[c.name]
      const b = before.calls[c.name]
      return `| ${c.name} | ≤ ${f(c.target)} | ${f(a.median)} / ${f(a.p99)} | ${f(b.median)} / ${f(b.p99)} | ${(b.median / a.median).toFixed(1)}× | ${(a.bytes / 1024).toFixed(0)} KiB | ${a.median <= c.target ? 'met' : `missed by ${f(a.median - c.target)}`} |`
    }),
    `| 10 clients, month by day + year by month | ≥ 50 req/s | ${now.load.rps.toFixed(1)} req/s, p99 ${f(now.load.p99)} | ${before.load.rps.toFixed(1)} req/s, p99 ${f(before.load.p99)} | ${(now.load.rps / before.load.rps).toFixed(1)}× | | ${now.load.rps >= 50 ? 'met' : `missed by ${(50 - now.load.rps).toFixed(1)} req/s`} |`,
    `| /api/health under that load (idle) | | median ${f(now.health.load.median)}, p99 ${f(now.health.load.p99)}, max ${f(now.health.load.max)} (idle p99 ${f(now.health.idle.p99)}) | median ${f(before.health.load.median)}, p99 ${f(before.health.load.p99)}, max ${f(before.health.load.max)} | | | |`,
    `| live events: longest gap under load (idle; median gap) | | ${f(now.live.loadMaxGap)} (${f(now.live.idleMaxGap)}; ${f(now.live.medianGap)}) | ${f(before.live.loadMaxGap)} (${f(before.live.idleMaxGap)}; ${f(before.live.medianGap)}) | | | |`,
  ]
  console.log(`\n${DAYS} days of history, ${os.cpus().length} cores, ${new Date().toISOString()}; errors under load: ${now.load.errors} / ${before.load.errors}\n`)
  console.log(rows.join('\n'))
} finally {
  for (const c of children) if (c.exitCode === null) await stop(c)
  fs.rmSync(dataDir, { recursive: true, force: true })
}
