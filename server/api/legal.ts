import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { pickLang } from '../lib/messages.ts'
import { ListQuery } from '../../shared/schemas/common.ts'
import { actorOf, parse } from './http.ts'
import { Forbidden } from '../lib/errors.ts'

/** POST /api/cockpit/legal body: the document and the version the user accepts. */
export const LegalAccept = z.object({ document: z.string().trim().min(1).max(40), version: z.string().trim().min(1).max(40) })

/**
 * SPEC §7 GET, POST /cockpit/legal (signed in) and GET /cockpit/countries (limit, offset),
 * /cockpit/countries/{country}/cities (public lookups for the registration form); GET /cockpit/mail/outbox
 * (superusers: the mail outbox's state, not in SPEC §7).
 */
export function legalRoutes(app: FastifyInstance, domain: Domain) {
  app.get('/cockpit/legal', async (req) => domain.legal.status(await actorOf(domain, req), pickLang(req.headers['accept-language'])))
  app.post('/cockpit/legal', async (req) => {
    const actor = await actorOf(domain, req)
    const body = parse(LegalAccept, req.body)
    return domain.legal.accept(actor, body.document, body.version, pickLang(req.headers['accept-language']))
  })
  // The mail outbox for superusers (issue 3 §7): state, attempts, next attempt and last error, newest first.
  app.get('/cockpit/mail/outbox', async (req) => {
    const actor = await actorOf(domain, req)
    if (!actor.is_superuser) throw Forbidden()
    return domain.mail.list(parse(ListQuery, req.query))
  })
  app.get('/cockpit/countries', async (req) => domain.legal.countries(pickLang(req.headers['accept-language']), parse(ListQuery, req.query)))
  app.get('/cockpit/countries/:country/cities', async (req) => {
    const { country } = parse(z.object({ country: z.string().regex(/^[A-Za-z]{2}$/) }), req.params)
    return domain.legal.cities(country)
  })
}
