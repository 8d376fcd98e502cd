/**
 * Scale-out check (`npm run bench:scale`), see docs/performance.md "Scale-out".
 *
 * On this machine: a throwaway PostgreSQL cluster (tests/postgres/cluster.ts), two API processes on it
 * (the first also runs the simulator), two relays, and the proxy in front of them all (deploy/nginx.conf
 * run by Debian's nginx, or the Node stand-in with the same consistent hashing, tests/scale-out.ts).
 * The demo's installations are copied (meters, stations, tariffs) up to BENCH_INSTALLATIONS, so the
 * simulator moves every one of them. BENCH_SUBSCRIBERS streams (all five topics, as the superuser)
 * spread evenly over the installations connect through the proxy. Then:
 *   1. a window of BENCH_WINDOW_S seconds: upstream polls per installation × topic × interval, counted
 *      at the proxy over both relays together (1.00 = one poller per installation and topic);
 *   2. the relay holding more streams is killed (SIGKILL); its subscribers reconnect through the proxy
 *      with their Last-Event-ID to the other relay: time until each has its next event, event id gaps
 *      within a stream (lost events), and how they resumed (snapshot / replay);
 *   3. a second window on the survivor alone: polls per installation × topic × interval again.
 *
 * Subscribers reconnect as the web client does (client/live/connection.ts): 0.5 s doubling to 2 s,
 * jittered, and a 503 or 429 with Retry-After waited out (× 1–1.5 at random). The relays' access-check
 * queues are sampled from /live/metrics every second.
 *
 * Environment: BENCH_SUBSCRIBERS=2000 BENCH_INSTALLATIONS=20 BENCH_WINDOW_S=30 (a multiple of every interval)
 *   BENCH_INTERVALS_MS=metrics=5000,stations=5000,sessions=15000,info=30000,energy_return=30000
 *   SCALE_PROXY=node (use the Node stand-in even with nginx installed)  BENCH_REPORT=<file>
 *   BENCH_RELAY_DIR=<checkout> (run the relays from another checkout, e.g. `git archive main`, with
 *   node_modules linked: a before/after comparison with the same API, bench and proxy)
 */
import fs from 'node:fs'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import { execFileSync } from 'node:child_process'
import pg from 'pg'
import { startCluster } from '../tests/postgres/cluster.ts'
import { freePort, startCockpit, startShardProxy, type CockpitProcess } from '../tests/scale-out.ts'
import { TOPICS, type Topic } from '../shared/live.ts'
import { parseIntervals } from './relay-scale/common.ts'

