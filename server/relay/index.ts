import type { Socket } from 'node:net'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { fastifySSE } from '@fastify/sse'
import { z } from 'zod'
import { TOPICS, type Topic } from '../../shared/live.ts'
import type { Access } from '../../shared/rules/permissions.ts'
import { RELAY } from '../../config/defaults.ts'
import { message, pickLang, type MessageKey } from '../lib/messages.ts'
import { createHub, type Hub, type LiveOut, type Subscriber } from './hub.ts'
import { createPollers, type Pollers } from './poller.ts'
import { createTickets } from './tickets.ts'
import { createUpstream, UpstreamError, type Upstream } from './upstream.ts'
import { registerRelayMetrics } from './metrics.ts'
import { metricsRoute, type Metrics } from '../lib/metrics.ts'
import { AccessQueueAbandoned, AccessQueueTimeout, createAccessQueue } from './access-queue.ts'
import { detachFromHttp } from './detach.ts'
import type { RelayLimits } from '../../config/env.ts'
import type { Clock } from '../lib/clock.ts'

export interface Relay {
  hub: Hub
  pollers: Pollers
  upstream: Upstream
}

const TicketBody = z.object({ installation_id: z.coerce.number().int().positive() })
const StreamParams = z.object({ installationId: z.coerce.number().int().positive() })
const StreamQuery = z.object({
  ticket: z.string().optional(),
  lastEventId: z.string().optional(),
  topics: z
    .string()
    .optional()
    .transform((s) => (s ? s.split(',').map((t) => t.trim()) : [...TOPICS]))
    .pipe(z.array(z.enum(TOPICS)).min(1)),
})

/**
 * The relay's core: upstream client, pollers and hub, wired together. `app.ts` creates it (so tests and
 * metrics can reach it) and registers {@link relayRoutes} with it. `clock` is the process clock
 * (ARCHITECTURE §1 "Time"): the sessions topic's "today", statuses' `since` and a stream's opening time
 * (compared with the API's sessions_valid_after) come from it; poll, sweep and re-check timers are real
 * time (docs/decisions.md "One clock: jobs and the relay's polls").
 */
export function createRelay(opts: { upstream: () => string; credentials: { email: string; password: string }; intervals: Record<Topic, number>; idleStopMs?: number; limits?: Partial<RelayLimits>; clock: Clock }): Relay & { close(): void; limits: RelayLimits; clock: Clock } {
  const limits: RelayLimits = {
    fanout: 'shared', maxStreamsPerUser: RELAY.maxStreamsPerUser, maxStreamsPerIp: RELAY.maxStreamsPerIp,
    maxBufferedBytes: RELAY.maxBufferedBytes, maxBlockedMs: RELAY.maxBlockedMs, replayMs: RELAY.replayMs, sweepMs: RELAY.sweepMs, upstreamTimeoutMs: RELAY.upstreamTimeoutMs,
    accessConcurrency: RELAY.accessConcurrency, accessMaxWaitMs: RELAY.accessMaxWaitMs,
    ...Object.fromEntries(Object.entries(opts.limits ?? {}).filter(([, v]) => v !== undefined)),
  }
  const upstream = createUpstream({ base: opts.upstream, credentials: opts.credentials, timeoutMs: limits.upstreamTimeoutMs })
  // eslint-disable-next-line prefer-const
  let hub: Hub
  // Poll cadence and delivery are real time; what is a time of day is the clock's (docs/decisions.md
  // "One clock: jobs and the relay's polls").
  const pollers = createPollers({ hub: () => hub, upstream, intervals: opts.intervals, idleStopMs: opts.idleStopMs, today: () => opts.clock.now() })
  hub = createHub({ limits, clockMs: () => opts.clock.ms(), events: { onWatch: (id, topic, watched) => pollers.watch(id, topic, watched) } })
  const sweeper = setInterval(() => hub.sweep(), limits.sweepMs)
  sweeper.unref()
  // Rights of open streams are re-checked as often as stations are polled (within one poll).
  let checking = false
  let revision: number | null = null
  const fetchAccesses = async (installationId: number, users: number[]): Promise<Access[]> => {
    const accesses: Access[] = []
    // Display links watch as user −id: asked for by their own id.
    for (let i = 0; i < users.length; i += 500) {
      hub.stats.accessChecks++
      const part = users.slice(i, i + 500)
      const displays = part.filter((u) => u < 0).map((u) => -u)
      const query = `user_ids=${part.filter((u) => u > 0).join(',')}${displays.length ? `&display_ids=${displays.join(',')}` : ''}`
      const page = await upstream.get<{ results: Access[] }>(`/cockpit/installations/${installationId}/accesses?${query}`)
      accesses.push(...page.results)
    }
    return accesses
  }
  const recheck = async () => {
    if (checking) return
    checking = true
    const joined = hub.takeJoined()
    try {
      // One cheap call per interval: all open streams are re-checked only when the API says rights
      // changed; otherwise only users who joined since the last check (their ticket may predate a
      // change). An upstream without the revision endpoint gets the full re-check every interval.
      let changed = true
      try {
        const now = (await upstream.get<{ revision: number }>('/cockpit/rights-revision')).revision
        changed = now !== revision
        revision = now
      } catch {
        revision = null
      }
      // Only the users asked about are judged: a stream that joins while the call is in flight is left
      // alone here (and checked next time as a joiner), never closed for missing from the answer.
      // Display links are re-checked every time as well: one may pass its end date (valid_until) without
      // any rights change.
      if (!changed) {
        for (const [id, users] of hub.watchers()) {
          const displays = users.filter((u) => u < 0)
          if (!displays.length) continue
          const set = joined.get(id) ?? new Set<number>()
          for (const u of displays) set.add(u)
          joined.set(id, set)
        }
      }
      const work: [number, number[], Set<number>][] = changed
        ? [...hub.watchers()].map(([id, users]) => [id, users, new Set(users)])
        : [...joined].map(([id, users]) => [id, [...users], users])
      for (const [installationId, users, only] of work) {
        try {
          hub.reassign(installationId, await fetchAccesses(installationId, users), only)
        } catch {
          // Upstream trouble: keep streams as they are and look again next time.
          revision = null
        }
      }
    } finally {
      checking = false
    }
  }
  const rechecker = setInterval(() => void recheck(), opts.intervals.stations)
  rechecker.unref()
  return {
    hub,
    pollers,
    upstream,
    limits,
    clock: opts.clock,
    close() {
      clearInterval(sweeper)
      clearInterval(rechecker)
      pollers.stopAll()
      hub.closeAll()
    },
  }
}

