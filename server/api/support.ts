import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, Page } from '../../shared/schemas/common.ts'
import { SupportAnswer, SupportRequest, SupportSent, SupportTicket, SupportTicketQuery, SupportTicketSummary, TicketStatus } from '../../shared/schemas/support.ts'
import { actorOf } from './http.ts'
import { message, pickLang } from '../lib/messages.ts'
import { superusersOnly } from './openapi.ts'

const TicketParams = z.object({ conversationId: Id })

/**
 * Support (SPEC §7 emails/…): open a ticket, the caller's tickets (superusers: all) and one
 * with its conversation; a message in the portal (owner or support), close and reopen (superusers).
 */
export function supportRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.post('/emails/send-support-email/', {
    schema: { summary: 'Write to support: opens a ticket (SPEC §8 "message sent")', body: SupportRequest, response: { 201: SupportSent } },
  }, async (req, reply) => {
    const ticket = await domain.support.create(await actorOf(domain, req), req.body)
    return reply.code(201).send({ detail: message('supportSent', pickLang(req.headers['accept-language'])), conversation_id: ticket.id, ticket })
  })
  app.get('/emails/support-tickets/', {
    schema: { summary: "The caller's support tickets (superusers: all), newest activity first", querystring: SupportTicketQuery, response: { 200: Page(SupportTicketSummary) } },
  }, async (req) => domain.support.list(await actorOf(domain, req), req.query))
  app.get('/emails/support-tickets/:conversationId/', {
    schema: { summary: 'A support ticket with its conversation', params: TicketParams, response: { 200: SupportTicket } },
  }, async (req) => domain.support.get(await actorOf(domain, req), req.params.conversationId))
  app.post('/emails/support-tickets/:conversationId/messages', {
    schema: { summary: 'Write in an open ticket (its owner, or support)', params: TicketParams, body: SupportAnswer, response: { 201: SupportTicket } },
  }, async (req, reply) => reply.code(201).send(await domain.support.post(await actorOf(domain, req), req.params.conversationId, req.body.message)))
  app.patch('/emails/support-tickets/:conversationId/', {
    schema: { summary: 'Close or reopen a ticket (support)', security: superusersOnly, params: TicketParams, body: z.object({ status: TicketStatus }), response: { 200: SupportTicket } },
  }, async (req) => domain.support.setStatus(await actorOf(domain, req), req.params.conversationId, req.body.status))
}