const N = Number(process.env.BENCH_SUBSCRIBERS ?? 2000)
const INSTALLATIONS = Number(process.env.BENCH_INSTALLATIONS ?? 20)
const WINDOW_S = Number(process.env.BENCH_WINDOW_S ?? 30)
// Metrics and stations at production's 5 s; the slower topics shortened so a 30 s window holds them whole.
const intervals = parseIntervals(process.env.BENCH_INTERVALS_MS ?? 'metrics=5000,stations=5000,sessions=15000,info=30000,energy_return=30000')
const PASSWORD = 'Cockpit-2026!'
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`)

const started: { stop(): Promise<void> | void }[] = []
async function cleanup() {
  for (const s of started.reverse()) {
    try {
      await s.stop()
    } catch {
      // best effort
    }
  }
}
process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))
// Whatever ends this process (an error included), nothing it started may outlive it.
const children: { kill(signal: NodeJS.Signals): unknown }[] = []
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL')
  cluster?.stop()
})

// ---------------------------------------------------------------------------------------------------
// the cluster

const uptimeBefore = execFileSync('uptime').toString().trim()
log(`scale-out check: ${N} subscribers over ${INSTALLATIONS} installations; load ${load()}`)
let cluster: Awaited<ReturnType<typeof startCluster>> | undefined
cluster = await startCluster()
started.push({ stop: () => cluster!.stop() })
{
  const c = new pg.Client({ connectionString: cluster.url })
  await c.connect()
  await c.query('CREATE DATABASE cockpit_bench')
  await c.end()
}
const databaseUrl = cluster.url.replace(/\/postgres$/, '/cockpit_bench')
const proxyPort = await freePort()
const proxyUrl = `http://127.0.0.1:${proxyPort}`
const common = {
  DATABASE_URL: databaseUrl, JWT_SECRET: 'scale-out-bench-secret-0123456789abcdef', TRUST_PROXY: '127.0.0.1',
  RELAY_UPSTREAM_EMAIL: 'relay@cockpit.internal', RELAY_UPSTREAM_PASSWORD: 'Relay-bench-42',
}
const t0 = Date.now()
const api1 = await startCockpit({ ...common, ROLES: 'api,simulator', DEMO: 'on', SIM_BACKFILL_DAYS: '1' }, 300_000)
started.push({ stop: () => api1.kill('SIGTERM') })
children.push(api1.child)
const api2 = await startCockpit({ ...common, ROLES: 'api', DEMO: 'on' }, 300_000)
started.push({ stop: () => api2.kill('SIGTERM') })
children.push(api2.child)
// The relays' /live/metrics is off without METRICS_TOKEN (docs/decisions.md "Metrics: a token").
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdef0123'
const METRICS_AUTH = { authorization: `Bearer ${METRICS_TOKEN}` }
const relayEnv = {
  ...common, ROLES: 'relay', UPSTREAM_URL: `${proxyUrl}/api`, RELAY_MAX_STREAMS_PER_USER: String(N * 2), RELAY_MAX_STREAMS_PER_IP: String(N * 2),
  METRICS_TOKEN: METRICS_TOKEN,
  METRICS_INTERVAL_MS: String(intervals.metrics), STATIONS_INTERVAL_MS: String(intervals.stations), SESSIONS_INTERVAL_MS: String(intervals.sessions),
  INFO_INTERVAL_MS: String(intervals.info), ENERGY_RETURN_INTERVAL_MS: String(intervals.energy_return),
}
const relayDir = process.env.BENCH_RELAY_DIR ? path.resolve(process.env.BENCH_RELAY_DIR) : undefined
if (relayDir) log(`relays run from ${relayDir}`)
const relays: CockpitProcess[] = [await startCockpit(relayEnv, 90_000, relayDir), await startCockpit(relayEnv, 90_000, relayDir)]
started.push(...relays.map((r) => ({ stop: () => r.kill('SIGTERM') })))
children.push(...relays.map((r) => r.child))
const accessLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'cockpit-scale-')), 'api.log')
const proxy = await startShardProxy({ relays: relays.map((r) => r.address), apis: [api1.address, api2.address], accessLog, port: proxyPort })
started.push({ stop: () => proxy.close() })
if (proxy.child) children.push(proxy.child)
log(`Postgres, 2 API processes, 2 relays and ${proxy.kind} up in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

// ---------------------------------------------------------------------------------------------------
// 20 installations: copies of the demo's first one, with its meters, stations and tariffs

const db = new pg.Client({ connectionString: databaseUrl })
await db.connect()
async function copyRows(table: string, where: string, values: unknown[], override: Record<string, unknown> | ((row: Record<string, unknown>) => Record<string, unknown>)): Promise<Map<number, number>> {
  const rows = (await db.query(`SELECT * FROM ${table} WHERE ${where} ORDER BY id`, values)).rows as Record<string, unknown>[]
  const ids = new Map<number, number>()
  for (const row of rows) {
    const r = { ...row, ...(typeof override === 'function' ? override(row) : override) }
    delete r.id
    const cols = Object.keys(r)
    const inserted = await db.query(`INSERT INTO ${table} (${cols.map((c) => `"${c}"`).join(',')}) VALUES (${cols.map((_, i) => `$${i + 1}`).join(',')}) RETURNING id`,
      cols.map((c) => (r[c] !== null && typeof r[c] === 'object' && !(r[c] instanceof Date) ? JSON.stringify(r[c]) : r[c])))
    ids.set(row.id as number, inserted.rows[0].id as number)
  }
  return ids
}
const existing = Number((await db.query('SELECT count(*) AS n FROM installations')).rows[0].n)
for (let k = existing + 1; k <= INSTALLATIONS; k++) {
  const [inst] = [...(await copyRows('installations', 'id = $1', [1], { name: `Scale Residence ${k}` })).values()]
  const meters = await copyRows('meters', 'installation_id = $1', [1], { installation_id: inst, object_id: null })
  const stations = (await db.query('SELECT id, meter_id FROM charging_stations WHERE installation_id = 1 AND id NOT IN (SELECT station_id FROM ocpp_charge_points) ORDER BY id')).rows as { id: number; meter_id: number }[]
  for (const s of stations) await copyRows('charging_stations', 'id = $1', [s.id], (row) => ({ installation_id: inst, object_id: null, meter_id: meters.get(s.meter_id) ?? null, current_session_id: null, status: 'noCar', power_kw: 0, device_id: `${String(row.device_id)}-S${k}` }))
  await copyRows('tariffs', 'installation_id = $1', [1], { installation_id: inst })
}
const installationIds = ((await db.query('SELECT id FROM installations ORDER BY id LIMIT $1', [INSTALLATIONS])).rows as { id: number }[]).map((r) => r.id)
await db.end()
log(`${installationIds.length} installations`)

// The superuser may see every installation; one token for all streams (the relays' per-user cap is raised).
async function signIn(): Promise<string> {
  const r = await fetch(`${proxyUrl}/api/authentication/token/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'super@example.com', password: PASSWORD }) })
  if (!r.ok) throw new Error(`sign-in ${r.status}: ${await r.text()}`)
  return ((await r.json()) as { access: string }).access
}
let token = await signIn()
// Access tokens expire within minutes (as the web client does, get a new one on 401; one sign-in at a time).
let renewing: Promise<void> | null = null
const renew = () => (renewing ??= signIn().then((t) => { token = t }).finally(() => setTimeout(() => (renewing = null), 30_000)))

