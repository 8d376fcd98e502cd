import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery, Page, Text } from '../../shared/schemas/common.ts'
import { DeviceIds, LearnedRegister, PendingRfid, Rfid, RfidCreate, RfidOrder, RfidOrdered, RfidPatch, RfidStations } from '../../shared/schemas/rfid.ts'
import { JournalEntry, JournalQuery } from '../../shared/schemas/journal.ts'
import { actorOf, installationIdOf } from './http.ts'
import { message, pickLang } from '../lib/messages.ts'
import { InstallationScope, NoContent } from './openapi.ts'

const InstallationParams = z.object({ installationId: Id })
const RfidParams = z.object({ installationId: Id, rfidId: Id })
const GlobalParams = z.object({ rfidId: Id })
const StationParams = z.object({ installationId: Id, stationId: Id })
const DeviceParams = z.object({ rfidId: Id, deviceId: Text(100).min(1) })

/**
 * RFID cards (SPEC §7): the installation family under /cockpit/installations/{id}/rfids/ and the global
 * one under /rfids/ (POST needs the installation; /{id} finds the card's installation itself).
 */
export function rfidRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId/rfids'
  app.get(`${base}/`, { schema: { summary: 'RFID cards of the installation the caller may read', params: InstallationParams, querystring: ListQuery, response: { 200: Page(Rfid) } } }, async (req) =>
    domain.rfids.list(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.post(`${base}/`, { schema: { summary: 'Create an RFID card (admins)', params: InstallationParams, body: RfidCreate, response: { 201: Rfid } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.rfids.create(actor, req.params.installationId, req.body))
  })
  app.get(`${base}/:rfidId/`, { schema: { summary: 'One RFID card', params: RfidParams, response: { 200: Rfid } } }, async (req) =>
    domain.rfids.get(await actorOf(domain, req), req.params.installationId, req.params.rfidId),
  )
  for (const method of ['put', 'patch'] as const) {
    app[method](`${base}/:rfidId/`, { schema: { summary: 'Change an RFID card (PUT behaves like PATCH)', params: RfidParams, body: RfidPatch, response: { 200: Rfid } } }, async (req) => {
      const actor = await actorOf(domain, req)
      return domain.rfids.update(actor, req.params.installationId, req.params.rfidId, req.body)
    })
  }
  app.get(`${base}/:rfidId/journal`, { schema: { summary: 'The journal of an RFID card', params: RfidParams, querystring: JournalQuery, response: { 200: Page(JournalEntry) } } }, async (req) =>
    domain.journal.rfid(await actorOf(domain, req), req.params.installationId, req.params.rfidId, req.query),
  )
  app.delete(`${base}/:rfidId/`, { schema: { summary: 'Deactivate an RFID card (admins)', params: RfidParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.rfids.remove(await actorOf(domain, req), req.params.installationId, req.params.rfidId)
    return reply.code(204).send(null)
  })

  // Learning mode (SPEC §4): register or ignore the tag a station learned.
  const learned = '/cockpit/installations/:installationId/charging_stations/:stationId/learned_rfid'
  app.post(learned, { schema: { summary: 'Register the tag the station learned (learning mode)', params: StationParams, body: LearnedRegister, response: { 201: Rfid } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.rfids.registerLearned(actor, req.params.installationId, req.params.stationId, req.body))
  })
  app.delete(learned, { schema: { summary: 'Ignore the tag the station learned', params: StationParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.rfids.ignoreLearned(await actorOf(domain, req), req.params.installationId, req.params.stationId)
    return reply.code(204).send(null)
  })

  // SPEC §7/§9: order new cards (CHF 25 each) through the mail outbox.
  app.post('/emails/send-ordering-new-rfid/', { schema: { summary: 'Order new RFID cards (CHF 25 each)', querystring: InstallationScope, body: RfidOrder, response: { 201: RfidOrdered } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    const installationId = installationIdOf(req)
    const result = await domain.rfidOrders.order(actor, installationId, req.body)
    return reply.code(201).send({ detail: message('rfidOrdered', pickLang(req.headers['accept-language'])), quantity: result.quantity, price: result.price })
  })

  // The global family (find-my-way matches the static /rfids/new before /rfids/:rfidId/).
  app.get('/rfids/new', { schema: { summary: 'Tags learned by stations, waiting to be registered', querystring: InstallationScope, response: { 200: z.array(PendingRfid) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.rfids.pending(actor, installationIdOf(req))
  })
  app.get('/rfids/', { schema: { summary: "RFID cards of all the caller's installations", querystring: ListQuery, response: { 200: Page(Rfid) } } }, async (req) =>
    domain.rfids.listAll(await actorOf(domain, req), req.query),
  )
  app.post('/rfids/', { schema: { summary: 'Create an RFID card in the installation (admins)', querystring: InstallationScope, body: RfidCreate, response: { 201: Rfid } } }, async (req, reply) => {
    const actor = await actorOf(domain, req)
    const installationId = installationIdOf(req)
    return reply.code(201).send(await domain.rfids.create(actor, installationId, req.body))
  })
  app.get('/rfids/:rfidId/', { schema: { summary: 'One RFID card', params: GlobalParams, response: { 200: Rfid } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.rfids.get(actor, await domain.rfids.installationOf(req.params.rfidId), req.params.rfidId)
  })
  for (const method of ['put', 'patch'] as const) {
    app[method]('/rfids/:rfidId/', { schema: { summary: 'Change an RFID card (PUT behaves like PATCH)', params: GlobalParams, body: RfidPatch, response: { 200: Rfid } } }, async (req) => {
      const actor = await actorOf(domain, req)
      return domain.rfids.update(actor, await domain.rfids.installationOf(req.params.rfidId), req.params.rfidId, req.body)
    })
  }
  app.get('/rfids/:rfidId/charging_stations', { schema: { summary: 'The stations the card may charge at', params: GlobalParams, response: { 200: RfidStations } } }, async (req) =>
    domain.rfids.stations(await actorOf(domain, req), req.params.rfidId),
  )
  app.post('/rfids/:rfidId/charging_stations', { schema: { summary: 'Add stations (by device id) to the card (admins)', params: GlobalParams, body: DeviceIds, response: { 200: RfidStations } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.rfids.setStationsByDevice(actor, req.params.rfidId, req.body.device_ids, 'add')
  })
  app.put('/rfids/:rfidId/charging_stations', { schema: { summary: "Replace the card's stations (by device id; admins)", params: GlobalParams, body: DeviceIds, response: { 200: RfidStations } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.rfids.setStationsByDevice(actor, req.params.rfidId, req.body.device_ids, 'replace')
  })
  app.delete('/rfids/:rfidId/charging_stations/:deviceId', { schema: { summary: 'Remove a station (by device id) from the card (admins)', params: DeviceParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.rfids.removeStationByDevice(await actorOf(domain, req), req.params.rfidId, req.params.deviceId)
    return reply.code(204).send(null)
  })
}
