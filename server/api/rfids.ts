import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery } from '../../shared/schemas/common.ts'
import { DeviceIds, LearnedRegister, RfidCreate, RfidOrder, RfidPatch } from '../../shared/schemas/rfid.ts'
import { JournalQuery } from '../../shared/schemas/journal.ts'
import { actorOf, installationIdOf, parse } from './http.ts'
import { message, pickLang } from '../lib/messages.ts'

const InstallationParams = z.object({ installationId: Id })
const RfidParams = z.object({ installationId: Id, rfidId: Id })
const GlobalParams = z.object({ rfidId: Id })
const StationParams = z.object({ installationId: Id, stationId: Id })
const DeviceParams = z.object({ rfidId: Id, deviceId: z.string().min(1) })

/**
 * RFID cards (SPEC §7): the installation family under /cockpit/installations/{id}/rfids/ and the global
 * one under /rfids/ (POST needs the installation; /{id} finds the card's installation itself).
 */
export function rfidRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/cockpit/installations/:installationId/rfids'
  app.get(`${base}/`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.rfids.list(await actorOf(domain, req), installationId, parse(ListQuery, req.query))
  })
  app.post(`${base}/`, async (req, reply) => {
    const { installationId } = parse(InstallationParams, req.params)
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.rfids.create(actor, installationId, parse(RfidCreate, req.body)))
  })
  app.get(`${base}/:rfidId/`, async (req) => {
    const { installationId, rfidId } = parse(RfidParams, req.params)
    return domain.rfids.get(await actorOf(domain, req), installationId, rfidId)
  })
  for (const method of ['put', 'patch'] as const) {
    app[method](`${base}/:rfidId/`, async (req) => {
      const { installationId, rfidId } = parse(RfidParams, req.params)
      const actor = await actorOf(domain, req)
      return domain.rfids.update(actor, installationId, rfidId, parse(RfidPatch, req.body))
    })
  }
  app.get(`${base}/:rfidId/journal`, async (req) => {
    const { installationId, rfidId } = parse(RfidParams, req.params)
    return domain.journal.rfid(await actorOf(domain, req), installationId, rfidId, parse(JournalQuery, req.query))
  })
  app.delete(`${base}/:rfidId/`, async (req, reply) => {
    const { installationId, rfidId } = parse(RfidParams, req.params)
    await domain.rfids.remove(await actorOf(domain, req), installationId, rfidId)
    return reply.code(204).send()
  })

  // Learning mode (SPEC §4): register or ignore the tag a station learned.
  const learned = '/cockpit/installations/:installationId/charging_stations/:stationId/learned_rfid'
  app.post(learned, async (req, reply) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    const actor = await actorOf(domain, req)
    return reply.code(201).send(await domain.rfids.registerLearned(actor, installationId, stationId, parse(LearnedRegister, req.body)))
  })
  app.delete(learned, async (req, reply) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    await domain.rfids.ignoreLearned(await actorOf(domain, req), installationId, stationId)
    return reply.code(204).send()
  })

  // SPEC §7/§9: order new cards (CHF 25 each) through the mail outbox.
  app.post('/emails/send-ordering-new-rfid/', async (req, reply) => {
    const actor = await actorOf(domain, req)
    const installationId = installationIdOf(req)
    const result = await domain.rfidOrders.order(actor, installationId, parse(RfidOrder, req.body))
    return reply.code(201).send({ detail: message('rfidOrdered', pickLang(req.headers['accept-language'])), quantity: result.quantity, price: result.price })
  })

  // The global family (find-my-way matches the static /rfids/new before /rfids/:rfidId/).
  app.get('/rfids/new', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.rfids.pending(actor, installationIdOf(req))
  })
  app.get('/rfids/', async (req) => domain.rfids.listAll(await actorOf(domain, req), parse(ListQuery, req.query)))
  app.post('/rfids/', async (req, reply) => {
    const actor = await actorOf(domain, req)
    const installationId = installationIdOf(req)
    return reply.code(201).send(await domain.rfids.create(actor, installationId, parse(RfidCreate, req.body)))
  })
  app.get('/rfids/:rfidId/', async (req) => {
    const { rfidId } = parse(GlobalParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.rfids.get(actor, await domain.rfids.installationOf(rfidId), rfidId)
  })
  for (const method of ['put', 'patch'] as const) {
    app[method]('/rfids/:rfidId/', async (req) => {
      const { rfidId } = parse(GlobalParams, req.params)
      const actor = await actorOf(domain, req)
      return domain.rfids.update(actor, await domain.rfids.installationOf(rfidId), rfidId, parse(RfidPatch, req.body))
    })
  }
  app.get('/rfids/:rfidId/charging_stations', async (req) => {
    const { rfidId } = parse(GlobalParams, req.params)
    return domain.rfids.stations(await actorOf(domain, req), rfidId)
  })
  app.post('/rfids/:rfidId/charging_stations', async (req) => {
    const { rfidId } = parse(GlobalParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.rfids.setStationsByDevice(actor, rfidId, parse(DeviceIds, req.body).device_ids, 'add')
  })
  app.put('/rfids/:rfidId/charging_stations', async (req) => {
    const { rfidId } = parse(GlobalParams, req.params)
    const actor = await actorOf(domain, req)
    return domain.rfids.setStationsByDevice(actor, rfidId, parse(DeviceIds, req.body).device_ids, 'replace')
  })
  app.delete('/rfids/:rfidId/charging_stations/:deviceId', async (req, reply) => {
    const { rfidId, deviceId } = parse(DeviceParams, req.params)
    await domain.rfids.removeStationByDevice(await actorOf(domain, req), rfidId, deviceId)
    return reply.code(204).send()
  })
}
