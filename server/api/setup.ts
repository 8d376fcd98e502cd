import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Domain } from '../domain/index.ts'
import { TokenResponse } from '../../shared/schemas/auth.ts'
import { SetupRequest, SetupStatus } from '../../shared/schemas/setup.ts'
import { ErrorDetail } from '../../shared/schemas/errors.ts'

/**
 * The first start (server/domain/auth/first-start.ts): GET /api/setup tells whether the first superuser
 * is still to be created; POST /api/setup creates it with the setup link's token and signs it in.
 * Both public (`security: []`); POST is throttled per IP like sign-in.
 */
export function setupRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get(
    '/setup',
    { schema: { summary: 'Whether the first superuser is still to be created (no superuser exists), and how to sign in to the demo', security: [], response: { 200: SetupStatus } } },
    async () => ({ needed: await domain.setup.needed(), demo: domain.setup.demo }),
  )
  app.post(
    '/setup',
    {
      schema: {
        summary: 'Create the first superuser with the setup link\'s token and sign them in (the answer of sign-in)',
        security: [],
        body: SetupRequest,
        response: {
          201: TokenResponse,
          403: ErrorDetail.describe('The setup link is unknown, used or expired'),
          409: ErrorDetail.describe('A superuser exists already: sign in instead'),
          429: ErrorDetail.describe('Too many wrong setup links from this address: try again after Retry-After seconds'),
        },
      },
    },
    async (req, reply) => reply.code(201).send(await domain.setup.complete(req.body, req.ip)),
  )
}
