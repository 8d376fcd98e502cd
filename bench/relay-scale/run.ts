/**
 * Relay scale benchmark (`npm run bench:relay` = `node bench/relay-scale/run.ts`), see docs/performance.md.
 *
 * Processes, all on 127.0.0.1: a stub upstream API (stub.ts, realistic changing payloads of 50 stations),
 * the relay (`ROLES=relay node server/main.ts`), and subscriber load processes (load.ts, up to
 * BENCH_PER_PROCESS streams each). For every N it measures the relay as designed (shared serialization),
 * the relay with RELAY_FANOUT=naive (per-subscriber `reply.sse.send`), and the naive design where every
 * client polls the API itself (poll.ts), then prints one table, the target checks and the ratios.
 *
 * Environment (all optional):
 *   BENCH_N=100,1000,10000       subscriber counts
 *   BENCH_SECONDS=30             measurement window per relay run
 *   BENCH_DESIGNS=shared,naive,polling
 *   BENCH_RELAY_NODE_ARGS=--max-semi-space-size=4   Node options of the relay (production's; '' for Node's defaults)
 *   BENCH_INTERVALS_MS=metrics=1000,stations=1000,sessions=3000,info=4000,energy_return=6000
 *   BENCH_TOPICS=metrics,stations,sessions,info,energy_return   topics each subscriber asks for
 *   BENCH_PROFILES=1             permission profiles among subscribers (1 = all admins)
 *   BENCH_USERS=                 distinct users among subscribers (default: one per subscriber with one
 *                                profile, else one per profile); the relay re-checks their rights every stations poll
 *   BENCH_PER_PROCESS=2500       streams per load process;  BENCH_BATCH=200  streams connecting at once
 *   BENCH_GRACE_MS=3000          wait after the window for late deliveries
 *   BENCH_POLL_SAMPLE=250 BENCH_POLL_SECONDS=20   naive polling: clients simulated (scaled to N), window
 *   BENCH_REPORT=<file>          also write the report there;  BENCH_JSON=<file>  raw results
 *   BENCH_QUIET_WAIT=120         seconds to wait, before each measurement, for other processes on the
 *                                machine to use less than half a core (the run goes on, flagged, after that)
 *   BENCH_MAX_MINUTES=40         abort the whole run after this long
 */
import fs from 'node:fs'
import os from 'node:os'
import net from 'node:net'
import path from 'node:path'
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import {
  cpuSeconds, cpuTimes, machineCpu, median, nowMs, parseIntervals, percentile, PROD_INTERVALS, sleep, statusKiB, TOPICS, waitMessage,
  type LoadReport, type StubCounters, type Topic,
} from './common.ts'
import { topicPath } from '../../shared/live.ts'

const ROOT = path.resolve(import.meta.dirname, '../..')
const HERE = import.meta.dirname

if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(`Node ${process.versions.node}: the relay needs Node 24 (use npm run bench:relay or node_modules/.bin/node).`)
  process.exit(2)
}

// ---------------------------------------------------------------------------------------------------
// configuration

const env = process.env
const list = (s: string | undefined, d: string) => (s ?? d).split(',').map((x) => x.trim()).filter(Boolean)
const NS = list(env.BENCH_N, '100,1000,10000').map(Number)
const SECONDS = Number(env.BENCH_SECONDS ?? 30)
const DESIGNS = list(env.BENCH_DESIGNS, 'shared,naive,polling')
const INTERVALS = parseIntervals(env.BENCH_INTERVALS_MS)
const SUB_TOPICS = list(env.BENCH_TOPICS, TOPICS.join(',')) as Topic[]
const PROFILES = Number(env.BENCH_PROFILES ?? 1)
const USERS = Number(env.BENCH_USERS ?? (PROFILES > 1 ? PROFILES : 0))
const PER_PROCESS = Number(env.BENCH_PER_PROCESS ?? 2500)
const BATCH = Number(env.BENCH_BATCH ?? 200)
const GRACE_MS = Number(env.BENCH_GRACE_MS ?? 3000)
const POLL_SAMPLE = Number(env.BENCH_POLL_SAMPLE ?? 250)
const POLL_SECONDS = Number(env.BENCH_POLL_SECONDS ?? 20)
const MAX_MINUTES = Number(env.BENCH_MAX_MINUTES ?? 40)
const QUIET_WAIT = Number(env.BENCH_QUIET_WAIT ?? 120)
/** Node options of the relay besides the benchmark's own (--expose-gc, the watchdog): as the Dockerfile and `npm start` run it. */
const RELAY_NODE_ARGS = list(env.BENCH_RELAY_NODE_ARGS?.replaceAll(' ', ','), '--max-semi-space-size=4')
/** Simulated seconds per real second: one benchmark metrics poll covers one production metrics interval. */
const SPEED = PROD_INTERVALS.metrics / INTERVALS.metrics

for (const [name, ok] of [
  ['BENCH_N', NS.length > 0 && NS.every((n) => Number.isInteger(n) && n >= 1 && n <= 50_000)],
  ['BENCH_SECONDS', SECONDS >= 5 && SECONDS <= 600],
  ['BENCH_DESIGNS', DESIGNS.every((d) => ['shared', 'naive', 'polling'].includes(d))],
  ['BENCH_TOPICS', SUB_TOPICS.length > 0 && SUB_TOPICS.every((t) => (TOPICS as readonly string[]).includes(t))],
  ['BENCH_PROFILES', Number.isInteger(PROFILES) && PROFILES >= 1 && PROFILES <= 1000],
  ['BENCH_USERS', Number.isInteger(USERS) && USERS >= 0],
  ['BENCH_PER_PROCESS', PER_PROCESS >= 1 && PER_PROCESS <= 10_000],
  ['BENCH_BATCH', BATCH >= 1 && BATCH <= 5000],
  ['BENCH_POLL_SAMPLE', POLL_SAMPLE >= 1 && POLL_SAMPLE <= 5000],
  ['BENCH_POLL_SECONDS', POLL_SECONDS >= 5 && POLL_SECONDS <= 600],
] as const) {
  if (!ok) {
    console.error(`${name}: invalid value`)
    process.exit(2)
  }
}