/**
 * The relay's routes (ARCHITECTURE §5): POST /live/tickets and the SSE stream
 * GET /live/installations/:installationId (access is checked with the API using the caller's own
 * token), and GET /live/metrics, the process's Prometheus text like GET /metrics (server/lib/metrics.ts:
 * Bearer `metricsToken`, METRICS_TOKEN; 404 without one, docs/decisions.md "Metrics: a token"). The
 * relay's figures go into `metrics`, the process's one registry.
 */
export async function relayRoutes(app: FastifyInstance, { relay, metrics, metricsToken }: { relay: Relay & { close(): void; limits: RelayLimits; clock: Clock }; metrics: Metrics; metricsToken?: string }) {
  const { hub, upstream, limits } = relay
  const tickets = createTickets()
  const accessQueue = createAccessQueue({ concurrency: limits.accessConcurrency, maxWaitMs: limits.accessMaxWaitMs })
  registerRelayMetrics(metrics.registry, hub, relay.pollers, accessQueue)
  const perUser = new Map<number, number>()
  const perIp = new Map<string, number>()
  const bump = <K>(m: Map<K, number>, k: K, d: number) => {
    const n = (m.get(k) ?? 0) + d
    if (n > 0) m.set(k, n)
    else m.delete(k)
  }
  // Streams never end by themselves: close them before the server waits for open connections.
  app.addHook('preClose', async () => relay.close())
  await app.register(fastifySSE, { heartbeatInterval: 0 })

  type Refusal = { status: number; body: unknown; retryAfterS?: number }
  const fail = (status: number, key: MessageKey, lang: string | undefined, retryAfterS?: number): Refusal => ({ status, body: { detail: message(key, pickLang(lang)) }, retryAfterS })
  const refuse = (reply: FastifyReply, r: Refusal) => {
    if (r.retryAfterS !== undefined) reply.header('Retry-After', String(r.retryAfterS))
    return reply.code(r.status).send(r.body)
  }

  /**
   * The caller's Access from the API, with their token; API errors are passed on as they are. Checks
   * go through the access queue: bounded, in arrival order, identical ones in flight
   * shared; one queued too long is a 503 with Retry-After.
   */
  async function accessOf(authorization: string | undefined, installationId: number, lang: string | undefined, reply: FastifyReply): Promise<Access | Refusal> {
    if (!authorization?.startsWith('Bearer ')) return fail(401, 'notAuthenticated', lang)
    // A caller that hangs up while queued (a client's ticket timeout) needs no check any more.
    const gone = new AbortController()
    reply.raw.once('close', () => gone.abort())
    try {
      const key = `${authorization}\n${installationId}\n${lang ?? ''}`
      const access = await accessQueue.run(key, () => upstream.asUser<Access>(authorization, `/cockpit/installations/${installationId}/access`, lang), gone.signal)
      // Callers that shared one check each get their own copy.
      return structuredClone(access)
    } catch (err) {
      if (err instanceof AccessQueueTimeout) return fail(503, 'upstreamUnavailable', lang, err.retryAfterS)
      if (err instanceof AccessQueueAbandoned) return fail(503, 'upstreamUnavailable', lang)
      const status = err instanceof UpstreamError ? err.status : 0
      if (status === 401 || status === 403 || status === 404) return fail(status, status === 401 ? 'tokenInvalid' : status === 403 ? 'forbidden' : 'notFound', lang)
      return fail(503, 'upstreamUnavailable', lang)
    }
  }

  metricsRoute(app, { path: '/live/metrics', metrics, token: metricsToken })

  app.post('/live/tickets', async (req, reply) => {
    const parsed = TicketBody.safeParse(req.body ?? {})
    if (!parsed.success) return reply.code(400).send({ installation_id: [message('required', pickLang(req.headers['accept-language']))] })
    const access = await accessOf(req.headers.authorization, parsed.data.installation_id, req.headers['accept-language'], reply)
    if ('status' in access) return refuse(reply, access)
    return reply.code(201).header('Cache-Control', 'no-store').send({ ticket: tickets.issue(access), expires_in: RELAY.ticketTtlSeconds })
  })

  // Shared fan-out writes to the socket itself (see openStream); the naive benchmark design uses the plugin.
  const naive = limits.fanout === 'naive'
  app.get('/live/installations/:installationId', naive ? { sse: { kind: 'manual', heartbeat: false } } : {}, async (req, reply) => {
    const lang = req.headers['accept-language']
    const params = StreamParams.safeParse(req.params)
    const query = StreamQuery.safeParse(req.query)
    if (!params.success || !query.success) return reply.code(400).send({ detail: message('invalidValue', pickLang(lang)) })
    const installationId = params.data.installationId
    let access: Access | null
    if (query.data.ticket) {
      access = tickets.redeem(query.data.ticket, installationId)
      if (!access) return reply.code(401).send({ detail: message('ticketInvalid', pickLang(lang)) })
    } else {
      const a = await accessOf(req.headers.authorization, installationId, lang, reply)
      if ('status' in a) return refuse(reply, a)
      access = a
    }
    // Caps per user and per IP: a runaway client or script cannot exhaust the relay.
    if ((perUser.get(access.user_id) ?? 0) >= limits.maxStreamsPerUser || (perIp.get(req.ip) ?? 0) >= limits.maxStreamsPerIp) {
      return reply.code(429).header('Retry-After', '30').send({ detail: message('tooManyStreams', pickLang(lang)) })
    }
    const userId = access.user_id
    const ip = req.ip
    bump(perUser, userId, 1)
    bump(perIp, ip, 1)
    const header = req.headers['last-event-id']
    const lastEventId = (typeof header === 'string' && header) || query.data.lastEventId || null
    const stream = naive ? openPluginStream(reply) : openStream(req.raw.socket, reply)
    const sub: Subscriber = { res: stream.out, installationId, userId, connectedAt: relay.clock.ms(), topics: new Set(query.data.topics), lastWrite: 0, blockedSince: 0, send: stream.send }
    stream.onClose(() => {
      bump(perUser, userId, -1)
      bump(perIp, ip, -1)
      hub.unsubscribe(sub)
    })
    hub.subscribe(sub, access, lastEventId)
  })
}

