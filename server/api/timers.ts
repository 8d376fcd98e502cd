import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { TimerCreate, TimerPatch, TimerQuery } from '../../shared/schemas/timer.ts'
import { actorOf, parse } from './http.ts'

const InstallationParams = z.object({ installationId: Id })
const TimerParams = z.object({ installationId: Id, timerId: Id })

/** Timers (SPEC §7): GET (object_id, object_type), POST; /{timer_id} GET, PUT, PATCH, DELETE. */
export function timerRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/cockpit/installations/:installationId/timers'
  app.get(`${base}/`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.timers.list(await actorOf(domain, req), installationId, parse(TimerQuery, req.query))
  })
  app.post(`${base}/`, async (req, reply) => {
    const { installationId } = parse(InstallationParams, req.params)
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.timers.create(actor, installationId, parse(TimerCreate, req.body)))
  })
  app.get(`${base}/:timerId/`, async (req) => {
    const { installationId, timerId } = parse(TimerParams, req.params)
    return domain.timers.get(await actorOf(domain, req), installationId, timerId)
  })
  for (const method of ['put', 'patch'] as const) {
    app[method](`${base}/:timerId/`, async (req) => {
      const { installationId, timerId } = parse(TimerParams, req.params)
      const actor = await actorOf(domain, req)
      return domain.timers.update(actor, installationId, timerId, parse(TimerPatch, req.body))
    })
  }
  app.delete(`${base}/:timerId/`, async (req, reply) => {
    const { installationId, timerId } = parse(TimerParams, req.params)
    await domain.timers.remove(await actorOf(domain, req), installationId, timerId)
    return reply.code(204).send()
  })
}
