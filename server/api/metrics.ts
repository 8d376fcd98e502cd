import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { SessionQuery } from '../../shared/schemas/session.ts'
import { actorOf, installationIdOf, parse } from './http.ts'

/** GET /metrics/ and GET /rfids-charge/ (installation from the installation-id header or query). */
export function liveDataRoutes(app: FastifyInstance, domain: Domain) {
  app.get('/metrics/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.metrics.live(actor, installationIdOf(req))
  })
  app.get('/rfids-charge/', async (req) => {
    const actor = await actorOf(domain, req)
    const q = parse(SessionQuery.extend({ active_since: z.iso.datetime({ offset: true }).optional(), installation: z.string().optional() }), req.query)
    return domain.sessions.list(actor, installationIdOf(req), q)
  })
}