/** An open stream as the route hands it to the hub: where bytes go, its close, and (naive) the plugin's send. */
interface OpenStream {
  out: LiveOut
  onClose(fn: () => void): void
  send?: Subscriber['send']
}

const SSE_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no', connection: 'close' }

/**
 * Take the connection over for a stream: write the response head on the socket and hand the
 * socket itself to the hub. Events are then single socket writes of the shared frames: no chunked
 * encoding (the body ends when the connection closes, hence `Connection: close`), no per-write work in
 * the HTTP layer, and none of its per-connection state kept (detach.ts). Headers set on the reply so
 * far (hooks) are kept.
 */
function openStream(socket: Socket, reply: FastifyReply): OpenStream {
  const headers: Record<string, unknown> = { ...reply.getHeaders(), ...SSE_HEADERS }
  reply.hijack()
  let head = 'HTTP/1.1 200 OK\r\n'
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue
    for (const v of Array.isArray(value) ? value : [value]) head += `${name}: ${String(v)}\r\n`
  }
  // No Nagle delay: an event is written in one piece and should leave at once.
  socket.setNoDelay(true)
  socket.write(head + '\r\n')
  // The stream owns the socket from here: errors end in 'close'; node:http's request state is released
  // once the parser has returned (detach.ts), after which the client's FIN must be seen and answered here.
  socket.on('error', () => socket.destroy())
  setImmediate(() => {
    if (socket.destroyed || !detachFromHttp(socket)) return
    socket.on('end', () => socket.destroy())
    socket.on('data', () => {})
  })
  return { out: socket, onClose: (fn) => socket.once('close', fn) }
}

/** The naive benchmark design: the plugin's response and its per-subscriber `send`, which serializes each event. */
function openPluginStream(reply: FastifyReply): OpenStream {
  reply.header('Cache-Control', 'no-store')
  reply.header('X-Accel-Buffering', 'no')
  reply.sse.keepAlive()
  reply.sse.sendHeaders(200)
  reply.raw.socket?.setNoDelay(true)
  const sse = reply.sse
  return { out: reply.raw, onClose: (fn) => reply.sse.onClose(fn), send: (msg) => sse.send(msg) }
}
