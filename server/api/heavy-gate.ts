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

/**
 * A per-user limit on concurrent heavy requests in this process: `run(userId, work)` runs `work` while the
 * user has fewer than `max` running, else throws 429 tooManyHeavyRequests with `Retry-After: 1`. The slot is
 * freed when `work` settles (not when the client goes away: the work still runs).
 */
export function createHeavyGate(max = HEAVY_REQUESTS_PER_USER) {
  const running = new Map<number, number>()
  return {
    async run<T>(userId: number, work: () => Promise<T>): Promise<T> {
      const n = running.get(userId) ?? 0
      if (n >= max) throw new AppError(429, 'tooManyHeavyRequests', {}, { 'Retry-After': '1' })
      running.set(userId, n + 1)
      try {
        return await work()
      } finally {
        const left = (running.get(userId) ?? 1) - 1
        if (left > 0) running.set(userId, left)
        else running.delete(userId)
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
    if (!HEAVY_ROUTES.some((r) => r.test(route.url))) return
    const handler = route.handler as (...args: Parameters<RouteHandlerMethod>) => unknown
    route.handler = async function gated(req, reply) {
      const actor = await actorOf(domain, req)
      ;(req as typeof req & { actor?: unknown }).actor = actor
      return gate.run(actor.id, async () => handler.call(this, req, reply))
    }
  })
}
