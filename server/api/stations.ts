import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery } from '../../shared/schemas/common.ts'
import { StationPatch } from '../../shared/schemas/station.ts'
import { Forbidden, NotFound } from '../lib/errors.ts'
import { isAdmin } from '../../shared/rules/permissions.ts'
import { JournalQuery } from '../../shared/schemas/journal.ts'
import { actorOf, installationIdOf, parse } from './http.ts'

const StationParams = z.object({ installationId: Id, stationId: Id })
const InstallationParams = z.object({ installationId: Id })
const ObjectParams = z.object({ installationId: Id, objectId: Id })
/** Bulk PUT/PATCH of …/charging_stations/: a list of station patches with their ids. */
const StationBulk = z.array(StationPatch.extend({ id: Id })).min(1).max(1000)

/**
 * Station routes of issue 4 beside the GET/PATCH ones in installations.ts.
 * POST …/charging_stations/{id}/simulator/plug_in {minutes?: 1–240, default 30; energy_kwh?: 0–200, the
 * car's need, default 0} → 202: demo control
 * (docs/decisions.md) that plugs a fully charged guest car in at a simulated station, so learning mode
 * (which needs a car plugged in, SPEC §4) can be shown at any hour. Admins only (403); 404 for an
 * unknown station or when no simulator runs in this process.
 */
export function stationRoutes(app: FastifyInstance, domain: Domain) {
  const one = '/cockpit/installations/:installationId/charging_stations/:stationId'
  const inst = '/cockpit/installations/:installationId'
  // PUT of one station behaves like PATCH (installations.ts); bulk PUT/PATCH changes several stations,
  // each with its own rights check, and answers them all.
  app.put(`${one}/`, async (req) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    return domain.stations.update(await actorOf(domain, req), installationId, stationId, parse(StationPatch, req.body))
  })
  for (const method of ['put', 'patch'] as const) {
    app[method](`${inst}/charging_stations/`, async (req) => {
      const { installationId } = parse(InstallationParams, req.params)
      const actor = await actorOf(domain, req)
      const out = []
      for (const { id, ...patch } of parse(StationBulk, req.body)) out.push(await domain.stations.update(actor, installationId, id, patch))
      return out
    })
  }

  // The German aliases of SPEC §7 (/ladestation/): list, edit one, turn off.
  app.get('/ladestation/', async (req) => {
    const actor = await actorOf(domain, req)
    return domain.stations.list(actor, installationIdOf(req), parse(ListQuery.extend({ installation: z.string().optional() }), req.query))
  })
  for (const method of ['put', 'patch'] as const) {
    app[method]('/ladestation/:stationId/', async (req) => {
      const { stationId } = parse(z.object({ stationId: Id }), req.params)
      const actor = await actorOf(domain, req)
      return domain.stations.update(actor, await domain.stations.installationOf(stationId), stationId, parse(StationPatch, req.body))
    })
  }
  // Turn off (lock) one station (body {id}) or, for admins, every station of the installation.
  app.post('/ladestation/turn-off/', async (req) => {
    const actor = await actorOf(domain, req)
    const installationId = installationIdOf(req)
    const { id } = parse(z.object({ id: Id.optional() }), req.body)
    // All stations at once is an admin's emergency stop; a single station needs write rights on it.
    if (!id && !isAdmin(await domain.installations.requireRole(actor, installationId))) throw Forbidden()
    const ids = id ? [id] : (await domain.stations.list(actor, installationId, { limit: 1000, offset: 0 })).results.map((s) => s.id)
    const out = []
    for (const stationId of ids) out.push(await domain.stations.update(actor, installationId, stationId, { charging_mode: 'locked' }))
    return out
  })

  // Stations by object node (SPEC §7).
  app.get(`${inst}/objects/charging_stations`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.stationObjects.grouped(await actorOf(domain, req), installationId)
  })
  app.get(`${inst}/objects/charging_stations/objects`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.stationObjects.objects(await actorOf(domain, req), installationId)
  })
  app.get(`${inst}/objects/charging_stations/stats`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.stationObjects.stats(await actorOf(domain, req), installationId)
  })
  app.get(`${inst}/objects/:objectId/charging_stations`, async (req) => {
    const { installationId, objectId } = parse(ObjectParams, req.params)
    return domain.stationObjects.inObject(await actorOf(domain, req), installationId, objectId)
  })
  // SPEC §7: the journal of a station (start, end, entry_type, payment_status) and the cards allowed there.
  app.get(`${one}/journal`, async (req) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    return domain.journal.station(await actorOf(domain, req), installationId, stationId, parse(JournalQuery, req.query))
  })
  app.get(`${one}/rfids`, async (req) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    return domain.rfids.forStation(await actorOf(domain, req), installationId, stationId)
  })
  app.post('/cockpit/installations/:installationId/charging_stations/:stationId/simulator/plug_in', async (req, reply) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    const { minutes, energy_kwh } = parse(z.object({ minutes: z.number().int().min(1).max(240).default(30), energy_kwh: z.number().min(0).max(200).default(0) }), req.body)
    const actor = await actorOf(domain, req)
    if (!isAdmin(await domain.installations.requireRole(actor, installationId))) throw Forbidden()
    const station = (await domain.stations.forDevices(installationId)).find((s) => s.id === stationId)
    if (!station || !app.simulator) throw NotFound()
    await app.simulator.plugIn(installationId, stationId, minutes, new Date(), energy_kwh)
    return reply.code(202).send({ station_id: stationId, minutes, energy_kwh })
  })
}
