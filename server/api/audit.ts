import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, Page } from '../../shared/schemas/common.ts'
import { AuditEvent, AuditQuery, InstallationAuditQuery } from '../../shared/schemas/audit.ts'
import { actorOf } from './http.ts'

/**
 * The audit trail (docs/decisions.md "Provisioning: the audit trail"), newest first: all of it for
 * superusers; one installation's events for its admins. Rights: server/domain/audit/service.ts.
 */
export function auditRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/cockpit/audit/', { schema: { summary: 'The audit trail, newest first (superusers; admins with the installation_id of their installation)', querystring: AuditQuery, response: { 200: Page(AuditEvent) } } }, async (req) =>
    domain.audit.list(await actorOf(domain, req), req.query),
  )
  app.get('/cockpit/installations/:installationId/audit/', { schema: { summary: "The installation's audit trail, newest first (admins)", params: z.object({ installationId: Id }), querystring: InstallationAuditQuery, response: { 200: Page(AuditEvent) } } }, async (req) =>
    domain.audit.list(await actorOf(domain, req), { ...req.query, installation_id: req.params.installationId }),
  )
}
