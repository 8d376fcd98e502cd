import type { FastifyInstance } from 'fastify'
import { fastifySSE } from '@fastify/sse'
import { z } from 'zod'
import { TOPICS, type Topic } from '../../shared/live.ts'
import type { Access } from '../../shared/rules/permissions.ts'
import { RELAY } from '../../config/defaults.ts'
import { message, pickLang, type MessageKey } from '../lib/messages.ts'
import { createHub, type Hub, type Subscriber } from './hub.ts'
import { createPollers, type Pollers } from './poller.ts'
import { createTickets } from './tickets.ts'
import { createUpstream, UpstreamError, type Upstream } from './upstream.ts'

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
 * metrics can reach it) and registers {@link relayRoutes} with it.
 */
export function createRelay(opts: { upstream: () => string; credentials: { email: string; password: string }; intervals: Record<Topic, number>; idleStopMs?: number }): Relay & { close(): void } {
  const upstream = createUpstream({ base: opts.upstream, credentials: opts.credentials })
  // eslint-disable-next-line prefer-const
  let hub: Hub
  const pollers = createPollers({ hub: () => hub, upstream, intervals: opts.intervals, idleStopMs: opts.idleStopMs })
  hub = createHub({ events: { onWatch: (id, topic, watched) => pollers.watch(id, topic, watched) } })
  const sweeper = setInterval(() => hub.sweep(), 5_000)
  sweeper.unref()
  return {
    hub,
    pollers,
    upstream,
    close() {
      clearInterval(sweeper)
      pollers.stopAll()
      hub.closeAll()
    },
  }
}

/**
 * The relay's HTTP surface (ARCHITECTURE §5): POST /live/tickets and the SSE stream
 * GET /live/installations/:installationId. Access is checked with the API using the caller's own token.
 */
export async function relayRoutes(app: FastifyInstance, { relay }: { relay: Relay & { close(): void } }) {
  const { hub, upstream } = relay
  const tickets = createTickets()
  // Streams never end by themselves: close them before the server waits for open connections.
  app.addHook('preClose', async () => relay.close())
  await app.register(fastifySSE, { heartbeatInterval: 0 })

  const fail = (status: number, key: MessageKey, lang: string | undefined) => ({ status, body: { detail: message(key, pickLang(lang)) } })

  /** The caller's Access from the API, with their token; API errors are passed on as they are. */
  async function accessOf(authorization: string | undefined, installationId: number, lang: string | undefined): Promise<Access | { status: number; body: unknown }> {
    if (!authorization?.startsWith('Bearer ')) return fail(401, 'notAuthenticated', lang)
    try {
      return await upstream.asUser<Access>(authorization, `/cockpit/installations/${installationId}/access`, lang)
    } catch (err) {
      const status = err instanceof UpstreamError ? err.status : 0
      if (status === 401 || status === 403 || status === 404) return fail(status, status === 401 ? 'tokenInvalid' : status === 403 ? 'forbidden' : 'notFound', lang)
      return fail(503, 'upstreamUnavailable', lang)
    }
  }

  app.post('/live/tickets', async (req, reply) => {
    const parsed = TicketBody.safeParse(req.body ?? {})
    if (!parsed.success) return reply.code(400).send({ installation_id: [message('required', pickLang(req.headers['accept-language']))] })
    const access = await accessOf(req.headers.authorization, parsed.data.installation_id, req.headers['accept-language'])
    if ('status' in access) return reply.code(access.status).send(access.body)
    return reply.code(201).header('Cache-Control', 'no-store').send({ ticket: tickets.issue(access), expires_in: RELAY.ticketTtlSeconds })
  })

  app.get('/live/installations/:installationId', { sse: { kind: 'manual', heartbeat: false } }, async (req, reply) => {
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
      const a = await accessOf(req.headers.authorization, installationId, lang)
      if ('status' in a) return reply.code(a.status).send(a.body)
      access = a
    }
    reply.header('Cache-Control', 'no-store')
    reply.header('X-Accel-Buffering', 'no')
    reply.sse.keepAlive()
    reply.sse.sendHeaders(200)
    const sub: Subscriber = { res: reply.raw, installationId, topics: new Set(query.data.topics), lastWrite: Date.now() }
    reply.sse.onClose(() => hub.unsubscribe(sub))
    hub.subscribe(sub, access, reply.sse.lastEventId ?? query.data.lastEventId ?? null)
  })
}

