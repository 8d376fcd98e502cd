import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { STATION_COMMANDS } from '../domain/ocpp/service.ts'
import { Id } from '../../shared/schemas/common.ts'
import { OcppBinding, OcppBindingCreated, OcppBindingInput } from '../../shared/schemas/ocpp.ts'
import { NoContent } from './openapi.ts'
import { actorOf } from './http.ts'
import { OCPP } from '../../config/defaults.ts'

const StationParams = z.object({ installationId: Id, stationId: Id })

/**
 * A station's OCPP binding. GET …/charging_stations/{id}/ocpp (whoever may read the station)
 * → the binding with the charge point's boot data, connection and message counts (404 ocppNotBound).
 * Admins of its installation only (403; 404 unknown station): PUT {charge_point_id, connector_id?, password?} → the binding with
 * its password, shown this once (400 ocppIdTaken when another station has the id); DELETE → 204;
 * POST …/ocpp/commands {action, id_tag?}: sent at once when the charge point is connected, and its answer
 * is the route's (200: status Accepted, Rejected, Unlocked, UnlockFailed…, or `failed` with the CALLERROR in
 * `error`, OCPP-J 1.6 §4.2.3), so the admin sees a refusal where the command was given; 202 `queued` (or
 * `sent`, no answer within OCPP.commandAnswerMs) while the charge point is offline: its answer goes to the journal.
 */
/** The command route's answer: the charge point's (200) or `queued`/`sent` (202). */
const CommandAnswer = z.object({ id: z.number().int(), action: z.string(), status: z.string(), error: z.string().nullable() })

export function ocppRoutes(fastify: FastifyInstance, domain: Domain) {
  /**
   * The charge point's answer to command `id` when it comes within OCPP.commandAnswerMs (real time: a network
   * round trip); null while its charge point is offline or the answer is late.
   */
  async function awaitAnswer(id: number): Promise<{ status: string; error: string | null } | null> {
    const started = performance.now()
    for (;;) {
      const s = await domain.ocpp.commandState(id)
      if (!s) return null
      if (s.status !== 'queued' && s.status !== 'sent') return { status: s.status, error: s.error }
      // Connected to this process is known at once; another process's charge points by the stored flag.
      if (!(fastify.ocpp ? fastify.ocpp.isConnected(s.chargePointId) : s.connected)) return null
      if (performance.now() - started > OCPP.commandAnswerMs) return null
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const path = '/cockpit/installations/:installationId/charging_stations/:stationId/ocpp'
  // Connected to this process is known at once; the stored flag lags by a flush (another process's charge points).
  const live = <T extends { charge_point_id: string; connected: boolean }>(b: T): T => ({ ...b, connected: fastify.ocpp?.isConnected(b.charge_point_id) || b.connected })
  app.get(path, { schema: { summary: "The station's OCPP charge point: boot data, connection, message counts", params: StationParams, response: { 200: OcppBinding } } }, async (req) =>
    live(await domain.ocpp.binding(await actorOf(domain, req), req.params.installationId, req.params.stationId)),
  )
  app.put(path, { schema: { summary: 'Bind the station to an OCPP charge point and set its password, shown once (admins)', params: StationParams, body: OcppBindingInput, response: { 200: OcppBindingCreated } } }, async (req, reply) => {
    const created = await domain.ocpp.bind(await actorOf(domain, req), req.params.installationId, req.params.stationId, req.body)
    return reply.header('Cache-Control', 'no-store').send(live(created))
  })
  app.post(`${path}/commands`, {
    schema: {
      summary: 'Send RemoteStartTransaction (id_tag: a card of the installation), RemoteStopTransaction or UnlockConnector to the charge point; queued while it is offline (admins)',
      params: StationParams,
      body: z.object({ action: z.enum(STATION_COMMANDS), id_tag: z.string().min(1).max(20).optional() }),
      response: { 200: CommandAnswer, 202: CommandAnswer },
    },
  }, async (req, reply) => {
    const queued = await domain.ocpp.command(await actorOf(domain, req), req.params.installationId, req.params.stationId, req.body)
    const answer = await awaitAnswer(queued.id)
    return answer ? reply.code(200).send({ ...queued, ...answer }) : reply.code(202).send({ ...queued, error: null })
  })
  app.delete(path, { schema: { summary: 'Unbind the station from its OCPP charge point (admins)', params: StationParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.ocpp.unbind(await actorOf(domain, req), req.params.installationId, req.params.stationId)
    return reply.code(204).send(null)
  })
}
