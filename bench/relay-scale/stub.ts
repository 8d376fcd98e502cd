/**
 * Stub upstream API for the relay-scale benchmark (a child process of run.ts, plain node:http on
 * 127.0.0.1): sign-in, per-subscriber access (and the relay's re-check of it: rights revision and bulk
 * access), and the five live topic paths of shared/live.ts with
 * payloads from sim.ts that change on every poll. Counts requests and body bytes per pathname; run.ts
 * reads the counters over IPC. Answers from memory, at once.
 *
 * IPC in:  {type:'counters'}  → {type:'counters', paths};  {type:'users', users} → {type:'users'}
 * IPC out: {type:'ready', port} once listening.
 * Env: BENCH_SPEED (simulated seconds per real second), BENCH_PROFILES (permission profiles).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { topicPath, type Topic } from '../../shared/live.ts'
import { accessFor, exitWithParent, TOPICS, userOf, type StubCounters } from './common.ts'
import { createSimulation, STATION_COUNT } from './sim.ts'

if (!process.send) {
  console.error('stub.ts is started by bench/relay-scale/run.ts')
  process.exit(2)
}
exitWithParent()

const speed = Number(process.env.BENCH_SPEED ?? 5)
const profiles = Number(process.env.BENCH_PROFILES ?? 1)
const sim = createSimulation({ speed })

/** Pathname (under /api) → topic, from the relay's own table. */
const topicOf = new Map<string, Topic>(TOPICS.map((t) => [`/api${topicPath(t, 1, new Date()).split('?')[0]}`, t]))
const counters: StubCounters = { paths: {} }
let tokenSeq = 0
/** Distinct users among the subscribers (0: one per subscriber); run.ts sets it per run. */
let users = 0

function body(topic: Topic): unknown {
  switch (topic) {
    case 'metrics':
      return sim.metrics()
    case 'stations':
      return sim.stations()
    case 'sessions':
      return sim.sessions()
    case 'info':
      return sim.info()
    case 'energy_return':
      return sim.energyReturn()
  }
}

function send(res: http.ServerResponse, pathname: string, status: number, value: unknown): void {
  const text = JSON.stringify(value)
  const c = (counters.paths[pathname] ??= { requests: 0, bytes: 0 })
  c.requests++
  c.bytes += Buffer.byteLength(text)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

const server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
  const pathname = (req.url ?? '/').split('?')[0]
  // Request bodies (sign-in) are not needed: drain them and answer.
  req.resume()
  req.on('end', () => {
    if (req.method === 'POST' && pathname === '/api/authentication/token/') {
      return send(res, pathname, 200, { access: `relay-access-${++tokenSeq}`, refresh: `relay-refresh-${tokenSeq}`, installation_id: 1 })
    }
    if (req.method === 'POST' && pathname === '/api/authentication/token/refresh/') {
      return send(res, pathname, 200, { access: `relay-access-${++tokenSeq}`, refresh: `relay-refresh-${tokenSeq}` })
    }
    if (req.method !== 'GET') return send(res, pathname, 405, { detail: 'method not allowed' })
    const auth = req.headers.authorization
    if (!auth?.startsWith('Bearer ')) return send(res, pathname, 401, { detail: 'not authenticated' })
    if (pathname === '/api/cockpit/installations/1/access') {
      const k = Number(/^Bearer sub-(\d+)$/.exec(auth)?.[1] ?? 0)
      return send(res, pathname, 200, accessFor(userOf(k, users), profiles, STATION_COUNT))
    }
    if (pathname === '/api/cockpit/rights-revision') {
      // Rights never change during the benchmark: the relay re-checks only users who just joined.
      return send(res, pathname, 200, { revision: 1 })
    }
    if (pathname === '/api/cockpit/installations/1/accesses') {
      // The relay's re-check of open streams: the rights of up to 1000 users at once.
      const ids = (new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('user_ids') ?? '').split(',').filter(Boolean).map(Number)
      return send(res, pathname, 200, { results: ids.map((id) => accessFor(id, profiles, STATION_COUNT)) })
    }
    const topic = topicOf.get(pathname)
    if (topic) return send(res, pathname, 200, body(topic))
    return send(res, pathname, 404, { detail: 'not found' })
  })
})
server.maxRequestsPerSocket = 0
server.headersTimeout = 10_000

process.on('message', (m: { type: string }) => {
  if (m.type === 'counters') process.send!({ type: 'counters', paths: counters.paths })
  else if (m.type === 'users') {
    users = (m as unknown as { users: number }).users
    process.send!({ type: 'users' })
  }
})

server.listen(0, '127.0.0.1', () => process.send!({ type: 'ready', port: (server.address() as AddressInfo).port }))
