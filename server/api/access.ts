import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { actorOf, parse } from './http.ts'

const UserIds = z.object({
  user_ids: z
    .string()
    .default('')
    .transform((s) => s.split(',').filter(Boolean).map(Number))
    .pipe(z.array(z.number().int().positive()).max(1000)),
})

/**
 * GET /api/cockpit/installations/{id}/accesses?user_ids=1,2: the resolved rights of several users, for
 * the relay's re-check of open streams (superusers only). Not in SPEC §7: see docs/decisions.md.
 */
export function accessRoutes(app: FastifyInstance, domain: Domain) {
  // The relay polls this and re-checks open streams only when it changed (docs/decisions.md).
  app.get('/cockpit/rights-revision', async (req) => domain.installations.rightsRevision(await actorOf(domain, req)))
  app.get('/cockpit/installations/:installationId/accesses', async (req) => {
    const { installationId } = parse(z.object({ installationId: Id }), req.params)
    const { user_ids } = parse(UserIds, req.query)
    return { results: await domain.installations.accessOfUsers(await actorOf(domain, req), installationId, user_ids) }
  })
}
