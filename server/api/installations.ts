import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery, Page } from '../../shared/schemas/common.ts'
import { Station, StationChange } from '../../shared/schemas/station.ts'
import { changeStation } from './stations.ts'
import { Access, EnergyReturn, Installation, InstallationCreate, InstallationInfo, InstallationListQuery, InstallationPatch, InstallationStatus, InstallationStatusQuery, Overview } from '../../shared/schemas/installation.ts'
import { actorOf } from './http.ts'
import { MeterDataState } from '../../shared/schemas/statistics.ts'
import { NoContent, provisioningErrors, superusersOnly } from './openapi.ts'
import { pickLang } from '../lib/messages.ts'

const InstallationParams = z.object({ installationId: Id })
const StationParams = z.object({ installationId: Id, stationId: Id })

/** SPEC §7 installations (this slice): list, one, info, overview, energy_return, access, stations. */
export function installationRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations'
  const one = (summary: string) => ({ summary, params: InstallationParams })
  app.get(`${base}/`, { schema: { summary: "The caller's installations (archived ones with include_archived=true)", querystring: InstallationListQuery, response: { 200: Page(Installation) } } }, async (req) =>
    domain.installations.list(await actorOf(domain, req), req.query),
  )
  // Provisioning (server/domain/installations/provisioning.ts); each change is audited.
  app.post(`${base}/`, { schema: { summary: 'Create an installation (superusers)', security: superusersOnly, body: InstallationCreate, response: { 201: Installation } } }, async (req, reply) =>
    reply.code(201).send(await domain.installationProvisioning.create(await actorOf(domain, req), req.body)),
  )
  app.get(`${base}/status/`, { schema: { summary: "The operator's Installations list: online state, alerts, last data, stations charging (q searches name and city)", querystring: InstallationStatusQuery, response: { 200: Page(InstallationStatus) } } }, async (req) =>
    domain.installationProvisioning.status(await actorOf(domain, req), req.query),
  )
  app.get(`${base}/:installationId/`, { schema: { ...one('One installation'), response: { 200: Installation } } }, async (req) =>
    domain.installations.get(await actorOf(domain, req), req.params.installationId),
  )
  app.patch(`${base}/:installationId/`, { schema: { ...one('Change the settings of an installation: operator, name, time zone, address, position (admins)'), body: InstallationPatch, response: { 200: Installation, 409: provisioningErrors[409] } } }, async (req) =>
    domain.installationProvisioning.update(await actorOf(domain, req), req.params.installationId, req.body),
  )
  app.delete(`${base}/:installationId/`, { schema: { ...one('Delete an installation without billing history (superusers; else archive it)'), security: superusersOnly, response: { 204: NoContent, 409: provisioningErrors[409] } } }, async (req, reply) => {
    await domain.installationProvisioning.remove(await actorOf(domain, req), req.params.installationId)
    return reply.code(204).send(null)
  })
  app.post(`${base}/:installationId/archive`, { schema: { ...one('Archive an installation: read-only, kept for its billing history (superusers)'), security: superusersOnly, response: { 200: Installation } } }, async (req) =>
    domain.installationProvisioning.setArchived(await actorOf(domain, req), req.params.installationId, true),
  )
  app.post(`${base}/:installationId/unarchive`, { schema: { ...one('Take an installation out of the archive (superusers)'), security: superusersOnly, response: { 200: Installation } } }, async (req) =>
    domain.installationProvisioning.setArchived(await actorOf(domain, req), req.params.installationId, false),
  )
  app.get(`${base}/:installationId/info`, { schema: { ...one('Online state and active alerts'), response: { 200: InstallationInfo } } }, async (req) =>
    domain.installations.info(await actorOf(domain, req), req.params.installationId),
  )
  // The Overview screen in one call: the live power flow plus today's water, heat, energy return and
  // totals (server/domain/measurements/overview.ts).
  app.get(`${base}/:installationId/overview`, { schema: { ...one("The Overview screen: live power flow and today's totals"), response: { 200: Overview } } }, async (req) =>
    domain.overview.get(await actorOf(domain, req), req.params.installationId),
  )
  app.get(`${base}/:installationId/energy_return`, { schema: { ...one('PV energy fed back to the grid: today, this month, this year'), response: { 200: EnergyReturn } } }, async (req) =>
    domain.metrics.energyReturn(await actorOf(domain, req), req.params.installationId),
  )
  // Each meter's source, newest reading and data quality for the Power page (server/domain/measurements/coverage.ts).
  app.get(`${base}/:installationId/meter_data`, { schema: { ...one("Each meter's source, newest reading, its age, stale or not, and data quality (overview)"), response: { 200: z.array(MeterDataState) } } }, async (req) =>
    domain.metrics.meterData(await actorOf(domain, req), req.params.installationId, pickLang(req.headers['accept-language'])),
  )
  // What the caller may see here (docs/decisions.md: the relay's permission profile comes from this).
  app.get(`${base}/:installationId/access`, { schema: { ...one('What the caller may see in the installation'), response: { 200: Access } } }, async (req) =>
    domain.installations.access(await actorOf(domain, req), req.params.installationId),
  )
  app.get(`${base}/:installationId/charging_stations/`, { schema: { ...one('Charging stations the caller may read'), querystring: ListQuery, response: { 200: Page(Station) } } }, async (req) =>
    domain.stations.list(await actorOf(domain, req), req.params.installationId, req.query, pickLang(req.headers['accept-language'])),
  )
  app.get(`${base}/:installationId/charging_stations/:stationId/`, { schema: { summary: 'One charging station', params: StationParams, response: { 200: Station } } }, async (req) =>
    domain.stations.get(await actorOf(domain, req), req.params.installationId, req.params.stationId, pickLang(req.headers['accept-language'])),
  )
  app.patch(`${base}/:installationId/charging_stations/:stationId/`, { schema: { summary: 'Change a charging station (name, mode, learning mode; capacity and phases: admins)', params: StationParams, body: StationChange, response: { 200: Station } } }, async (req) =>
    changeStation(domain, await actorOf(domain, req), req.params.installationId, req.params.stationId, req.body),
  )
}
