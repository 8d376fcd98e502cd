import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, Page } from '../../shared/schemas/common.ts'
import { Timer, TimerCreate, TimerPatch, TimerQuery } from '../../shared/schemas/timer.ts'
import { actorOf } from './http.ts'
import { NoContent } from './openapi.ts'

const InstallationParams = z.object({ installationId: Id })
const TimerParams = z.object({ installationId: Id, timerId: Id })

/** Timers (SPEC §7): GET (object_id, object_type), POST; /{timer_id} GET, PUT, PATCH, DELETE. */
export function timerRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId/timers'
  app.get(
    `${base}/`,
    { schema: { summary: 'Timers of the objects the caller may read', params: InstallationParams, querystring: TimerQuery, response: { 200: Page(Timer) } } },
    async (req) => domain.timers.list(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.post(`${base}/`, { schema: { summary: 'Create a timer (admins)', params: InstallationParams, body: TimerCreate, response: { 201: Timer } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.timers.create(actor, req.params.installationId, req.body))
  })
  app.get(`${base}/:timerId/`, { schema: { summary: 'One timer', params: TimerParams, response: { 200: Timer } } }, async (req) =>
    domain.timers.get(await actorOf(domain, req), req.params.installationId, req.params.timerId),
  )
  for (const method of ['put', 'patch'] as const) {
    app[method](`${base}/:timerId/`, { schema: { summary: 'Change a timer (admins; PUT behaves like PATCH)', params: TimerParams, body: TimerPatch, response: { 200: Timer } } }, async (req) => {
      const actor = await actorOf(domain, req)
      return domain.timers.update(actor, req.params.installationId, req.params.timerId, req.body)
    })
  }
  app.delete(`${base}/:timerId/`, { schema: { summary: 'Delete a timer (admins)', params: TimerParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.timers.remove(await actorOf(domain, req), req.params.installationId, req.params.timerId)
    return reply.code(204).send(null)
  })
}
