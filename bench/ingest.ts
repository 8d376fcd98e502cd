/**
 * Ingestion at operator scale (README "Real meters: the ingestion API"): N installations × 20 meters,
 * each installation's gateway sending one batch of its 20 meters' energy registers every 5 s to
 * POST /api/ingest/v1/readings (20 readings per batch, N × 4 readings/s), for a while. Prints the
 * requests' p50/p99/max latency, the readings accepted, refusals and the process's memory at start and end.
 * The server (roles api) runs in this process on an embedded PGlite, or on Postgres with DATABASE_URL; the
 * load generator shares the process (and its two cores), so the figures are an upper bound.
 * With the relay in the same process (roles api and relay, as in the single-process deployment), SUBSCRIBERS
 * (env, 20 by default; 0 for the API alone) installations each have one open live stream (topic metrics), so
 * the relay polls them on its beat while the batches arrive; it prints how many events reached them and the
 * time from an installation's latest 202 to the next event of its stream (this includes the relay's poll
 * interval, ARCHITECTURE §5: up to 5 s).
 * Usage: npm run bench:ingest [-- INSTALLATIONS [SECONDS]]   (200 and 600 by default; `-- 20 60` for a short run)
 */
import type { AddressInfo } from 'node:net'
import { buildApp } from '../server/app.ts'
import { loadConfig } from '../config/env.ts'
import { createClock } from '../server/lib/clock.ts'

const INSTALLATIONS = Number(process.argv[2] ?? 200)
const SECONDS = Number(process.argv[3] ?? 600)
const METERS = 20
const INTERVAL_MS = 5000
const TYPES = ['main_power', 'pv', 'battery', 'power'] as const
const SUBSCRIBERS = Math.min(INSTALLATIONS, Number(process.env.SUBSCRIBERS ?? 20))

const clock = createClock({})
const app = await buildApp({ ...loadConfig({}), roles: SUBSCRIBERS > 0 ? ['api', 'relay'] : ['api'], port: 0, host: '127.0.0.1', dataDir: '/nonexistent', memoryDb: !process.env.DATABASE_URL, databaseUrl: process.env.DATABASE_URL, demo: false, logLevel: 'silent', clock })
await app.listen({ port: 0, host: '127.0.0.1' })
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
const domain = app.domain!
const db = domain.db

// N installations with a building and 20 meters each, and a device key made by the key service as
// a superuser.
const t0 = performance.now()
const { hashPassword } = await import('../server/domain/auth/passwords.ts')
const operator = await db.insertInto('users').values({ email: 'bench@example.com', password_hash: await hashPassword('bench-password-1'), first_name: 'Bench', last_name: '', title: null, is_superuser: true, is_active: true, deactivation_datetime: null, ietf_lang_tag: 'en', last_login: null, previous_login: null }).returning('id').executeTakeFirstOrThrow()
const sites: { id: number; key: string; meters: number[]; registers: number[]; answeredAt: number }[] = []
for (let n = 0; n < INSTALLATIONS; n++) {
  const inst = await db.insertInto('installations').values({ name: `Bench ${n}`, timezone: 'Europe/Zurich', currency: 'CHF', latitude: 47.37, longitude: 8.54, pay_enabled: false, online: true, offline_since: null, alerts: '[]' }).returning('id').executeTakeFirstOrThrow()
  const building = await db.insertInto('objects').values({ installation_id: inst.id, parent_object_id: null, description: 'Building', object_type: 'building' }).returning('id').executeTakeFirstOrThrow()
  const meters = await db.insertInto('meters').values(Array.from({ length: METERS }, (_, i) => ({ installation_id: inst.id, object_id: building.id, meter_type: TYPES[i % TYPES.length], name: `Meter ${i}`, capacity: null, serial: `B${n}-${i}`, source: 'ingest' as const }))).returning('id').execute()
  const key = await domain.deviceKeys.create({ id: operator.id, is_superuser: true } as never, inst.id, 'Bench gateway')
  sites.push({ id: inst.id, key: key.key, meters: meters.map((m) => m.id), registers: meters.map(() => 1000), answeredAt: 0 })
}

