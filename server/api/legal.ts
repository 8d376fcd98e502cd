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

/** A legal document's current version: title and text in the caller's language, when it was published (ISO). */
const LegalText = z.object({ document: z.string(), version: z.string(), title: z.string(), text: z.string(), published_at: z.string() })

/** {@link LegalText} and when the caller accepted this version (ISO) or null. */
const LegalStatus = LegalText.extend({ accepted_at: z.string().nullable() })

/** A document's text in each UI language: all four are required, up to 100,000 characters each. */
const LegalTexts = z.object({ en: z.string().trim().min(1).max(100_000), de: z.string().trim().min(1).max(100_000), fr: z.string().trim().min(1).max(100_000), it: z.string().trim().min(1).max(100_000) })

/** POST /api/cockpit/legal/versions body: the document, a new version label (e.g. a date) and its texts. */
export const LegalPublish = z.object({ document: z.enum(['terms', 'privacy']), version: z.string().trim().min(1).max(40).regex(/^[\w.-]+$/), texts: LegalTexts })

/** A published version with its four texts, when and by whom (e-mail, or null) it was published. */
const LegalVersion = z.object({ document: z.string(), version: z.string(), texts: LegalTexts, published_at: z.string(), published_by: z.string().nullable() })

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
 * SPEC §7 GET, POST /cockpit/legal (signed in), GET /cockpit/legal/texts (public), GET and POST
 * /cockpit/legal/versions (superusers publish new versions), GET /cockpit/countries (limit, offset),
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
  // The texts are readable before "Accept" (registration, signed out) and published by superusers.
  app.get('/cockpit/legal/texts', { schema: { summary: 'The current legal documents with their text in the request language (public, for registration)', security: [], response: { 200: z.array(LegalText) } } }, async (req) =>
    domain.legal.texts(pickLang(req.headers['accept-language'])),
  )
  app.get('/cockpit/legal/versions', { schema: { summary: 'Every published version of the legal documents with their texts (superusers)', security: superusersOnly, response: { 200: z.array(LegalVersion) } } }, async (req) =>
    domain.legal.versions(await actorOf(domain, req)),
  )
  app.post('/cockpit/legal/versions', { schema: { summary: 'Publish a new version of a legal document; everyone is asked to accept it again (superusers)', security: superusersOnly, body: LegalPublish, response: { 201: LegalVersion } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.legal.publish(actor, req.body))
  })
  // The mail outbox for superusers: state, attempts, next attempt and last error, newest first.
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
