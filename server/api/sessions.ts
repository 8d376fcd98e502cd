import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { ChargingSession, SessionQuery } from '../../shared/schemas/session.ts'
import { LANGS, pickLang, type Lang } from '../lib/messages.ts'
import { sessionTable, toCsv, toXlsx } from '../domain/sessions/export.ts'
import { actorOf, installationIdOf } from './http.ts'
import { InstallationScope } from './openapi.ts'

const SessionParams = z.object({ sessionId: Id })

/**
 * One charging session and its invoice, beside the list GET /rfids-charge/ (metrics.ts).
 * GET /rfids-charge/{id}/ → the session (404 "Session is not found"). GET /rfids-charge/{id}/invoice
 * → application/pdf in the language of `?lang=` or Accept-Language (403 without the right to see its
 * price, 404 unknown, not visible or still charging).
 */
export function sessionRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  // The period's sessions (the list's filters, every page) as CSV or XLSX, in the language
  // of `lang` or Accept-Language; the same rights and projection as the list.
  app.get(
    '/rfids-charge/export',
    {
      schema: {
        summary: 'The charging sessions of a period as CSV or XLSX (running first, with a total row)',
        querystring: SessionQuery.omit({ limit: true, offset: true, open: true }).extend({ format: z.enum(['csv', 'xlsx']), lang: z.enum(LANGS).optional(), ...InstallationScope.shape }),
        response: {
          200: {
            description: 'The file (attachment)',
            content: {
              'text/csv': { schema: z.string() },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: z.string().meta({ format: 'binary' }) },
            },
          },
        },
      },
    },
    async (req, reply) => {
      const language: Lang = req.query.lang ?? pickLang(req.headers['accept-language'])
      const { sessions, totals, admin, timezone } = await domain.sessions.all(await actorOf(domain, req), installationIdOf(req), req.query)
      const { header, rows } = sessionTable(sessions, totals, language, admin, timezone)
      const xlsx = req.query.format === 'xlsx'
      const content = xlsx ? await toXlsx(header, rows, 'Sessions') : toCsv(header, rows)
      return reply
        .header('Content-Type', xlsx ? 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' : 'text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="charging-sessions.${req.query.format}"`)
        .header('Cache-Control', 'private, no-store')
        .send(content as unknown as string)
    },
  )
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
