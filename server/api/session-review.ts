import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { ChargingSession, SessionEndInput, SessionReviewInput } from '../../shared/schemas/session.ts'
import { ErrorDetail } from '../../shared/schemas/errors.ts'
import { TEXTS } from './openapi-texts.ts'
import { actorOf } from './http.ts'

const Params = z.object({ installationId: Id, sessionId: Id })
const Conflict = { description: TEXTS.sessionConflict, content: { 'application/json': { schema: ErrorDetail } } }

/**
 * Admins' hands on charging sessions (docs/decisions.md "Charging: plausible charger figures and debit
 * ceilings"), admins of the session's installation only (403 others; 404 "Session is not found" for a
 * session of another installation). POST …/charging_sessions/{id}/review {action: correct|approve|void,
 * energy_kwh?, reason} → the session (409 while charging or once paid); POST …/charging_sessions/{id}/end
 * {reason} → the session, ended now (409 once ended).
 */
export function sessionReviewRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const path = '/cockpit/installations/:installationId/charging_sessions/:sessionId'
  app.post(`${path}/review`, {
    schema: {
      summary: 'Review a held charging session: correct its energy, release it as it is, or void it, with a reason recorded (admins)',
      params: Params,
      body: SessionReviewInput,
      response: { 200: ChargingSession, 409: Conflict },
    },
  }, async (req) => domain.sessionReview.review(await actorOf(domain, req), req.params.installationId, req.params.sessionId, req.body))
  app.post(`${path}/end`, {
    schema: {
      summary: 'End an open charging session by hand, with a reason recorded (a charger that never stopped it; admins)',
      params: Params,
      body: SessionEndInput,
      response: { 200: ChargingSession, 409: Conflict },
    },
  }, async (req) => domain.sessionReview.end(await actorOf(domain, req), req.params.installationId, req.params.sessionId, req.body.reason))
}
