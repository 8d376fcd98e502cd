import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { actorOf, parse } from './http.ts'

/** SPEC §7 users (this slice: GET /users/{id}/). */
export function userRoutes(app: FastifyInstance, domain: Domain) {
  app.get('/users/:id/', async (req) => {
    const { id } = parse(z.object({ id: Id }), req.params)
    return domain.users.get(await actorOf(domain, req), id)
  })
}
