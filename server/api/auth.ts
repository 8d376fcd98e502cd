import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { RefreshRequest, TokenRequest } from '../../shared/schemas/auth.ts'
import { parse } from './http.ts'

/** SPEC §7 Authentication: POST /authentication/token/, /authentication/token/refresh/ and /authentication/logout/. */
export function authRoutes(app: FastifyInstance, domain: Domain) {
  app.post('/authentication/token/', async (req) => {
    const body = parse(TokenRequest.extend({ email: z.string().trim().min(1).pipe(z.email()) }), req.body)
    const { installation } = parse(z.object({ installation: z.coerce.number().int().positive().optional() }), req.query)
    return domain.auth.login(body.email, body.password, { installation, ip: req.ip })
  })
  app.post('/authentication/token/refresh/', async (req) => domain.auth.refresh(parse(RefreshRequest, req.body).refresh))
  // ARCHITECTURE §3: logout revokes the refresh token's family; 204 also for a token already revoked.
  app.post('/authentication/logout/', async (req, reply) => {
    await domain.auth.logout(parse(RefreshRequest, req.body).refresh)
    return reply.code(204).send()
  })
}