// ---------------------------------------------------------------------------------------------------
// subscribers: raw SSE over HTTP/1.1 through the proxy, reconnecting with Last-Event-ID and the web client's back-off

interface Sub {
  installation: number
  lastId: string | null
  events: number
  connects: number
  /** Event id gaps within one connection (a seq not following the one before): lost events. */
  gaps: number
  /** Kind of the first event after each reconnect: 'snapshot' (fresh state) or 'replay' (same relay's ring). */
  resumes: string[]
  retryMs: number
  disconnectedAt: number | null
  /** ms from losing the stream to the first event on the new one, per reconnect. */
  recoveries: number[]
  refused: number
  /** Failed attempts since the last stream (the back-off's exponent). */
  attempt: number
  closed: boolean
  req?: http.ClientRequest
}

const subs: Sub[] = Array.from({ length: N }, (_, i) => ({
  installation: installationIds[i % installationIds.length], lastId: null, events: 0, connects: 0, gaps: 0, resumes: [], retryMs: 3000,
  disconnectedAt: null, recoveries: [], refused: 0, attempt: 0, closed: false,
}))

/** Answers other than 200 by status (and whether the subscriber had a stream before). */
const statuses = new Map<string, number>()
let connectErrors = 0
/** Refusals that carried a Retry-After (waited out) and the values given (s). */
const retryAfters: number[] = []

/** The web client's delay after a failed attempt (client/live/connection.ts reconnectDelay). */
function reconnectDelay(sub: Sub, status: number, retryAfter: string | undefined): number {
  const ra = Number(retryAfter)
  if ((status === 503 || status === 429) && Number.isFinite(ra) && ra > 0) {
    retryAfters.push(ra)
    return Math.round(Math.min(ra, 120) * 1000 * (1 + Math.random() / 2))
  }
  return Math.round(Math.min(2000, 500 * 2 ** Math.min(sub.attempt++, 20)) * (0.5 + Math.random() / 2))
}

