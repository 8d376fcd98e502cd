import type { FastifyInstance } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { actorOf, installationIdOf } from './http.ts'

/** GET /api/electricity-tariff/?installation=N (SPEC §7): the Pricing screen's tariff in force. */
export function tariffRoutes(app: FastifyInstance, domain: Domain) {
  app.get('/electricity-tariff/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.pricing.current(actor, installationIdOf(req))
  })
}
