import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { PricingSchema, PricingUpdate } from '../../shared/schemas/pricing.ts'
import { actorOf, installationIdOf } from './http.ts'
import { InstallationScope } from './openapi.ts'

/**
 * The charging tariff (SPEC §7): GET /api/electricity-tariff/?installation=N the version in
 * force (any role), GET /api/electricity-tariff/versions/?installation=N every version newest first,
 * PUT /api/electricity-tariff/?installation=N (admins; the GET's shape) a version from a day after today.
 */
export function tariffRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/electricity-tariff/', { schema: { summary: 'The electricity tariff in force today', querystring: InstallationScope, response: { 200: PricingSchema } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.pricing.current(actor, installationIdOf(req))
  })
  app.get('/electricity-tariff/versions/', { schema: { summary: 'Every tariff version, newest first', querystring: InstallationScope, response: { 200: z.array(PricingSchema) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.pricing.versions(actor, installationIdOf(req))
  })
  app.put(
    '/electricity-tariff/',
    { schema: { summary: 'Add or replace a tariff version from a day after today (admins)', querystring: InstallationScope, body: PricingUpdate, response: { 200: PricingSchema } } },
    async (req) => {
      const actor = await actorOf(domain, req)
      return domain.pricing.save(actor, installationIdOf(req), req.body)
    },
  )
}
