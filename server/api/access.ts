import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { superusersOnly } from './openapi.ts'
import type { Domain } from '../domain/index.ts'
import { Id, IdNumber } from '../../shared/schemas/common.ts'
import { Access } from '../../shared/schemas/installation.ts'
import { actorOf } from './http.ts'

const UserIds = z.object({
  user_ids: z
    .string()
    .default('')
    .transform((s) => s.split(',').filter(Boolean).map(Number))
    .pipe(z.array(IdNumber).max(1000))
    .describe('Comma-separated user ids'),
  display_ids: z
    .string()
    .default('')
    .transform((s) => s.split(',').filter(Boolean).map(Number))
    .pipe(z.array(IdNumber).max(1000))
    .describe('Comma-separated display link ids; their Access carries user_id = −id'),
})

/**
 * GET /api/cockpit/installations/{id}/accesses?user_ids=1,2: the resolved rights of several users, for
 * the relay's re-check of open streams (superusers only). Not in SPEC §7: see docs/decisions.md.
 */
export function accessRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  // The relay polls this and re-checks open streams only when it changed (docs/decisions.md).
  app.get('/cockpit/rights-revision', { schema: { summary: 'A number that changes whenever rights change (superusers; the relay polls it)', security: superusersOnly, response: { 200: z.object({ revision: z.number().int() }) } } }, async (req) =>
    domain.installations.rightsRevision(await actorOf(domain, req)),
  )
  app.get(
    '/cockpit/installations/:installationId/accesses',
    { schema: { summary: 'The resolved rights of several users (superusers; the relay)', security: superusersOnly, params: z.object({ installationId: Id }), querystring: UserIds, response: { 200: z.object({ results: z.array(Access) }) } } },
    async (req) => {
      const actor = await actorOf(domain, req)
      const users = await domain.installations.accessOfUsers(actor, req.params.installationId, req.query.user_ids)
      return { results: [...users, ...(await domain.displays.accessOf(actor, req.params.installationId, req.query.display_ids))] }
    },
  )
}
