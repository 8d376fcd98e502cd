import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { superusersOnly } from './openapi.ts'
import type { Domain } from '../domain/index.ts'
import { pickLang } from '../lib/messages.ts'
import { ListQuery, Page } from '../../shared/schemas/common.ts'
import { actorOf } from './http.ts'
import { Forbidden } from '../lib/errors.ts'

/** POST /api/cockpit/legal body: the document and the version the user accepts. */
export const LegalAccept = z.object({ document: z.string().trim().min(1).max(40), version: z.string().trim().min(1).max(40) })

/** A legal document's current version, its title in the caller's language and when the caller accepted it (ISO) or null. */
const LegalStatus = z.object({ document: z.string(), version: z.string(), title: z.string(), accepted_at: z.string().nullable() })

/** One mail of the outbox (superusers): state, attempts, next attempt and last error; times ISO. */
const OutboxMail = z.object({
  id: z.number().int(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  status: z.enum(['pending', 'sent']),
  attempts: z.number().int(),
  next_attempt_at: z.date(),
  last_error: z.string().nullable(),
  created_at: z.date(),
  sent_at: z.date().nullable(),
})

/**
 * SPEC §7 GET, POST /cockpit/legal (signed in) and GET /cockpit/countries (limit, offset),
 * /cockpit/countries/{country}/cities (public lookups for the registration form); GET /cockpit/mail/outbox
 * (superusers: the mail outbox's state, not in SPEC §7).
 */
export function legalRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/cockpit/legal', { schema: { summary: 'The legal documents and whether the caller accepted their current version', response: { 200: z.array(LegalStatus) } } }, async (req) =>
    domain.legal.status(await actorOf(domain, req), pickLang(req.headers['accept-language'])),
  )
  app.post('/cockpit/legal', { schema: { summary: 'Accept a version of a legal document', body: LegalAccept, response: { 200: z.array(LegalStatus) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.legal.accept(actor, req.body.document, req.body.version, pickLang(req.headers['accept-language']))
  })
  // The mail outbox for superusers (issue 3 §7): state, attempts, next attempt and last error, newest first.
  app.get('/cockpit/mail/outbox', { schema: { summary: 'The mail outbox, newest first (superusers)', security: superusersOnly, querystring: ListQuery, response: { 200: Page(OutboxMail) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    if (!actor.is_superuser) throw Forbidden()
    return domain.mail.list(req.query)
  })
  app.get(
    '/cockpit/countries',
    { schema: { summary: 'The countries of the address forms, names in the caller language', security: [], querystring: ListQuery, response: { 200: Page(z.object({ code: z.string(), name: z.string() })) } } },
    async (req) => domain.legal.countries(pickLang(req.headers['accept-language']), req.query),
  )
  app.get(
    '/cockpit/countries/:country/cities',
    { schema: { summary: 'Cities of a country', security: [], params: z.object({ country: z.string().regex(/^[A-Za-z]{2}$/) }), response: { 200: z.array(z.object({ name: z.string() })) } } },
    async (req) => domain.legal.cities(req.params.country),
  )
}
