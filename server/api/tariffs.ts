import type { FastifyInstance } from 'fastify'
import type { Domain } from '../domain/index.ts'
import { PricingUpdate } from '../../shared/schemas/pricing.ts'
import { actorOf, installationIdOf, parse } from './http.ts'

/**
 * The charging tariff (SPEC §7, issue 12 §4): GET /api/electricity-tariff/?installation=N the version in
 * force (any role), GET /api/electricity-tariff/versions/?installation=N every version newest first,
 * PUT /api/electricity-tariff/?installation=N (admins; the GET's shape) a version from a day after today.
 */
export function tariffRoutes(app: FastifyInstance, domain: Domain) {
  app.get('/electricity-tariff/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.pricing.current(actor, installationIdOf(req))
  })
  app.get('/electricity-tariff/versions/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.pricing.versions(actor, installationIdOf(req))
  })
  app.put('/electricity-tariff/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.pricing.save(actor, installationIdOf(req), parse(PricingUpdate, req.body))
  })
}
