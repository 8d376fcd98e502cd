import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { LANGS, pickLang, type Lang } from '../lib/messages.ts'
import { actorOf, parse } from './http.ts'

const SessionParams = z.object({ sessionId: Id })

/**
 * One charging session and its invoice (issue 4 §7), beside the list GET /rfids-charge/ (metrics.ts).
 * GET /rfids-charge/{id}/ → the session (404 "Session is not found"). GET /rfids-charge/{id}/invoice
 * → application/pdf in the language of `?lang=` or Accept-Language (403 without the right to see its
 * price, 404 unknown, not visible or still charging).
 */
export function sessionRoutes(app: FastifyInstance, domain: Domain) {
  app.get('/rfids-charge/:sessionId/', async (req) => {
    const { sessionId } = parse(SessionParams, req.params)
    return domain.sessions.get(await actorOf(domain, req), sessionId)
  })
  app.get('/rfids-charge/:sessionId/invoice', async (req, reply) => {
    const { sessionId } = parse(SessionParams, req.params)
    const { lang } = parse(z.object({ lang: z.enum(LANGS).optional() }), req.query)
    const language: Lang = lang ?? pickLang(req.headers['accept-language'])
    const pdf = await domain.invoices.pdf(await actorOf(domain, req), sessionId, language)
    return reply
      .header('Content-Type', 'application/pdf')
      .header('Content-Disposition', `attachment; filename="${pdf.filename}"`)
      .header('Cache-Control', 'private, no-store')
      .send(pdf.content)
  })
}