// ---------------------------------------------------------------------------------------------------
// child processes: every one is tracked and killed when this process ends, however it ends

const children = new Set<ChildProcess>()
function track<T extends ChildProcess>(cp: T): T {
  children.add(cp)
  cp.on('exit', () => children.delete(cp))
  return cp
}
function killAll(signal: NodeJS.Signals): void {
  for (const cp of children) {
    try {
      cp.kill(signal)
    } catch {
      /* gone */
    }
  }
}
const tmpDirs = new Set<string>()
process.on('exit', () => {
  killAll('SIGKILL')
  for (const d of tmpDirs) fs.rmSync(d, { recursive: true, force: true })
})
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping`)
    killAll('SIGTERM')
    setTimeout(() => process.exit(130), 300)
  })
}
process.on('uncaughtException', (err) => {
  console.error(err)
  process.exit(1)
})
process.on('unhandledRejection', (err) => {
  console.error(err)
  process.exit(1)
})
setTimeout(() => {
  console.error(`BENCH_MAX_MINUTES (${MAX_MINUTES}) reached: aborting`)
  process.exit(1)
}, MAX_MINUTES * 60_000).unref()

/** CPU seconds used by this benchmark's own processes (this one and every child). */
const ownCpu = () => cpuSeconds(process.pid) + [...children].reduce<number>((a, c) => a + cpuSeconds(c.pid), 0)

/** CPU of processes outside the benchmark, % of one core, between two samples. */
function foreignPct(a: { machine: { busy: number }; own: number; t: number }, b: { machine: { busy: number }; own: number; t: number }): number {
  return Math.max(0, ((b.machine.busy - a.machine.busy - (b.own - a.own)) / ((b.t - a.t) / 1000)) * 100)
}
const cpuSample = () => ({ machine: machineCpu(), own: ownCpu(), t: nowMs() })

/** Wait (up to BENCH_QUIET_WAIT s) until other processes use under half a core for 4 s; returns their last load. */
async function waitQuiet(): Promise<number> {
  const deadline = Date.now() + QUIET_WAIT * 1000
  let warned = false
  let quiet = 0
  for (;;) {
    const a = cpuSample()
    await sleep(2000)
    const load = foreignPct(a, cpuSample())
    quiet = load < 50 ? quiet + 1 : 0
    if (quiet >= 2 || Date.now() >= deadline) {
      if (load >= 50) log(`  other processes still use ${load.toFixed(0)} % of a core: measuring anyway (flagged)`)
      return load
    }
    if (!warned && load >= 50) {
      log(`  other processes use ${load.toFixed(0)} % of a core: waiting up to ${QUIET_WAIT} s for a quiet machine`)
      warned = true
    }
  }
}

const log = (s: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${s}`)

function forkChild(file: string, extraEnv: Record<string, string> = {}): ChildProcess {
  return track(fork(path.join(HERE, file), [], { cwd: ROOT, env: { ...env, ...extraEnv }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] }))
}

function stopChild(cp: ChildProcess, graceMs = 5000): Promise<void> {
  if (cp.exitCode !== null || cp.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => cp.kill('SIGKILL'), graceMs)
    cp.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    if (cp.connected) cp.send({ type: 'close' })
    else cp.kill('SIGTERM')
  })
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer()
    srv.on('error', reject)
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port
      srv.close(() => resolve(port))
    })
  })
}

// ---------------------------------------------------------------------------------------------------
// stub upstream

interface Stub {
  proc: ChildProcess
  port: number
  counters(): Promise<StubCounters['paths']>
  setUsers(users: number): Promise<void>
}

async function startStub(): Promise<Stub> {
  const proc = forkChild('stub.ts', { BENCH_SPEED: String(SPEED), BENCH_PROFILES: String(PROFILES) })
  const { port } = await waitMessage<{ type: string; port: number }>(proc, 'ready', 15_000)
  return {
    proc,
    port,
    async counters() {
      proc.send({ type: 'counters' })
      return (await waitMessage<{ type: string; paths: StubCounters['paths'] }>(proc, 'counters', 10_000)).paths
    },
    async setUsers(users: number) {
      proc.send({ type: 'users', users })
      await waitMessage(proc, 'users', 10_000)
    },
  }
}

const PATH_TOPIC = new Map<string, Topic>(TOPICS.map((t) => [`/api${topicPath(t, 1, new Date()).split('?')[0]}`, t]))
const ACCESS_PATH = '/api/cockpit/installations/1/access'
/** The relay's re-check of the rights of open streams: a rights revision per interval, the rights of (some) users. */
const RECHECK_PATHS = new Set(['/api/cockpit/installations/1/accesses', '/api/cockpit/rights-revision'])

/** Stub counter difference per topic, the relay's re-check of rights, /access calls (one per connecting stream), and the rest. */
function upstreamDiff(a: StubCounters['paths'], b: StubCounters['paths']) {
  const perTopic = Object.fromEntries(TOPICS.map((t) => [t, { requests: 0, bytes: 0 }])) as Record<Topic, { requests: number; bytes: number }>
  const recheck = { requests: 0, bytes: 0, paths: {} as Record<string, number> }
  let access = 0
  const other: Record<string, number> = {}
  for (const [p, c] of Object.entries(b)) {
    const before = a[p] ?? { requests: 0, bytes: 0 }
    const dr = c.requests - before.requests
    const topic = PATH_TOPIC.get(p)
    if (topic) {
      perTopic[topic].requests += dr
      perTopic[topic].bytes += c.bytes - before.bytes
    } else if (RECHECK_PATHS.has(p)) {
      recheck.requests += dr
      recheck.bytes += c.bytes - before.bytes
      recheck.paths[p.split('/').at(-1)!] = dr
    } else if (p === ACCESS_PATH) access += dr
    else if (dr) other[p] = dr
  }
  return { perTopic, recheck, access, other }
}