function open(sub: Sub): void {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` }
  if (sub.lastId) headers['last-event-id'] = sub.lastId
  let gone = false
  const lost = (status = 0, retryAfter?: string) => {
    if (sub.closed || gone) return
    gone = true
    sub.disconnectedAt ??= Date.now()
    setTimeout(() => open(sub), reconnectDelay(sub, status, retryAfter))
  }
  const req = http.get(`${proxyUrl}/live/installations/${sub.installation}`, { headers, agent: false }, (res) => {
    if (res.statusCode !== 200) {
      sub.refused++
      const k = `${res.statusCode}${sub.connects ? ' (after a stream)' : ''}`
      statuses.set(k, (statuses.get(k) ?? 0) + 1)
      if (res.statusCode === 401) void renew()
      res.resume()
      const status = res.statusCode ?? 0
      const retryAfter = res.headers['retry-after']
      res.on('end', () => lost(status, retryAfter))
      return
    }
    sub.connects++
    sub.attempt = 0
    const reconnect = sub.connects > 1
    let first = true
    let prev: { epoch: string; seq: number } | null = null
    let buf = ''
    res.setEncoding('utf8')
    res.on('data', (chunk: string) => {
      buf += chunk
      for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
        const block = buf.slice(0, i)
        buf = buf.slice(i + 2)
        let id: string | null = null
        let event = ''
        for (const line of block.split('\n')) {
          if (line.startsWith('id: ')) id = line.slice(4)
          else if (line.startsWith('event: ')) event = line.slice(7)
          else if (line.startsWith('retry: ')) sub.retryMs = Number(line.slice(7))
        }
        if (!id) continue
        const [epoch, s] = id.split('.')
        const seq = Number(s)
        // Snapshots of one connect share the seq; every later event is the next one.
        if (prev && prev.epoch === epoch && !(seq === prev.seq + 1 || (seq === prev.seq && event === 'snapshot'))) sub.gaps++
        if (first && reconnect) {
          sub.resumes.push(event === 'snapshot' ? 'snapshot' : 'replay')
          if (sub.disconnectedAt) sub.recoveries.push(Date.now() - sub.disconnectedAt)
        }
        first = false
        sub.disconnectedAt = null
        prev = { epoch, seq }
        sub.lastId = id
        sub.events++
      }
    })
    res.on('error', () => {})
    res.on('close', () => lost())
  })
  req.on('error', () => {
    connectErrors++
    lost()
  })
  sub.req = req
}

// The relays' access-check queues, sampled every second: the longest queue and most
// checks upstream at once seen, and each relay's last counters (a killed relay keeps its last sample).
interface QueueSample { length: number; inFlight: number; started: number; waitS: number; waitP95S: number; refused: number; coalesced: number }
const queueSamples: { maxLength: number; maxInFlight: number; last: QueueSample | null }[] = relays.map(() => ({ maxLength: 0, maxInFlight: 0, last: null }))
async function sampleQueues(): Promise<void> {
  await Promise.all(relays.map(async (r, i) => {
    try {
      const text = await (await fetch(`${r.url}/live/metrics`, { headers: METRICS_AUTH, signal: AbortSignal.timeout(900) })).text()
      const v = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
      const s: QueueSample = {
        length: v('cockpit_relay_access_queue_length'), inFlight: v('cockpit_relay_access_checks_in_flight'), started: v('cockpit_relay_access_checks_started_total'),
        waitS: v('cockpit_relay_access_queue_wait_seconds_total'), waitP95S: v('cockpit_relay_access_queue_wait_p95_seconds'),
        refused: v('cockpit_relay_access_queue_refused_total'), coalesced: v('cockpit_relay_access_checks_coalesced_total'),
      }
      const q = queueSamples[i]
      if (Number.isFinite(s.length)) q.maxLength = Math.max(q.maxLength, s.length)
      if (Number.isFinite(s.inFlight)) q.maxInFlight = Math.max(q.maxInFlight, s.inFlight)
      q.last = s
    } catch {
      // a killed or busy relay: keep its last sample
    }
  }))
}
const sampler = setInterval(() => void sampleQueues(), 1000)
/** One line per relay; "no queue" for relays without the access queue (the before run). */
const fmtQueues = () => queueSamples.map((q, i) => {
  const l = q.last
  if (!l || !Number.isFinite(l.length)) return `relay ${i + 1}: no access queue`
  return `relay ${i + 1}: longest queue ${q.maxLength}, at most ${q.maxInFlight} upstream at once, ${l.started} checks, mean wait ${l.started ? ((l.waitS / l.started) * 1000).toFixed(0) : 0} ms, recent p95 wait ${(l.waitP95S * 1000).toFixed(0)} ms, refused 503 ${l.refused}, coalesced ${l.coalesced}`
}).join('; ')

const tConnect = Date.now()
// Paced (BENCH_CONNECT_PER_S, default 50): users arrive over time; the herd comes with the kill.
const perSecond = Number(process.env.BENCH_CONNECT_PER_S ?? 50)
for (let i = 0; i < subs.length; i += 10) {
  for (const s of subs.slice(i, i + 10)) open(s)
  await sleep(10_000 / perSecond)
}
for (const end = Date.now() + 300_000; subs.some((s) => s.events === 0) && Date.now() < end;) await sleep(200)
const connectS = (Date.now() - tConnect) / 1000
const connectChecks = quantiles(pollsIn(tConnect, Date.now()).accessDurations)
log(`${subs.filter((s) => s.events > 0).length}/${N} subscribers streaming after ${connectS.toFixed(1)} s; load ${load()}`)
await sampleQueues()
const connectQueues = fmtQueues()
log(`access queues while connecting: ${connectQueues}; Retry-After honoured ${retryAfters.length} times`)
const retryAftersConnect = retryAfters.length

// ---------------------------------------------------------------------------------------------------
// measuring

/**
 * Upstream polls per (installation, topic) logged by the proxy in [from, to) (ms), their durations (ms),
 * and the durations of the relays' access checks of joining streams.
 */
function pollsIn(from: number, to: number): { counts: Map<string, number>; durations: number[]; accessDurations: number[] } {
  const counts = new Map<string, number>()
  const durations: number[] = []
  const accessDurations: number[] = []
  for (const line of fs.readFileSync(accessLog, 'utf8').split('\n')) {
    const [atS, tookS, uri] = line.split(' ')
    const at = Number(atS) * 1000
    if (!(at >= from && at < to)) continue
    let m: RegExpExecArray | null
    let key: string | null = null
    if ((m = /^\/api\/metrics\/\?installation=(\d+)$/.exec(uri))) key = `${m[1]}:metrics`
    else if ((m = /^\/api\/cockpit\/installations\/(\d+)\/charging_stations\//.exec(uri))) key = `${m[1]}:stations`
    else if ((m = /^\/api\/rfids-charge\/\?installation=(\d+)&/.exec(uri))) key = `${m[1]}:sessions`
    else if ((m = /^\/api\/cockpit\/installations\/(\d+)\/(info|energy_return)$/.exec(uri))) key = `${m[1]}:${m[2]}`
    if (!key) {
      if (/^\/api\/cockpit\/installations\/\d+\/access$/.test(uri)) accessDurations.push(Number(tookS) * 1000)
      continue
    }
    counts.set(key, (counts.get(key) ?? 0) + 1)
    durations.push(Number(tookS) * 1000)
  }
  return { counts, durations, accessDurations }
}

/** p50 and p95 of `xs` (ms). */
function quantiles(xs: number[]) {
  const s = [...xs].sort((a, b) => a - b)
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? NaN
  return { n: s.length, p50: q(0.5), p95: q(0.95) }
}

/**
 * Polls per installation × topic × interval over a window (1.00 = one poller per installation and
 * topic, polling on time; 2 would be two relays polling the same), per topic over all installations
 * and per pair; plus the polls' durations at the proxy.
 */
function ratios(from: number, to: number) {
  const { counts, durations } = pollsIn(from, to)
  const pairs: number[] = []
  const perTopic: Record<string, number> = {}
  let total = 0
  for (const t of TOPICS) {
    const expected = (to - from) / intervals[t as Topic]
    let n = 0
    for (const id of installationIds) {
      const c = counts.get(`${id}:${t}`) ?? 0
      n += c
      pairs.push(c / Math.max(1, Math.floor(expected)))
    }
    perTopic[t] = n / (installationIds.length * expected)
    total += n
  }
  pairs.sort((a, b) => a - b)
  durations.sort((a, b) => a - b)
  const q = (p: number) => durations[Math.min(durations.length - 1, Math.floor(p * durations.length))] ?? NaN
  const mean = Object.values(perTopic).reduce((a, b) => a + b, 0) / TOPICS.length
  return { total, perSecond: total / ((to - from) / 1000), perTopic, mean, maxPair: pairs[pairs.length - 1], latency: { p50: q(0.5), p95: q(0.95) } }
}
const fmtTopics = (r: ReturnType<typeof ratios>) => TOPICS.map((t) => `${t} ${r.perTopic[t].toFixed(2)}`).join(', ')

async function relayStats(r: CockpitProcess) {
  const text = await (await fetch(`${r.url}/live/metrics`, { headers: METRICS_AUTH })).text()
  const v = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN)
  return { subscribers: v('cockpit_relay_subscribers'), installations: v('cockpit_relay_installations'), polled: v('cockpit_relay_polled_topics') }
}

const cpu = (p: CockpitProcess) => {
  const stat = fs.readFileSync(`/proc/${p.child.pid}/stat`, 'utf8').split(') ')[1].split(' ')
  return (Number(stat[11]) + Number(stat[12])) / 100
}

// Settle one slow interval, then the first window.
await sleep(Math.max(...Object.values(intervals)))
const before = await Promise.all(relays.map(relayStats))
const w1Start = Date.now()
const cpu1 = [api1, api2, ...relays].map(cpu)
await sleep(WINDOW_S * 1000)
const w1End = Date.now()
const cpu1End = [api1, api2, ...relays].map(cpu)
const w1 = ratios(w1Start, w1End)
const cpuShare = cpu1End.map((c, i) => (c - cpu1[i]) / ((w1End - w1Start) / 1000))
log(`window 1 (${proxy.kind}, both relays): polls/(installation×topic×interval) ${fmtTopics(w1)}; ${w1.perSecond.toFixed(1)} polls/s, poll p50 ${w1.latency.p50} ms p95 ${w1.latency.p95} ms; relays ${JSON.stringify(before)}`)

// Kill the relay with more streams.
const victim = before[0].subscribers >= before[1].subscribers ? 0 : 1
const survivor = relays[1 - victim]
const eventsBefore = subs.map((s) => s.events)
const gapsBefore = subs.reduce((a, s) => a + s.gaps, 0)
const killedAt = Date.now()
await relays[victim].kill('SIGKILL')
// Until every stream is back (a moved one has had an event on its new connection), at least 5 s.
for (const end = Date.now() + 180_000; Date.now() < end; await sleep(200)) {
  const down = subs.filter((s, i) => s.disconnectedAt !== null || (s.connects > 1 && s.events === eventsBefore[i])).length
  if (!down && Date.now() - killedAt > 5000) break
}
const movedSubs = subs.filter((s) => s.connects > 1)
const failoverChecks = quantiles(pollsIn(killedAt, Date.now()).accessDurations)
const failoverStatuses = [...statuses].map(([k, v]) => `${k}: ${v}`).join(', ')
const recoveries = movedSubs.flatMap((s) => s.recoveries).sort((a, b) => a - b)
const pct = (p: number) => recoveries.length ? recoveries[Math.min(recoveries.length - 1, Math.floor(p * recoveries.length))] : NaN
const after = await relayStats(survivor)
await sampleQueues()
const failoverQueues = fmtQueues()
log(`access queues after the failover (cumulative): ${failoverQueues}`)
log(`killed relay ${victim + 1} (${before[victim].subscribers} streams, ${before[victim].installations} installations): ${movedSubs.length} subscribers reconnected; next event after ${pct(0.5)} ms median, ${pct(0.95)} p95, ${recoveries.at(-1)} max; survivor ${JSON.stringify(after)}`)

// Second window, the survivor alone.
await sleep(Math.max(...Object.values(intervals)))
const w2Start = Date.now()
await sleep(WINDOW_S * 1000)
const w2 = ratios(w2Start, Date.now())
const gaps = subs.reduce((a, s) => a + s.gaps, 0)
const resumes = movedSubs.flatMap((s) => s.resumes)
const stillDown = subs.filter((s) => s.disconnectedAt !== null).length
log(`window 2 (survivor alone): ${fmtTopics(w2)}; ${w2.perSecond.toFixed(1)} polls/s, poll p50 ${w2.latency.p50} ms p95 ${w2.latency.p95} ms`)

clearInterval(sampler)
const uptimeAfter = execFileSync('uptime').toString().trim()
const f2 = (x: number) => x.toFixed(2)
const report = [
  `Scale-out check (${new Date().toISOString().slice(0, 16)} UTC, ${os.cpus().length} cores; proxy: ${proxy.kind}; Postgres cluster, 2 API processes, 2 relays)`,
  `uptime before: ${uptimeBefore}`,
  `uptime after:  ${uptimeAfter}`,
  '',
  `| figure | value |`,
  `|---|---|`,
  `| subscribers / installations | ${N} / ${installationIds.length} (all five topics; intervals ${TOPICS.map((t) => `${t} ${intervals[t]} ms`).join(', ')}) |`,
  `| all streaming after | ${connectS.toFixed(1)} s (${subs.filter((s) => s.events > 0).length} of ${N}); the relays' access check per joining stream at the API: p50 ${connectChecks.p50} ms, p95 ${connectChecks.p95} ms; answers other than 200: ${subs.reduce((a, s) => a + s.refused, 0)} (${[...statuses].map(([k, v]) => `${k}: ${v}`).join(', ') || 'no status other than 200'}; connection errors ${connectErrors}) |`,
  `| relays' access-check queues while connecting | ${connectQueues}; Retry-After given and waited out ${retryAftersConnect} times${relayDir ? ` (relays from ${relayDir})` : ''} |`,
  `| streams per relay before the kill | ${before.map((b) => b.subscribers).join(' / ')} (installations ${before.map((b) => b.installations).join(' / ')}) |`,
  `| upstream polls per installation × topic × interval, both relays (${WINDOW_S} s) | ${fmtTopics(w1)} (mean ${f2(w1.mean)}; most for one pair ${f2(w1.maxPair)}); ${w1.perSecond.toFixed(1)} polls/s in total |`,
  `| poll duration at the proxy, window 1 | p50 ${w1.latency.p50} ms, p95 ${w1.latency.p95} ms |`,
  `| CPU in window 1 (cores): api1 (+simulator), api2, relay 1, relay 2 | ${cpuShare.map(f2).join(', ')} |`,
  `| relay killed (SIGKILL) | relay ${victim + 1} with ${before[victim].subscribers} streams |`,
  `| subscribers reconnected through the proxy | ${movedSubs.length}, resumed by ${[...new Set(resumes)].map((k) => `${k} ${resumes.filter((x) => x === k).length}`).join(', ')} |`,
  `| kill → next event on the survivor | median ${pct(0.5)} ms, p95 ${pct(0.95)} ms, max ${recoveries.at(-1)} ms (relay retry hint 3 s; access checks meanwhile p50 ${failoverChecks.p50} ms, p95 ${failoverChecks.p95} ms) |`,
  `| relays' access-check queues after the failover (cumulative) | ${failoverQueues}; Retry-After waited out ${retryAfters.length} times in all (values ${retryAfters.length ? `${retryAfters.reduce((x, y) => Math.min(x, y))}–${retryAfters.reduce((x, y) => Math.max(x, y))} s` : '–'}) |`,
  `| answers other than 200 so far (all phases) | ${failoverStatuses || 'none'}; connection errors ${connectErrors} |`,
  `| event id gaps within a stream (lost events) | ${gaps} (before the kill ${gapsBefore}) |`,
  `| subscribers without a stream at the end | ${stillDown} |`,
  `| survivor after | ${after.subscribers} streams, ${after.installations} installations, ${after.polled} (installation, topic) pairs polled |`,
  `| upstream polls per installation × topic × interval, survivor alone (${WINDOW_S} s) | ${fmtTopics(w2)} (mean ${f2(w2.mean)}; most for one pair ${f2(w2.maxPair)}); ${w2.perSecond.toFixed(1)} polls/s; poll p50 ${w2.latency.p50} ms, p95 ${w2.latency.p95} ms |`,
].join('\n')
console.log(`\n${report}\n`)
// Why nginx moved streams, if it did (upstream errors are logged at warn/error).
const nginxErrors = proxy.errors?.().split('\n').filter((l) => /upstream|connect\(\)/.test(l)) ?? []
if (nginxErrors.length) console.log(`nginx upstream errors: ${nginxErrors.length}; last:\n${nginxErrors.slice(-5).join('\n')}`)
if (process.env.BENCH_REPORT) fs.writeFileSync(process.env.BENCH_REPORT, report + '\n')

for (const s of subs) {
  s.closed = true
  s.req?.destroy()
}
await cleanup()
fs.rmSync(path.dirname(accessLog), { recursive: true, force: true })
// Two pollers of one installation would show as twice the polls of a topic; one poller at most on time.
const ok = gaps === 0 && stillDown === 0 && w1.mean <= 1.1 && w2.mean <= 1.1 && movedSubs.length > 0
process.exit(ok ? 0 : 1)
