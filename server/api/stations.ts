import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery, Page } from '../../shared/schemas/common.ts'
import { Station, StationChange, StationObject, StationObjectNode, StationPatch, StationStats } from '../../shared/schemas/station.ts'
import { Rfid } from '../../shared/schemas/rfid.ts'
import { Forbidden, NotFound } from '../lib/errors.ts'
import { isAdmin } from '../../shared/rules/permissions.ts'
import { JournalEntry, JournalQuery } from '../../shared/schemas/journal.ts'
import { actorOf, installationIdOf } from './http.ts'
import type { Actor } from '../domain/auth/service.ts'
import { InstallationScope } from './openapi.ts'
import { pickLang } from '../lib/messages.ts'

const StationParams = z.object({ installationId: Id, stationId: Id })
const InstallationParams = z.object({ installationId: Id })
const ObjectParams = z.object({ installationId: Id, objectId: Id })
/** Bulk PUT/PATCH of …/charging_stations/: a list of station patches with their ids. */
const StationBulk = z.array(StationPatch.extend({ id: Id })).min(1).max(1000)

/**
 * PATCH/PUT of one station: the setup fields (capacity_kw, phases) are the admins' provisioning change,
 * audited (stations provisioning `update`; 403 for anyone else, 409 on an archived installation); the
 * rest is the everyday change whoever may write the station makes (stations service `update`), applied
 * after the setup. Answers the station as it is afterwards.
 */
export async function changeStation(domain: Domain, actor: Actor, installationId: number, stationId: number, body: StationChange): Promise<Station> {
  const { capacity_kw, phases, ...rest } = body
  if (capacity_kw === undefined && phases === undefined) return domain.stations.update(actor, installationId, stationId, rest)
  const set = await domain.stationProvisioning.update(actor, installationId, stationId, { capacity_kw, phases })
  return Object.keys(rest).length ? domain.stations.update(actor, installationId, stationId, rest) : set
}

/**
 * Station routes (learning mode, demo controls, SPEC §4) beside the GET/PATCH ones in installations.ts.
 * POST …/charging_stations/{id}/simulator/plug_in {minutes?: 1–240, default 30; energy_kwh?: 0–200, the
 * car's need, default 0; rfid_id?: the card it badges in with} → 202: demo control
 * (docs/decisions.md) that plugs a fully charged guest car in at a simulated station, so learning mode
 * (which needs a car plugged in, SPEC §4) can be shown at any hour. Admins only (403); 404 for an
 * unknown station or card, or when no simulator runs in this process. POST …/simulator/unplug → 202:
 * that car leaves now (404 when none is plugged in).
 */