// ---------------------------------------------------------------------------------------------------
// relay

interface Relay {
  proc: ChildProcess
  port: number
  tail: string[]
  warnings: number
  memFile: string
}

interface Memory {
  /** VmRSS, KiB. */
  rss: number
  /** process.memoryUsage() after a full GC, bytes (null when the relay did not answer). */
  heapUsed: number | null
  heapTotal: number | null
  external: number | null
  arrayBuffers: number | null
}

/** Full GC in the relay (watchdog.ts on SIGUSR2), then its RSS and heap figures. */
async function relayMemory(relay: Relay): Promise<Memory> {
  const asked = Date.now()
  relay.proc.kill('SIGUSR2')
  for (let i = 0; i < 50; i++) {
    await sleep(100)
    try {
      const m = JSON.parse(fs.readFileSync(relay.memFile, 'utf8')) as { at: number; heapUsed: number; heapTotal: number; external: number; arrayBuffers: number }
      if (m.at >= asked) {
        await sleep(200)
        return { rss: statusKiB(relay.proc.pid), heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers }
      }
    } catch {
      /* not written yet */
    }
  }
  return { rss: statusKiB(relay.proc.pid), heapUsed: null, heapTotal: null, external: null, arrayBuffers: null }
}

const relaySupportsFanout = fs.readFileSync(path.join(ROOT, 'config/env.ts'), 'utf8').includes('RELAY_FANOUT')

async function startRelay(stub: Stub, fanout: 'shared' | 'naive'): Promise<Relay> {
  const port = await freePort()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-relay-bench-'))
  tmpDirs.add(dataDir)
  const relayEnv: Record<string, string> = {
    ROLES: 'relay', PORT: String(port), HOST: '127.0.0.1', UPSTREAM_URL: `http://127.0.0.1:${stub.port}/api`,
    RELAY_UPSTREAM_EMAIL: 'relay@bench.local', RELAY_UPSTREAM_PASSWORD: 'bench', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DEMO: 'off',
    METRICS_INTERVAL_MS: String(INTERVALS.metrics), STATIONS_INTERVAL_MS: String(INTERVALS.stations), SESSIONS_INTERVAL_MS: String(INTERVALS.sessions),
    INFO_INTERVAL_MS: String(INTERVALS.info), ENERGY_RETURN_INTERVAL_MS: String(INTERVALS.energy_return),
    RELAY_FANOUT: fanout, RELAY_MAX_STREAMS_PER_USER: '1000000', RELAY_MAX_STREAMS_PER_IP: '1000000', METRICS_TOKEN: BENCH_METRICS_TOKEN,
    BENCH_MEM_FILE: path.join(dataDir, 'memory.json'),
  }
  const proc = track(spawn(process.execPath, ['--expose-gc', ...RELAY_NODE_ARGS, '--import', pathToFileURL(path.join(HERE, 'watchdog.ts')).href, 'server/main.ts'], {
    cwd: ROOT, env: { ...env, ...relayEnv }, stdio: ['ignore', 'pipe', 'pipe'],
  }))
  const relay: Relay = { proc, port, tail: [], warnings: 0, memFile: relayEnv.BENCH_MEM_FILE }
  const onLine = (chunk: Buffer) => {
    for (const line of chunk.toString().split('\n').filter(Boolean)) {
      relay.warnings++
      relay.tail.push(line.slice(0, 400))
      if (relay.tail.length > 20) relay.tail.shift()
    }
  }
  proc.stdout!.on('data', onLine)
  proc.stderr!.on('data', onLine)
  proc.once('exit', () => tmpDirs.has(dataDir) && (fs.rmSync(dataDir, { recursive: true, force: true }), tmpDirs.delete(dataDir)))
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`relay exited with ${proc.exitCode}:\n${relay.tail.join('\n')}`)
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`, { signal: AbortSignal.timeout(1000) })
      if (r.ok) return relay
    } catch {
      /* not yet */
    }
    await sleep(100)
  }
  throw new Error(`relay not healthy after 30 s:\n${relay.tail.join('\n')}`)
}

async function stopRelay(relay: Relay): Promise<void> {
  if (relay.proc.exitCode !== null) return
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => relay.proc.kill('SIGKILL'), 12_000)
    relay.proc.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    relay.proc.kill('SIGTERM')
  })
}

/** The relay's METRICS_TOKEN in the benchmark (the endpoint is off without one). */
const BENCH_METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef0123'

/** Counters of GET /live/metrics (when the relay has it). */
async function relayMetrics(relay: Relay): Promise<Record<string, number> | null> {
  try {
    const r = await fetch(`http://127.0.0.1:${relay.port}/live/metrics`, { headers: { authorization: `Bearer ${BENCH_METRICS_TOKEN}` }, signal: AbortSignal.timeout(5000) })
    if (!r.ok) return null
    const out: Record<string, number> = {}
    for (const line of (await r.text()).split('\n')) {
      const m = /^(cockpit_relay_[a-z_]+)(?:\{[^}]*\})? ([0-9.e+-]+)$/.exec(line)
      if (m) out[m[1]] = (out[m[1]] ?? 0) + Number(m[2])
    }
    return out
  } catch {
    return null
  }
}

// ---------------------------------------------------------------------------------------------------
// subscriber load

interface Connected {
  loads: ChildProcess[]
  ready: number
  /** Streams without complete snapshots at the end of the connect phase. */
  failed: number
  /** Streams that ended before / after their snapshots were complete during the connect phase (they reconnect). */
  closedEarly: number
  closedAfterReady: number
  lastError: string
  ms: number
}

