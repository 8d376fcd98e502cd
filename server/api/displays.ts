import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { Display, DisplayCreate, DisplayCreated, DisplaySelf } from '../../shared/schemas/display.ts'
import { actorOf } from './http.ts'
import { displaysOnly, NoContent } from './openapi.ts'

const InstallationParams = z.object({ installationId: Id })
const DisplayParams = z.object({ installationId: Id, displayId: Id })

/**
 * Display links (not in SPEC §7, see docs/decisions.md): admins of the installation create,
 * list and revoke them; a display presents its key as the bearer and reads GET /api/display/.
 */
export function displayRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId/displays'
  app.get(`${base}/`, { schema: { summary: 'Display links of the installation (admins; keys are never listed)', params: InstallationParams, response: { 200: z.object({ results: z.array(Display) }) } } }, async (req) =>
    ({ results: await domain.displays.list(await actorOf(domain, req), req.params.installationId) }),
  )
  app.post(`${base}/`, { schema: { summary: 'Create a display link: a read-only key for a wall display, shown once in the url', params: InstallationParams, body: DisplayCreate, response: { 201: DisplayCreated } } }, async (req, reply) =>
    reply.code(201).header('Cache-Control', 'no-store').send(await domain.displays.create(await actorOf(domain, req), req.params.installationId, req.body)),
  )
  app.delete(`${base}/:displayId/`, { schema: { summary: 'Revoke a display link (its live streams close within one relay poll)', params: DisplayParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.displays.revoke(await actorOf(domain, req), req.params.installationId, req.params.displayId)
    return reply.code(204).send(null)
  })
  app.get('/display/', { schema: { summary: 'The display link the bearer key belongs to, and its installation (display keys only)', security: displaysOnly, response: { 200: DisplaySelf } } }, async (req) =>
    domain.displays.self(await actorOf(domain, req)),
  )
}
