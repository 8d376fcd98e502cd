import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery } from '../../shared/schemas/common.ts'
import { StationPatch } from '../../shared/schemas/station.ts'
import { InstallationPatch } from '../../shared/schemas/installation.ts'
import { actorOf, parse } from './http.ts'

const InstallationParams = z.object({ installationId: Id })
const StationParams = z.object({ installationId: Id, stationId: Id })

/** SPEC §7 installations (this slice): list, one, info, overview, energy_return, access, stations. */
export function installationRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/cockpit/installations'
  app.get(`${base}/`, async (req) => domain.installations.list(await actorOf(domain, req), parse(ListQuery, req.query)))
  app.get(`${base}/:installationId/`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.installations.get(await actorOf(domain, req), installationId)
  })
  app.patch(`${base}/:installationId/`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.installations.update(await actorOf(domain, req), installationId, parse(InstallationPatch, req.body))
  })
  app.get(`${base}/:installationId/info`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.installations.info(await actorOf(domain, req), installationId)
  })
  // The Overview screen in one call: the live power flow plus today's water, heat, energy return and
  // totals (server/domain/measurements/overview.ts).
  app.get(`${base}/:installationId/overview`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.overview.get(await actorOf(domain, req), installationId)
  })
  app.get(`${base}/:installationId/energy_return`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.metrics.energyReturn(await actorOf(domain, req), installationId)
  })
  // What the caller may see here (docs/decisions.md: the relay's permission profile comes from this).
  app.get(`${base}/:installationId/access`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.installations.access(await actorOf(domain, req), installationId)
  })
  app.get(`${base}/:installationId/charging_stations/`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.stations.list(await actorOf(domain, req), installationId, parse(ListQuery, req.query))
  })
  app.get(`${base}/:installationId/charging_stations/:stationId/`, async (req) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    return domain.stations.get(await actorOf(domain, req), installationId, stationId)
  })
  app.patch(`${base}/:installationId/charging_stations/:stationId/`, async (req) => {
    const { installationId, stationId } = parse(StationParams, req.params)
    return domain.stations.update(await actorOf(domain, req), installationId, stationId, parse(StationPatch, req.body))
  })
}