/** Start load processes holding `n` streams (subscriber ids from `firstK`); resolves when all are connected. */
async function connectSubscribers(relay: Relay, n: number, firstK: number, batch = BATCH): Promise<Connected> {
  const k = Math.ceil(n / PER_PROCESS)
  const loads: ChildProcess[] = []
  const progress = new Map<ChildProcess, number>()
  const timeoutMs = 60_000 + n * 25
  const started = Date.now()
  let lastLog = Date.now()
  const results = await Promise.all(
    Array.from({ length: k }, async (_, i) => {
      const count = Math.min(PER_PROCESS, n - i * PER_PROCESS)
      const proc = forkChild('load.ts')
      loads.push(proc)
      await waitMessage(proc, 'ready', 15_000)
      proc.send({ type: 'init', port: relay.port, from: firstK + i * PER_PROCESS, count, topics: SUB_TOPICS, batch: Math.max(1, Math.ceil(batch / k)), connectTimeoutMs: timeoutMs })
      return waitMessage<{ type: string; ready: number; failed: number; closedEarly: number; closedAfterReady: number; lastError: string }>(proc, 'connected', timeoutMs + 15_000, (m) => {
        if (m.type === 'progress') {
          progress.set(proc, (m as unknown as { ready: number }).ready)
          if (Date.now() - lastLog > 5000) {
            lastLog = Date.now()
            log(`  connecting: ${[...progress.values()].reduce((a, b) => a + b, 0)}/${n}`)
          }
        } else if (m.type === 'log') log(`  load: ${(m as unknown as { message: string }).message}`)
      })
    }),
  )
  const sum = (f: (r: (typeof results)[number]) => number) => results.reduce((a, r) => a + f(r), 0)
  return {
    loads, ready: sum((r) => r.ready), failed: sum((r) => r.failed), closedEarly: sum((r) => r.closedEarly), closedAfterReady: sum((r) => r.closedAfterReady),
    lastError: results.map((r) => r.lastError).find(Boolean) ?? '', ms: Date.now() - started,
  }
}

// ---------------------------------------------------------------------------------------------------
// results

interface Row {
  n: number
  design: 'shared' | 'naive' | 'polling'
  subs: string
  reqMin: number
  reqMinProd: number
  /** Relay rows: of reqMinProd, the re-check of rights. */
  recheckMinProd?: number
  upKiBMinProd: number
  clientMiBMinProd: number
  p50?: number
  p99?: number
  samples?: number
  rssPerSub?: number
  ratio: Partial<Record<Topic, number>>
  relayCpu?: number
  stubCpu: number
  /** CPU of processes outside the benchmark during the window, % of one core. */
  otherCpu: number
  scaled?: number
  details: string[]
  /** For the target check. */
  ready?: number
  dropped?: number
  raw?: unknown
}

const perStream = (a: number | null, b: number | null, n: number) => (a === null || b === null ? '?' : fmt((b - a) / 1024 / n, 1))

const DESIGN_LABEL = { shared: 'relay, shared', naive: 'relay, naive fan-out', polling: 'naive polling' } as const
const perMin = (x: number, seconds: number) => x / (seconds / 60)
/** Factor turning a count at the benchmark interval of `topic` into the count at its production interval. */
const toProd = (topic: Topic) => INTERVALS[topic] / PROD_INTERVALS[topic]

