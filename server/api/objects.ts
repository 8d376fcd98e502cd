import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery } from '../../shared/schemas/common.ts'
import { actorOf, parse } from './http.ts'

const InstallationParams = z.object({ installationId: Id })
const ObjectParams = z.object({ installationId: Id, objectId: Id })
const MeterTypeParams = ObjectParams.extend({ meterType: z.enum(['main_power', 'pv', 'battery', 'cold_water', 'hot_water', 'heat', 'charging_station']) })

/**
 * SPEC §7 objects and meters under /cockpit/installations/{id}/: objects/ and /{id},
 * /{object_id}/meters, /{object_id}/meters/{meter_type}; batteries/, pv/, heat/, water/ (limit,
 * offset); categories; flow (the live power flow). Shapes and rights: server/domain/objects/service.ts.
 */
export function objectRoutes(app: FastifyInstance, domain: Domain) {
  const base = '/cockpit/installations/:installationId'
  app.get(`${base}/objects/`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.objects.tree(await actorOf(domain, req), installationId)
  })
  app.get(`${base}/objects/:objectId/`, async (req) => {
    const { installationId, objectId } = parse(ObjectParams, req.params)
    return domain.objects.get(await actorOf(domain, req), installationId, objectId)
  })
  app.get(`${base}/objects/:objectId/meters/`, async (req) => {
    const { installationId, objectId } = parse(ObjectParams, req.params)
    return domain.objects.meters(await actorOf(domain, req), installationId, objectId)
  })
  app.get(`${base}/objects/:objectId/meters/:meterType/`, async (req) => {
    const { installationId, objectId, meterType } = parse(MeterTypeParams, req.params)
    return domain.objects.meters(await actorOf(domain, req), installationId, objectId, meterType)
  })
  for (const kind of ['batteries', 'pv', 'heat', 'water'] as const) {
    app.get(`${base}/${kind}/`, async (req) => {
      const { installationId } = parse(InstallationParams, req.params)
      return domain.objects.ofKind(await actorOf(domain, req), installationId, kind, parse(ListQuery, req.query))
    })
  }
  // The flow meter: the live power flow (kW) with the same projection as GET /metrics/ and …/overview.
  app.get(`${base}/flow`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.metrics.live(await actorOf(domain, req), installationId)
  })
  app.get(`${base}/categories`, async (req) => {
    const { installationId } = parse(InstallationParams, req.params)
    return domain.objects.categories(await actorOf(domain, req), installationId)
  })
}
