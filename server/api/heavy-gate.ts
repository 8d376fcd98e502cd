import type { FastifyInstance, RouteHandlerMethod } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { AppError } from '../lib/errors.ts'
import { HEAVY_REQUESTS_PER_USER } from '../../config/defaults.ts'
import { actorOf } from './http.ts'

/**
 * The routes whose work grows with the period asked for (docs/decisions.md "API: heavy requests per user"):
 * every statistics series (SPEC §7 /statistics/…), a report's dispatch and the charging sessions' export.
 */
const HEAVY_ROUTES = [/^\/api\/statistics\//, /\/reports\/dispatch$/, /^\/api\/rfids-charge\/export$/]

/** Whether the route at `url` (a full /api path as registered) is gated: its OpenAPI answers list 429 too. */
export const isHeavyRoute = (url: string): boolean => HEAVY_ROUTES.some((r) => r.test(url))

/**
 * A per-user limit on concurrent heavy requests in this process: `run(userId, work)` runs `work` while the
 * user has fewer than `max` running; otherwise it waits in the user's queue (first come, first served) while
 * fewer than `queued` wait (a charts page asks for a few series at once), else throws 429
 * tooManyHeavyRequests with `Retry-After: 1`. A slot is freed when `work` settles (not when the client goes
 * away: the work still runs).
 */
export function createHeavyGate(max = HEAVY_REQUESTS_PER_USER.running, queued = HEAVY_REQUESTS_PER_USER.queued) {
  const users = new Map<number, { running: number; waiting: (() => void)[] }>()
  return {
    async run<T>(userId: number, work: () => Promise<T>): Promise<T> {
      let u = users.get(userId)
      if (!u) users.set(userId, (u = { running: 0, waiting: [] }))
      if (u.running >= max) {
        if (u.waiting.length >= queued) throw new AppError(429, 'tooManyHeavyRequests', {}, { 'Retry-After': '1' })
        // The slot is handed over by the request that frees it (running stays counted).
        await new Promise<void>((r) => u.waiting.push(r))
      } else {
        u.running++
      }
      try {
        return await work()
      } finally {
        const next = u.waiting.shift()
        if (next) next()
        else if (--u.running === 0) users.delete(userId)
      }
    },
  }
}

/**
 * Wrap the handler of every heavy route registered after this call in one gate (an `onRoute` hook, so
 * register it before the routes). Unauthenticated calls pass through to the handler's own 401.
 */
export function gateHeavyRoutes(app: FastifyInstance, domain: Domain, gate = createHeavyGate()): void {
  app.addHook('onRoute', (route) => {
    if (!isHeavyRoute(route.url)) return
    const handler = route.handler as (...args: Parameters<RouteHandlerMethod>) => unknown
    route.handler = async function gated(req, reply) {
      const actor = await actorOf(domain, req)
      ;(req as typeof req & { actor?: unknown }).actor = actor
      return gate.run(actor.id, async () => handler.call(this, req, reply))
    }
  })
}
