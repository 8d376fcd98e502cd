import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { LoadManagement, LoadManagementPut } from '../../shared/schemas/load-management.ts'
import { pickLang } from '../lib/messages.ts'
import { actorOf } from './http.ts'

const InstallationParams = z.object({ installationId: Id })

/**
 * GET and PUT /api/cockpit/installations/{id}/load_management (admins of the installation and
 * superusers): the grid connection's limit, the circuits and the switch of the load controller, with each
 * station's current limit and reason in the caller's language. Rules and errors:
 * server/domain/load/settings.ts.
 */
export function loadManagementRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const path = '/cockpit/installations/:installationId/load_management'
  app.get(path, { schema: { summary: 'Load management: grid limit, circuits, and each station\'s limit and reason (admins)', params: InstallationParams, response: { 200: LoadManagement } } }, async (req) =>
    domain.loadSettings.get(await actorOf(domain, req), req.params.installationId, pickLang(req.headers['accept-language'])),
  )
  app.put(path, { schema: { summary: 'Change load management: switch, grid limit (A and/or kW), circuit tree (admins)', params: InstallationParams, body: LoadManagementPut, response: { 200: LoadManagement } } }, async (req) =>
    domain.loadSettings.put(await actorOf(domain, req), req.params.installationId, req.body, pickLang(req.headers['accept-language'])),
  )
}
