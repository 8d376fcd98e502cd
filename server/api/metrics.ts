import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { DateTime, Page } from '../../shared/schemas/common.ts'
import { Metrics } from '../../shared/schemas/metrics.ts'
import { ChargingSession, SESSION_STATUSES, SessionQuery, SessionTotals } from '../../shared/schemas/session.ts'
import { actorOf, installationIdOf } from './http.ts'
import { InstallationScope } from './openapi.ts'

/** GET /metrics/ and GET /rfids-charge/ (installation from the installation-id header or query). */
export function liveDataRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/metrics/', { schema: { summary: "The installation's live power flow", querystring: InstallationScope, response: { 200: Metrics } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.metrics.live(actor, installationIdOf(req))
  })
  app.get(
    '/rfids-charge/',
    {
      schema: {
        summary: 'Charging sessions of the installation, running first, then newest first, with the totals of the period',
        // status=held: the sessions waiting for an admin's review (Charging sessions → Review).
        querystring: SessionQuery.extend({ active_since: DateTime.optional(), status: z.enum(SESSION_STATUSES).optional(), ...InstallationScope.shape }),
        response: { 200: Page(ChargingSession).extend({ totals: SessionTotals }) },
      },
    },
    async (req) => {
      const actor = await actorOf(domain, req)
      return domain.sessions.list(actor, installationIdOf(req), req.query)
    },
  )
}