async function runRelay(stub: Stub, n: number, design: 'shared' | 'naive'): Promise<Row> {
  log(`N=${n} ${DESIGN_LABEL[design]}: starting relay`)
  const users = USERS || n
  await stub.setUsers(USERS)
  const relay = await startRelay(stub, design)
  const pid = relay.proc.pid!
  const loads: ChildProcess[] = []
  try {
    // Warm-up: a few streams start the polls and the code paths; the polls keep running (idleStopMs) after they leave.
    const warm = await connectSubscribers(relay, Math.min(20, n), 9_000_000, 20)
    await sleep(3000)
    await Promise.all(warm.loads.map((l) => stopChild(l)))
    await sleep(2000)
    const mem0 = await relayMemory(relay)
    const rss0 = mem0.rss

    const conn = await connectSubscribers(relay, n, 1)
    loads.push(...conn.loads)
    const connNote = conn.closedEarly + conn.closedAfterReady
      ? `; during the connect phase ${conn.closedEarly + conn.closedAfterReady} streams ended (${conn.closedAfterReady} after their snapshots; "${conn.lastError}") and reconnected after 3 s`
      : ''
    log(`  ${conn.ready}/${n} subscribers have their snapshots (${(conn.ms / 1000).toFixed(1)} s)${connNote}`)
    await sleep(3000)
    const rssRaw = statusKiB(pid)
    const memN = await relayMemory(relay)
    const rssN = memN.rss

    const loadPids = () => loads.map((l) => l.pid)
    const snap = async () => ({
      stub: await stub.counters(), relayCpu: cpuSeconds(pid), relayTimes: cpuTimes(pid), stubCpu: cpuSeconds(stub.proc.pid),
      loadCpu: loadPids().reduce<number>((a, p) => a + cpuSeconds(p), 0), machine: machineCpu(), own: ownCpu(), metrics: await relayMetrics(relay), t: nowMs(),
    })
    await waitQuiet()
    const before = await snap()
    const t0 = before.t
    const t1 = t0 + SECONDS * 1000
    for (const l of loads) l.send({ type: 'measure', t0, t1 })
    let rssMax = rssN
    while (nowMs() < t1) {
      await sleep(Math.min(1000, Math.max(1, t1 - nowMs())))
      rssMax = Math.max(rssMax, statusKiB(pid))
    }
    const after = await snap()
    const window = (after.t - before.t) / 1000
    await sleep(GRACE_MS)
    const reports = await Promise.all(loads.map((l) => {
      l.send({ type: 'report' })
      return waitMessage<LoadReport>(l, 'report', 30_000)
    }))
    const rssEnd = statusKiB(pid)

    // Latency: per update the last subscriber (max over processes); only updates every subscriber received.
    const merged = new Map<string, { topic: string; n: number; max: number; min: number }>()
    for (const r of reports) {
      for (const [key, v] of Object.entries(r.latency)) {
        const m = merged.get(key)
        if (!m) merged.set(key, { topic: key.split(':')[0], n: v.n, max: v.max, min: v.min })
        else {
          m.n += v.n
          m.max = Math.max(m.max, v.max)
          m.min = Math.min(m.min, v.min)
        }
      }
    }
    // An update counts when at least 90 % of the streams open at the window's start received it (streams the
    // relay closes and that reconnect miss updates: they get fresh snapshots instead); coverage is reported.
    const complete = [...merged.values()].filter((m) => m.n >= 0.9 * conn.ready)
    const incomplete = merged.size - complete.length
    const coverage = complete.length ? Math.min(...complete.map((m) => m.n)) / conn.ready : NaN
    const lastSub = complete.map((m) => m.max)
    const byTopic = (t: string) => complete.filter((m) => m.topic === t).map((m) => m.max)

    // Traffic to subscribers per topic, and update size against the snapshot (frames as received by a probe).
    const traffic: Record<string, { frames: number; bytes: number }> = {}
    for (const r of reports) for (const [k, v] of Object.entries(r.traffic)) {
      const t = (traffic[k] ??= { frames: 0, bytes: 0 })
      t.frames += v.frames
      t.bytes += v.bytes
    }
    const probe = reports[0]?.probe
    const ratio: Partial<Record<Topic, number>> = {}
    const ratioNotes: string[] = []
    for (const topic of SUB_TOPICS) {
      const snapBytes = probe?.snapshot[topic]
      const updates = probe?.updates[topic] ?? []
      if (!snapBytes || !updates.length) continue
      const med = median(updates.map((u) => u.bytes))
      ratio[topic] = (med / snapBytes) * 100
      const count = (type: string) => updates.filter((u) => u.type === type).length
      const instr = median(updates.map((u) => u.instrument))
      ratioNotes.push(`${topic} ${snapBytes} B snapshot, median update ${med} B (of ${updates.length} updates ${count('merge')} merge patches, ${count('patch')} RFC 6902 patches, ${count('snapshot')} snapshots${instr ? `; ${instr} B of it the benchmark's generated_at` : ''})`)
    }
    let clientBytesProd = 0
    for (const [k, v] of Object.entries(traffic)) {
      const topic = k.split(':')[1] as Topic
      clientBytesProd += (TOPICS as readonly string[]).includes(topic) ? v.bytes * toProd(topic) : v.bytes
    }

    const up = upstreamDiff(before.stub, after.stub)
    // The re-check of rights runs once per stations interval.
    const reqs = TOPICS.reduce((a, t) => a + up.perTopic[t].requests, 0) + up.recheck.requests
    const reqsProd = TOPICS.reduce((a, t) => a + up.perTopic[t].requests * toProd(t), 0) + up.recheck.requests * toProd('stations')
    const bytesProd = TOPICS.reduce((a, t) => a + up.perTopic[t].bytes * toProd(t), 0) + up.recheck.bytes * toProd('stations')
    const readyEnd = reports.reduce((a, r) => a + r.ready, 0)
    const closed = reports.reduce((a, r) => a + r.closedInWindow, 0)
    const windowError = reports.map((r) => r.lastError).find(Boolean)
    const dropped = after.metrics && before.metrics ? (after.metrics.cockpit_relay_dropped_subscribers_total ?? 0) - (before.metrics.cockpit_relay_dropped_subscribers_total ?? 0) : closed
    const machineBusy = ((after.machine.busy - before.machine.busy) / Math.max(1e-9, after.machine.total - before.machine.total)) * 100
    const row: Row = {
      n, design, subs: `${conn.ready}/${n}`, otherCpu: foreignPct(before, after),
      reqMin: perMin(reqs, window), reqMinProd: perMin(reqsProd, window), recheckMinProd: perMin(up.recheck.requests * toProd('stations'), window),
      upKiBMinProd: perMin(bytesProd, window) / 1024, clientMiBMinProd: perMin(clientBytesProd, window) / 2 ** 20,
      p50: percentile(lastSub, 50), p99: percentile(lastSub, 99), samples: lastSub.length,
      rssPerSub: (rssN - rss0) / n, ratio,
      relayCpu: ((after.relayCpu - before.relayCpu) / window) * 100, stubCpu: ((after.stubCpu - before.stubCpu) / window) * 100,
      ready: Math.min(conn.ready, readyEnd), dropped: Math.max(dropped, closed),
      details: [
        `connect ${(conn.ms / 1000).toFixed(1)} s${connNote}; window ${window.toFixed(1)} s; streams open at the end ${readyEnd}, closed during the window ${closed}${windowError ? ` ("${windowError}")` : ''}, relay-dropped ${dropped}`,
        `latency samples ${lastSub.length} (lowest share of streams that received a sampled update ${fmt(coverage * 100, 1)} %; ${incomplete} updates left out: received by < 90 % of the streams, or not within ${GRACE_MS} ms of the window's end); ` +
          `metrics p50/p99 ${fmt(percentile(byTopic('metrics'), 50), 1)}/${fmt(percentile(byTopic('metrics'), 99), 1)} ms, stations ${fmt(percentile(byTopic('stations'), 50), 1)}/${fmt(percentile(byTopic('stations'), 99), 1)} ms, ` +
          `first subscriber p50 ${fmt(percentile(complete.map((m) => m.min), 50), 1)} ms, max ${fmt(Math.max(...lastSub), 1)} ms; ` +
          `last subscriber, slowest ten: ${[...lastSub].sort((a, b) => b - a).slice(0, 10).map((x) => fmt(x, 1)).join(', ')} ms`,
        `relay RSS after full GC ${(rss0 / 1024).toFixed(1)} MiB idle, ${(rssN / 1024).toFixed(1)} MiB with ${n} streams (${(rssRaw / 1024).toFixed(1)} MiB before that GC: ${fmt((rssRaw - rss0) / n, 1)} KiB/stream), ` +
          `max ${(rssMax / 1024).toFixed(1)} MiB in the window, ${(rssEnd / 1024).toFixed(1)} MiB after; per stream after GC: JS heap used ${perStream(mem0.heapUsed, memN.heapUsed, n)} KiB (heap reserved ${perStream(mem0.heapTotal, memN.heapTotal, n)} KiB), external ${perStream(mem0.external, memN.external, n)} KiB (array buffers ${perStream(mem0.arrayBuffers, memN.arrayBuffers, n)} KiB)`,
        `CPU % of one core: relay ${fmt(((after.relayCpu - before.relayCpu) / window) * 100, 1)} (user ${fmt(((after.relayTimes.user - before.relayTimes.user) / window) * 100, 1)}, system ${fmt(((after.relayTimes.system - before.relayTimes.system) / window) * 100, 1)}), stub ${fmt(((after.stubCpu - before.stubCpu) / window) * 100, 1)}, load processes ${fmt(((after.loadCpu - before.loadCpu) / window) * 100, 1)}, processes outside the benchmark ${fmt(foreignPct(before, after), 1)}; machine busy ${fmt(machineBusy, 0)} % of ${os.cpus().length} cores`,
        `upstream in the window: ${TOPICS.map((t) => `${t} ${up.perTopic[t].requests}`).join(', ')}; rights re-check (${fmt(users, 0)} users) ${up.recheck.requests}: ${Object.entries(up.recheck.paths).map(([p, c]) => `${p} ${c}`).join(', ') || '–'} (${fmt(up.recheck.bytes / 1024, 0)} KiB); /access ${up.access}` +
          Object.entries(up.other).map(([p, c]) => `, ${p} ${c}`).join(''),
        `to subscribers: ${Object.entries(traffic).sort().map(([k, v]) => `${k} ${v.frames} frames ${(v.bytes / 2 ** 20).toFixed(2)} MiB`).join(', ')}`,
        ...ratioNotes,
        ...(relay.warnings ? [`relay logged ${relay.warnings} warning lines, last: ${relay.tail.at(-1)}`] : []),
      ],
    }
    log(`  p50 ${fmt(row.p50, 1)} ms, p99 ${fmt(row.p99, 1)} ms, relay CPU ${fmt(row.relayCpu, 1)} %, RSS/sub ${fmt(row.rssPerSub, 1)} KiB`)
    for (const d of row.details) log(`    ${d}`)
    return row
  } finally {
    await Promise.all(loads.map((l) => stopChild(l)))
    await stopRelay(relay)
  }
}

async function runPolling(stub: Stub, n: number): Promise<Row> {
  const clients = Math.min(n, POLL_SAMPLE)
  const scale = n / clients
  log(`N=${n} naive polling: ${clients} clients${scale > 1 ? `, scaled ×${fmt(scale, 1)}` : ''}`)
  const procs: ChildProcess[] = []
  try {
    for (let i = 0; i * 500 < clients; i++) {
      const proc = forkChild('poll.ts')
      procs.push(proc)
      await waitMessage(proc, 'ready', 15_000)
      proc.send({ type: 'init', port: stub.port, from: 1 + i * 500, clients: Math.min(500, clients - i * 500), intervals: INTERVALS, topics: SUB_TOPICS })
      await waitMessage(proc, 'started', 15_000)
    }
    // One longest interval of warm-up: every client's every loop has started.
    await sleep(Math.max(...SUB_TOPICS.map((t) => INTERVALS[t])) + 500)
    await waitQuiet()
    const snap = async () => ({ stub: await stub.counters(), stubCpu: cpuSeconds(stub.proc.pid), pollCpu: procs.reduce((a, p) => a + cpuSeconds(p.pid), 0), machine: machineCpu(), own: ownCpu(), t: nowMs() })
    const before = await snap()
    await sleep(POLL_SECONDS * 1000)
    const after = await snap()
    const window = (after.t - before.t) / 1000
    const reports = await Promise.all(procs.map((p) => {
      p.send({ type: 'report' })
      return waitMessage<{ type: string; errors: number; late: number }>(p, 'report', 10_000)
    }))
    const up = upstreamDiff(before.stub, after.stub)
    const reqs = TOPICS.reduce((a, t) => a + up.perTopic[t].requests, 0) * scale
    const reqsProd = TOPICS.reduce((a, t) => a + up.perTopic[t].requests * toProd(t), 0) * scale
    const bytesProd = TOPICS.reduce((a, t) => a + up.perTopic[t].bytes * toProd(t), 0) * scale
    const stubCpu = ((after.stubCpu - before.stubCpu) / window) * 100
    const machineBusy = ((after.machine.busy - before.machine.busy) / Math.max(1e-9, after.machine.total - before.machine.total)) * 100
    const row: Row = {
      n, design: 'polling', subs: scale > 1 ? `${clients}×${fmt(scale, 0)}` : `${clients}/${n}`, otherCpu: foreignPct(before, after),
      reqMin: perMin(reqs, window), reqMinProd: perMin(reqsProd, window), upKiBMinProd: perMin(bytesProd, window) / 1024, clientMiBMinProd: perMin(bytesProd, window) / 2 ** 20,
      ratio: Object.fromEntries(SUB_TOPICS.map((t) => [t, 100])), stubCpu: stubCpu * scale, scaled: scale,
      details: [
        `${clients} polling clients measured for ${window.toFixed(1)} s${scale > 1 ? `, figures scaled ×${fmt(scale, 1)} to N=${n}` : ''}; errors ${reports.reduce((a, r) => a + r.errors, 0)}, polls skipped (previous still running) ${reports.reduce((a, r) => a + r.late, 0)}`,
        `stub CPU ${fmt(stubCpu, 1)} % of one core measured (${fmt(stubCpu * scale, 0)} % scaled), polling clients ${fmt(((after.pollCpu - before.pollCpu) / window) * 100, 1)} %, processes outside the benchmark ${fmt(foreignPct(before, after), 1)} %, machine busy ${fmt(machineBusy, 0)} %`,
        `upstream in the window (measured): ${TOPICS.map((t) => `${t} ${up.perTopic[t].requests}`).join(', ')}`,
      ],
    }
    log(`  ${fmt(row.reqMin, 0)} req/min (${fmt(row.reqMinProd, 0)} @prod), stub CPU ${fmt(stubCpu, 1)} % measured`)
    for (const d of row.details) log(`    ${d}`)
    return row
  } finally {
    await Promise.all(procs.map((p) => stopChild(p)))
  }
}

// ---------------------------------------------------------------------------------------------------
// report

function fmt(x: number | undefined, digits: number): string {
  if (x === undefined || !Number.isFinite(x)) return '–'
  return x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}
/** Numbers that span decades: 3 significant digits, thousands separated. */
function num(x: number | undefined): string {
  if (x === undefined || !Number.isFinite(x)) return '–'
  const a = Math.abs(x)
  return fmt(x, a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3)
}

const cpu = (x: number) => fmt(x, x >= 100 ? 0 : 1)
const pct = (x: number | undefined) => (x === undefined ? '–' : `${fmt(x, 1)} %`)

function table(rows: Row[]): string {
  const head = [
    ['N', 'design', 'subs', 'upstream', 'upstream', 'of which', 'upstream', 'to clients', 'latency', 'latency', 'RSS/sub', 'stations', 'sessions', 'metrics', 'relay CPU', 'stub CPU', 'others'],
    ['', '', '', 'req/min', 'req/min', 're-check', 'KiB/min', 'MiB/min', 'p50 ms', 'p99 ms', 'KiB', 'update/', 'update/', 'update/', '% core', '% core', '% core'],
    ['', '', '', 'measured', '@prod', '@prod', '@prod', '@prod', '', '', '', 'snapshot', 'snapshot', 'snapshot', '', '', ''],
  ]
  const body = rows.map((r) => [
    fmt(r.n, 0), DESIGN_LABEL[r.design], r.subs, num(r.reqMin), num(r.reqMinProd), r.recheckMinProd === undefined ? '–' : num(r.recheckMinProd), num(r.upKiBMinProd), num(r.clientMiBMinProd),
    r.p50 === undefined ? '–' : fmt(r.p50, 1), r.p99 === undefined ? '–' : fmt(r.p99, 1), r.rssPerSub === undefined ? '–' : fmt(r.rssPerSub, 1),
    pct(r.ratio.stations), pct(r.ratio.sessions), pct(r.ratio.metrics), r.relayCpu === undefined ? '–' : cpu(r.relayCpu), cpu(r.stubCpu), `${cpu(r.otherCpu)}${r.otherCpu >= 50 ? ' !' : ''}`,
  ])
  const all = [...head, ...body]
  const widths = head[0].map((_, i) => Math.max(...all.map((r) => r[i].length)))
  const left = new Set([1, 2])
  const line = (r: string[]) => r.map((c, i) => (left.has(i) ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd()
  const sep = widths.map((w) => '-'.repeat(w)).join('  ')
  const out = [...head.map(line), sep]
  let lastN = -1
  for (let i = 0; i < rows.length; i++) {
    if (lastN !== -1 && rows[i].n !== lastN) out.push('')
    lastN = rows[i].n
    out.push(line(body[i]))
  }
  return out.join('\n')
}

function targets(rows: Row[]): string[] {
  const out: string[] = []
  const shared = rows.filter((r) => r.design === 'shared')
  const at = (n: number) => shared.find((r) => r.n === n)
  const check = (ok: boolean, text: string) => out.push(`${ok ? '[met]   ' : '[missed]'} ${text}`)
  const r10k = at(10_000)
  if (r10k) {
    const ok = r10k.ready === 10_000 && !r10k.dropped
    check(ok, `10,000 concurrent subscribers on one relay process: ${r10k.subs} connected with snapshots, ${r10k.dropped} dropped during the window`)
  } else out.push('[n/a]    10,000 concurrent subscribers: N=10000 not run')
  for (const [n, limit] of [[1000, 25], [10_000, 250]] as const) {
    const r = at(n)
    if (!r || r.p99 === undefined || !Number.isFinite(r.p99)) out.push(`[n/a]    p99 change-to-last-subscriber ≤ ${limit} ms at N=${fmt(n, 0)}: not run`)
    else check(r.p99 <= limit, `p99 change-to-last-subscriber ≤ ${limit} ms at N=${fmt(n, 0)}: ${fmt(r.p99, 1)} ms${r.p99 > limit ? ` (over by ${fmt(r.p99 - limit, 1)} ms, ×${fmt(r.p99 / limit, 1)})` : ''} over ${r.samples} updates`)
  }
  const big = [...shared].sort((a, b) => b.n - a.n)[0]
  if (big?.rssPerSub !== undefined) {
    const all = shared.map((r) => `N=${fmt(r.n, 0)}: ${fmt(r.rssPerSub, 1)}`).join(', ')
    check(big.rssPerSub <= 16, `≤ 16 KiB relay RSS per idle subscriber: ${fmt(big.rssPerSub, 1)} KiB at N=${fmt(big.n, 0)}${big.rssPerSub > 16 ? ` (over by ${fmt(big.rssPerSub - 16, 1)} KiB)` : ''} (${all} KiB; small N is within RSS noise)`)
  }
  if (shared.length) {
    const expected = SUB_TOPICS.reduce((a, t) => a + 60_000 / PROD_INTERVALS[t], 0)
    const polls = shared.map((r) => r.reqMinProd - (r.recheckMinProd ?? 0))
    const spread = Math.max(...polls) / Math.min(...polls)
    check(spread <= 1.1 && Math.max(...polls) <= expected * 1.1, `upstream topic polls independent of N: ${shared.map((r, i) => `N=${fmt(r.n, 0)} ${fmt(polls[i], 1)}`).join(', ')} req/min @prod (one per installation, topic and interval: ${fmt(expected, 1)}; max/min ${fmt(spread, 2)})`)
    const all = shared.map((r) => r.reqMinProd)
    const spreadAll = Math.max(...all) / Math.min(...all)
    check(spreadAll <= 1.1, `all upstream requests independent of N, with the relay's re-check of rights (rights-revision and …/accesses, ${USERS ? `${fmt(USERS, 0)} users` : 'one user per subscriber'}): ${shared.map((r) => `N=${fmt(r.n, 0)} ${fmt(r.reqMinProd, 1)}`).join(', ')} req/min @prod (max/min ${fmt(spreadAll, 2)}); besides, one /access call per connecting stream`)
  }
  for (const [topic, limit] of [['stations', 5], ['sessions', 5], ['metrics', 40]] as const) {
    const vals = shared.map((r) => r.ratio[topic]).filter((x): x is number => x !== undefined)
    if (!vals.length) continue
    const v = median(vals)
    check(v <= limit, `median ${topic} update ≤ ${limit} % of the snapshot: ${fmt(v, 1)} %${v > limit ? ` (over by ${fmt(v - limit, 1)} points)` : ''}`)
  }
  return out
}

function ratios(rows: Row[]): string[] {
  const out: string[] = []
  const x = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || !b ? '–' : `×${num(a / b)}`)
  for (const n of NS) {
    const s = rows.find((r) => r.n === n && r.design === 'shared')
    const v = rows.find((r) => r.n === n && r.design === 'naive')
    const p = rows.find((r) => r.n === n && r.design === 'polling')
    if (s && p) out.push(`N=${fmt(n, 0)}: naive polling / relay: upstream requests ${x(p.reqMinProd, s.reqMinProd)}, upstream bytes ${x(p.upKiBMinProd, s.upKiBMinProd)}, bytes to clients ${x(p.clientMiBMinProd, s.clientMiBMinProd)}, upstream (stub) CPU ${x(p.stubCpu, s.stubCpu)}`)
    if (s && v) out.push(`N=${fmt(n, 0)}: naive fan-out / shared: p50 ${x(v.p50, s.p50)}, p99 ${x(v.p99, s.p99)}, relay CPU ${x(v.relayCpu, s.relayCpu)}, RSS/sub ${x(v.rssPerSub, s.rssPerSub)}`)
  }
  return out
}

// ---------------------------------------------------------------------------------------------------
// main

const started = Date.now()
const nproc = (() => {
  try {
    return execFileSync('nproc', { encoding: 'utf8' }).trim()
  } catch {
    return String(os.cpus().length)
  }
})()
const git = (() => {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'server', 'shared', 'config'], { cwd: ROOT, encoding: 'utf8' }).trim()
    return `commit ${head}${dirty ? ` + uncommitted changes in ${dirty.split('\n').length} files of server/, shared/, config/` : ''}`
  } catch {
    return 'commit ?'
  }
})()
const machine = `${nproc} cores (nproc), ${os.cpus()[0]?.model ?? '?'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.versions.node}, open files limit ${(() => {
  try {
    return execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim()
  } catch {
    return '?'
  }
})()}`
log(`relay-scale benchmark: N=${NS.join(',')}, designs ${DESIGNS.join(',')}, window ${SECONDS} s, intervals ${TOPICS.map((t) => `${t} ${INTERVALS[t]} ms`).join(', ')}, topics ${SUB_TOPICS.join(',')}, profiles ${PROFILES}`)
log(machine)
log(git)
if (DESIGNS.includes('naive') && !relaySupportsFanout) log('WARNING: config/env.ts has no RELAY_FANOUT yet: the "naive fan-out" rows measure the shared design')