export function stationRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const one = '/cockpit/installations/:installationId/charging_stations/:stationId'
  const inst = '/cockpit/installations/:installationId'
  // PUT of one station behaves like PATCH (installations.ts); bulk PUT/PATCH changes several stations,
  // each with its own rights check, and answers them all.
  app.put(`${one}/`, { schema: { summary: 'Change a charging station (behaves like PATCH)', params: StationParams, body: StationChange, response: { 200: Station } } }, async (req) =>
    changeStation(domain, await actorOf(domain, req), req.params.installationId, req.params.stationId, req.body),
  )
  for (const method of ['put', 'patch'] as const) {
    app[method](`${inst}/charging_stations/`, { schema: { summary: 'Change several charging stations (each with its id)', params: InstallationParams, body: StationBulk, response: { 200: z.array(Station) } } }, async (req) => {
      const actor = await actorOf(domain, req)
      const out = []
      for (const { id, ...patch } of req.body) out.push(await domain.stations.update(actor, req.params.installationId, id, patch, { lang: pickLang(req.headers['accept-language']) }))
      return out
    })
  }

  // The German aliases of SPEC §7 (/ladestation/): list, edit one, turn off.
  app.get('/ladestation/', { schema: { summary: 'Charging stations of the installation (alias)', querystring: ListQuery.extend(InstallationScope.shape), response: { 200: Page(Station) } } }, async (req) => {
    const actor = await actorOf(domain, req)
    return domain.stations.list(actor, installationIdOf(req), req.query, pickLang(req.headers['accept-language']))
  })
  for (const method of ['put', 'patch'] as const) {
    app[method]('/ladestation/:stationId/', { schema: { summary: 'Change a charging station (alias)', params: z.object({ stationId: Id }), body: StationPatch, response: { 200: Station } } }, async (req) => {
      const actor = await actorOf(domain, req)
      return domain.stations.update(actor, await domain.stations.installationOf(req.params.stationId), req.params.stationId, req.body, { lang: pickLang(req.headers['accept-language']) })
    })
  }
  // Turn off (lock) one station (body {id}) or, for admins, every station of the installation.
  app.post(
    '/ladestation/turn-off/',
    { schema: { summary: 'Turn off (lock) one station, or every station (admins)', querystring: InstallationScope, body: z.object({ id: Id.optional() }), response: { 200: z.array(Station) } } },
    async (req) => {
      const actor = await actorOf(domain, req)
      const installationId = installationIdOf(req)
      const { id } = req.body
      // All stations at once is an admin's emergency stop; a single station needs write rights on it.
      if (!id && !isAdmin(await domain.installations.requireRole(actor, installationId))) throw Forbidden()
      const ids = id ? [id] : (await domain.stations.list(actor, installationId, { limit: 1000, offset: 0 })).results.map((s) => s.id)
      const out = []
      for (const stationId of ids) out.push(await domain.stations.update(actor, installationId, stationId, { charging_mode: 'locked' }, { lang: pickLang(req.headers['accept-language']) }))
      return out
    },
  )

  // Stations by object node (SPEC §7).
  app.get(`${inst}/objects/charging_stations`, { schema: { summary: 'Object nodes with their readable stations', params: InstallationParams, response: { 200: z.array(StationObject) } } }, async (req) =>
    domain.stationObjects.grouped(await actorOf(domain, req), req.params.installationId),
  )
  app.get(`${inst}/objects/charging_stations/objects`, { schema: { summary: 'Object nodes that hold readable stations', params: InstallationParams, response: { 200: z.array(StationObjectNode) } } }, async (req) =>
    domain.stationObjects.objects(await actorOf(domain, req), req.params.installationId),
  )
  app.get(`${inst}/objects/charging_stations/stats`, { schema: { summary: 'Readable stations by display status, total power', params: InstallationParams, response: { 200: StationStats } } }, async (req) =>
    domain.stationObjects.stats(await actorOf(domain, req), req.params.installationId),
  )
  app.get(`${inst}/objects/:objectId/charging_stations`, { schema: { summary: 'Readable stations in an object and its descendants', params: ObjectParams, response: { 200: z.array(Station) } } }, async (req) =>
    domain.stationObjects.inObject(await actorOf(domain, req), req.params.installationId, req.params.objectId),
  )
  // SPEC §7: the journal of a station (start, end, entry_type, payment_status) and the cards allowed there.
  app.get(`${one}/journal`, { schema: { summary: 'The journal of a station', params: StationParams, querystring: JournalQuery, response: { 200: Page(JournalEntry) } } }, async (req) =>
    domain.journal.station(await actorOf(domain, req), req.params.installationId, req.params.stationId, req.query),
  )
  app.get(`${one}/rfids`, { schema: { summary: 'The RFID cards allowed at a station', params: StationParams, response: { 200: Page(Rfid) } } }, async (req) =>
    domain.rfids.forStation(await actorOf(domain, req), req.params.installationId, req.params.stationId),
  )
  app.post(
    `${one}/simulator/plug_in`,
    {
      schema: {
        summary: 'Demo: plug a guest car in at a simulated station (admins)',
        params: StationParams,
        body: z.object({
          minutes: z.number().int().min(1).max(240).default(30),
          energy_kwh: z.number().min(0).max(200).default(0).describe("The car's energy need, kWh"),
          rfid_id: Id.optional().describe('The RFID card the car badges in with (a card of this installation); none: a guest without a badge'),
        }),
        response: { 202: z.object({ station_id: z.number().int(), minutes: z.number().int(), energy_kwh: z.number(), rfid_id: z.number().int().nullable() }) },
      },
    },
    async (req, reply) => {
      const { installationId, stationId } = req.params
      const { minutes, energy_kwh, rfid_id } = req.body
      const actor = await actorOf(domain, req)
      if (!isAdmin(await domain.installations.requireRole(actor, installationId))) throw Forbidden()
      const station = (await domain.stations.forDevices(installationId)).find((s) => s.id === stationId)
      if (!station || !app.simulator) throw NotFound()
      if (rfid_id !== undefined && !(await domain.devices.equipment(installationId)).rfids.some((r) => r.id === rfid_id)) throw NotFound()
      await app.simulator.plugIn(installationId, stationId, minutes, domain.clock.now(), energy_kwh, rfid_id)
      return reply.code(202).send({ station_id: stationId, minutes, energy_kwh, rfid_id: rfid_id ?? null })
    },
  )
  app.post(
    `${one}/simulator/unplug`,
    {
      schema: {
        summary: 'Demo: the car plugged in by plug_in leaves now (admins)',
        params: StationParams,
        response: { 202: z.object({ station_id: z.number().int() }) },
      },
    },
    async (req, reply) => {
      const { installationId, stationId } = req.params
      const actor = await actorOf(domain, req)
      if (!isAdmin(await domain.installations.requireRole(actor, installationId))) throw Forbidden()
      if (!app.simulator || !(await app.simulator.unplug(installationId, stationId))) throw NotFound()
      return reply.code(202).send({ station_id: stationId })
    },
  )
}