// Live streams of the first SUBSCRIBERS installations, as the superuser (read as raw SSE text).
const events = { count: 0, lags: [] as number[] }
const streams: AbortController[] = []
if (SUBSCRIBERS > 0) {
  const { access } = await domain.auth.login('bench@example.com', 'bench-password-1', { ip: '127.0.0.1' })
  for (const site of sites.slice(0, SUBSCRIBERS)) {
    const abort = new AbortController()
    streams.push(abort)
    const r = await fetch(`${base}/live/installations/${site.id}?topics=metrics`, { headers: { authorization: `Bearer ${access}`, accept: 'text/event-stream' }, signal: abort.signal })
    if (r.status !== 200 || !r.body) throw new Error(`live stream of installation ${site.id}: ${r.status}`)
    void (async () => {
      const decoder = new TextDecoder()
      try {
        for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
          const text = decoder.decode(chunk, { stream: true })
          for (const line of text.split('\n')) {
            if (!line.startsWith('event: ') || line === 'event: heartbeat') continue
            events.count++
            if (site.answeredAt > 0) events.lags.push(performance.now() - site.answeredAt)
            site.answeredAt = 0
          }
        }
      } catch {
        // aborted at the end
      }
    })()
  }
}
console.log(`${INSTALLATIONS} installations × ${METERS} meters set up in ${((performance.now() - t0) / 1000).toFixed(1)} s; sending every ${INTERVAL_MS / 1000} s for ${SECONDS} s (${(INSTALLATIONS * METERS * 1000 / INTERVAL_MS).toFixed(0)} readings/s) on ${process.env.DATABASE_URL ? 'Postgres' : 'PGlite'}`)

const latencies: number[] = []
let accepted = 0
let rejected = 0
let failed = 0
const mb = () => Math.round(process.memoryUsage().rss / 1048576)
const memStart = mb()
const memSamples: number[] = []

async function send(site: (typeof sites)[number]): Promise<void> {
  const timestamp = clock.now().toISOString()
  // A few kWh per hour per meter: 5 s of 0.5 to 5 kW.
  const readings = site.meters.map((meter_id, i) => ({ meter_id, timestamp, measurand: 'Energy.Active.Import.Register', unit: 'kWh', value: (site.registers[i] += 0.0007 + (i % 7) * 0.001) }))
  const started = performance.now()
  try {
    const r = await fetch(`${base}/api/ingest/v1/readings`, { method: 'POST', headers: { authorization: `Bearer ${site.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ readings }) })
    const body = (await r.json()) as { accepted: number; rejected: unknown[] }
    if (r.status !== 202) failed++
    else {
      accepted += body.accepted
      rejected += body.rejected.length
      if (site.answeredAt === 0) site.answeredAt = performance.now()
    }
  } catch {
    failed++
  }
  latencies.push(performance.now() - started)
}

// Each installation on its own 5-second beat, spread over the interval.
const end = performance.now() + SECONDS * 1000
const inFlight = new Set<Promise<void>>()
await new Promise<void>((done) => {
  sites.forEach((site, n) => {
    setTimeout(function beat() {
      if (performance.now() >= end) return
      const p = send(site).finally(() => inFlight.delete(p))
      inFlight.add(p)
      setTimeout(beat, INTERVAL_MS)
    }, (n * INTERVAL_MS) / INSTALLATIONS)
  })
  const sampler = setInterval(() => memSamples.push(mb()), 10_000)
  setTimeout(() => {
    clearInterval(sampler)
    done()
  }, SECONDS * 1000 + 100)
})
await Promise.all(inFlight)

const sorted = latencies.sort((a, b) => a - b)
const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]?.toFixed(0) ?? '-'
console.log(`requests: ${sorted.length} (${failed} failed); readings accepted ${accepted}, refused ${rejected}`)
console.log(`ingestion latency: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${sorted.at(-1)?.toFixed(0) ?? '-'} ms (target p99 ≤ 200 ms)`)
console.log(`memory (rss): ${memStart} MB at start, ${mb()} MB at end; every 10 s: ${memSamples.join(' ')}`)
if (SUBSCRIBERS > 0) {
  const lags = events.lags.sort((a, b) => a - b)
  const lq = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))]?.toFixed(0) ?? '-'
  console.log(`live streams: ${SUBSCRIBERS}, events ${events.count}; 202 → next event of the stream: p50 ${lq(0.5)} ms, p99 ${lq(0.99)} ms, max ${lags.at(-1)?.toFixed(0) ?? '-'} ms (includes the relay's poll interval)`)
}
for (const s of streams) s.abort()
await app.close()