const stub = await startStub()
const rows: Row[] = []
for (const n of NS) {
  for (const design of DESIGNS) {
    if (design === 'polling') rows.push(await runPolling(stub, n))
    else rows.push(await runRelay(stub, n, design as 'shared' | 'naive'))
  }
}
await stopChild(stub.proc)

const prodRate = SUB_TOPICS.map((t) => `${t} ${PROD_INTERVALS[t] / 1000} s`).join(', ')
const report = [
  '',
  `Relay scale benchmark — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${git}`,
  machine,
  `window ${SECONDS} s per relay run; bench poll intervals ${TOPICS.map((t) => `${t} ${INTERVALS[t] / 1000} s`).join(', ')}; @prod = normalized per topic to ${prodRate}`,
  `relay started as production runs it: node ${RELAY_NODE_ARGS.join(' ') || '(Node defaults)'} server/main.ts (plus the benchmark's --expose-gc and watchdog preload)`,
  `subscribers ask for ${SUB_TOPICS.join(',')}; ${PROFILES === 1 ? 'all in one permission profile (installation admins)' : `${PROFILES} permission profiles`}; latency = per metrics/stations update, receive time at the last subscriber − generated_at at the stub`,
  '',
  table(rows),
  '',
  ...targets(rows),
  '',
  ...ratios(rows),
  ...(rows.some((r) => r.otherCpu >= 50) ? ['', '"!" in others: processes outside the benchmark used half a core or more during that window: its latency and CPU figures are inflated'] : []),
  ...(rows.some((r) => r.scaled && r.scaled > 1) ? ['', `naive polling rows with "M×k" in subs: M clients measured for ${POLL_SECONDS} s, requests, bytes and stub CPU scaled ×k to N (linear: every client polls independently)`] : []),
  '',
  `total ${((Date.now() - started) / 60_000).toFixed(1)} min`,
].join('\n')
console.log(report)
if (env.BENCH_REPORT) {
  fs.writeFileSync(env.BENCH_REPORT, `${report}\n\nDetails\n${rows.map((r) => `N=${r.n} ${DESIGN_LABEL[r.design]}\n${r.details.map((d) => `  ${d}`).join('\n')}`).join('\n')}\n`)
}
if (env.BENCH_JSON) fs.writeFileSync(env.BENCH_JSON, JSON.stringify({ machine, intervals: INTERVALS, seconds: SECONDS, rows }, null, 2))
process.exit(0)
