import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { ChargingSession } from '../../shared/schemas/session.ts'
import { LANGS, pickLang, type Lang } from '../lib/messages.ts'
import { actorOf } from './http.ts'

const SessionParams = z.object({ sessionId: Id })

/**
 * One charging session and its invoice (issue 4 §7), beside the list GET /rfids-charge/ (metrics.ts).
 * GET /rfids-charge/{id}/ → the session (404 "Session is not found"). GET /rfids-charge/{id}/invoice
 * → application/pdf in the language of `?lang=` or Accept-Language (403 without the right to see its
 * price, 404 unknown, not visible or still charging).
 */
export function sessionRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/rfids-charge/:sessionId/', { schema: { summary: 'One charging session', params: SessionParams, response: { 200: ChargingSession } } }, async (req) =>
    domain.sessions.get(await actorOf(domain, req), req.params.sessionId),
  )
  app.get(
    '/rfids-charge/:sessionId/invoice',
    {
      schema: {
        summary: 'The PDF invoice of an ended session (lang or Accept-Language picks its language)',
        params: SessionParams,
        querystring: z.object({ lang: z.enum(LANGS).optional() }),
        response: { 200: { description: 'The invoice (attachment)', content: { 'application/pdf': { schema: z.string().meta({ format: 'binary' }) } } } },
      },
    },
    async (req, reply) => {
      const language: Lang = req.query.lang ?? pickLang(req.headers['accept-language'])
      const pdf = await domain.invoices.pdf(await actorOf(domain, req), req.params.sessionId, language)
      return reply
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', `attachment; filename="${pdf.filename}"`)
        .header('Cache-Control', 'private, no-store')
        // A Buffer goes out as is (no serializer); the schema only documents the binary body.
        .send(pdf.content as unknown as string)
    },
  )
}
