import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { ZevSettingsSchema } from '../../shared/schemas/zev.ts'
import { actorOf, installationIdOf } from './http.ts'
import { InstallationScope } from './openapi.ts'

/**
 * The ZEV billing model (EnV Art. 16): GET /api/zev/settings/?installation=N (any role) and
 * PUT (admins; the GET's shape): `flat_rate` at `flat_percent` % (≤ 80) of the external standard product,
 * or `actual_costs` less feed-in revenue, capped at the standard product.
 */
// The body is checked by the service, so a wrong model or percentage gets its SPEC §5-style message.
const ZevSettingsBody = z.object({ model: z.string().max(40), flat_percent: z.number() })

export function zevRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/zev/settings/', { schema: { summary: 'The ZEV billing model of the installation', querystring: InstallationScope, response: { 200: ZevSettingsSchema } } }, async (req) =>
    domain.zev.settings(await actorOf(domain, req), installationIdOf(req)),
  )
  app.put('/zev/settings/', { schema: { summary: 'Set the ZEV billing model (admins)', querystring: InstallationScope, body: ZevSettingsBody, response: { 200: ZevSettingsSchema } } }, async (req) =>
    domain.zev.save(await actorOf(domain, req), installationIdOf(req), req.body),
  )
}
