import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { Forbidden, NotFound } from '../lib/errors.ts'
import { isAdmin } from '../../shared/rules/permissions.ts'
import { actorOf } from './http.ts'

/**
 * Demo control of a facility's connection (not in SPEC §7):
 * POST /api/cockpit/installations/{id}/simulator/connection {"online": false|true} → 202 {installation_id, online}.
 * false cuts the simulated devices off (the installation is offline at once, since its last heartbeat);
 * true restores them, and their next heartbeat (within a simulator step, 5 s) brings it back online and
 * sends the changes made meanwhile. Admins of the installation only (403); 404 when no simulator runs
 * in this process (not a demo).
 */
export function deviceRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.post(
    '/cockpit/installations/:installationId/simulator/connection',
    {
      schema: {
        summary: "Demo: cut or restore a simulated facility's connection (admins)",
        params: z.object({ installationId: Id }),
        body: z.object({ online: z.boolean() }),
        response: { 202: z.object({ installation_id: z.number().int(), online: z.boolean() }) },
      },
    },
    async (req, reply) => {
      const { installationId } = req.params
      const actor = await actorOf(domain, req)
      if (!isAdmin(await domain.installations.requireRole(actor, installationId))) throw Forbidden()
      if (!app.simulator) throw NotFound()
      await app.simulator.setConnected(installationId, req.body.online)
      return reply.code(202).send({ installation_id: installationId, online: req.body.online })
    },
  )
}
