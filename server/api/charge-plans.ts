import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id } from '../../shared/schemas/common.ts'
import { ChargePlan, ChargePlanPut } from '../../shared/schemas/charge-plan.ts'
import { pickLang } from '../lib/messages.ts'
import type { PlanTarget } from '../domain/load/charge-plans.ts'
import { actorOf } from './http.ts'
import { NoContent } from './openapi.ts'

const StationParams = z.object({ installationId: Id, stationId: Id })
const RfidParams = z.object({ installationId: Id, rfidId: Id })

/**
 * Charge plans (SPEC §4 charging modes; docs/decisions.md "Load management: charge plans"): GET, PUT and
 * DELETE …/charging_stations/{id}/charge_plan (the session running at the station) and
 * …/rfids/{id}/charge_plan (every session of the card). Rules and errors: server/domain/load/charge-plans.ts.
 */
export function chargePlanRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const inst = '/cockpit/installations/:installationId'
  const routes: Array<{ path: string; params: typeof StationParams | typeof RfidParams; what: string; target: (p: Record<string, number>) => PlanTarget }> = [
    { path: `${inst}/charging_stations/:stationId/charge_plan`, params: StationParams, what: 'the session running at a station', target: (p) => ({ kind: 'station', id: p.stationId }) },
    { path: `${inst}/rfids/:rfidId/charge_plan`, params: RfidParams, what: 'an RFID card', target: (p) => ({ kind: 'rfid', id: p.rfidId }) },
  ]
  for (const r of routes) {
    app.get(r.path, { schema: { summary: `The charge plan of ${r.what}, with its planned slots (null: none)`, params: r.params, response: { 200: ChargePlan.nullable() } } }, async (req) => {
      const p = req.params as Record<string, number>
      return domain.chargePlans.get(await actorOf(domain, req), p.installationId, r.target(p), pickLang(req.headers['accept-language']))
    })
    app.put(r.path, { schema: { summary: `Set the charge plan of ${r.what}: kWh or "full" by a time, once or on weekdays`, params: r.params, body: ChargePlanPut, response: { 200: ChargePlan } } }, async (req) => {
      const p = req.params as Record<string, number>
      return domain.chargePlans.put(await actorOf(domain, req), p.installationId, r.target(p), req.body, pickLang(req.headers['accept-language']))
    })
    app.delete(r.path, { schema: { summary: `Remove the charge plan of ${r.what}`, params: r.params, response: { 204: NoContent } } }, async (req, reply) => {
      const p = req.params as Record<string, number>
      await domain.chargePlans.remove(await actorOf(domain, req), p.installationId, r.target(p))
      return reply.code(204).send(null)
    })
  }
}
