import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery, Page } from '../../shared/schemas/common.ts'
import { Metrics } from '../../shared/schemas/metrics.ts'
import { MeterCategory, MeterTypeSchema, MeterView, ObjectCreate, ObjectNode, ObjectPatch } from '../../shared/schemas/objects.ts'
import { actorOf } from './http.ts'
import { NoContent, provisioningErrors } from './openapi.ts'

const InstallationParams = z.object({ installationId: Id })
const ObjectParams = z.object({ installationId: Id, objectId: Id })
const MeterTypeParams = ObjectParams.extend({ meterType: MeterTypeSchema })

/**
 * SPEC §7 objects and meters under /cockpit/installations/{id}/: objects/ and /{id},
 * /{object_id}/meters, /{object_id}/meters/{meter_type}; batteries/, pv/, heat/, water/ (limit,
 * offset); categories; flow (the live power flow). Shapes and rights: server/domain/objects/service.ts.
 */
export function objectRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId'
  app.get(`${base}/objects/`, { schema: { summary: 'The object hierarchy the caller may read (root nodes with their children)', params: InstallationParams, response: { 200: Page(ObjectNode) } } }, async (req) =>
    domain.objects.tree(await actorOf(domain, req), req.params.installationId),
  )
  app.get(`${base}/objects/:objectId/`, { schema: { summary: 'One object node', params: ObjectParams, response: { 200: ObjectNode } } }, async (req) =>
    domain.objects.get(await actorOf(domain, req), req.params.installationId, req.params.objectId),
  )
  // Building the tree (admins; server/domain/objects/provisioning.ts); each change is audited.
  app.post(`${base}/objects/`, { schema: { summary: 'Create an object: building, staircase, apartment, common area or garage (admins)', params: InstallationParams, body: ObjectCreate, response: { 201: ObjectNode, 404: provisioningErrors[404], 409: provisioningErrors[409] } } }, async (req, reply) =>
    reply.code(201).send(await domain.objectProvisioning.create(await actorOf(domain, req), req.params.installationId, req.body)),
  )
  app.patch(`${base}/objects/:objectId/`, { schema: { summary: 'Rename, retype or move an object (admins)', params: ObjectParams, body: ObjectPatch, response: { 200: ObjectNode, ...provisioningErrors } } }, async (req) =>
    domain.objectProvisioning.update(await actorOf(domain, req), req.params.installationId, req.params.objectId, req.body),
  )
  app.delete(`${base}/objects/:objectId/`, { schema: { summary: 'Delete an empty object: no sub-objects, meters or stations (admins)', params: ObjectParams, response: { 204: NoContent, 409: provisioningErrors[409] } } }, async (req, reply) => {
    await domain.objectProvisioning.remove(await actorOf(domain, req), req.params.installationId, req.params.objectId)
    return reply.code(204).send(null)
  })
  app.get(`${base}/objects/:objectId/meters/`, { schema: { summary: 'The meters of an object', params: ObjectParams, response: { 200: z.array(MeterView) } } }, async (req) =>
    domain.objects.meters(await actorOf(domain, req), req.params.installationId, req.params.objectId),
  )
  app.get(`${base}/objects/:objectId/meters/:meterType/`, { schema: { summary: 'The meters of one type of an object', params: MeterTypeParams, response: { 200: z.array(MeterView) } } }, async (req) =>
    domain.objects.meters(await actorOf(domain, req), req.params.installationId, req.params.objectId, req.params.meterType),
  )
  for (const kind of ['batteries', 'pv', 'heat', 'water'] as const) {
    app.get(`${base}/${kind}/`, { schema: { summary: `The ${kind === 'pv' ? 'PV' : kind} meters`, params: InstallationParams, querystring: ListQuery, response: { 200: Page(MeterView) } } }, async (req) =>
      domain.objects.ofKind(await actorOf(domain, req), req.params.installationId, kind, req.query),
    )
  }
  // The flow meter: the live power flow (kW) with the same projection as GET /metrics/ and …/overview.
  app.get(`${base}/flow`, { schema: { summary: 'The live power flow', params: InstallationParams, response: { 200: Metrics } } }, async (req) =>
    domain.metrics.live(await actorOf(domain, req), req.params.installationId),
  )
  app.get(`${base}/categories`, { schema: { summary: 'Meter categories and the visible meter count in each', params: InstallationParams, response: { 200: z.array(MeterCategory) } } }, async (req) =>
    domain.objects.categories(await actorOf(domain, req), req.params.installationId),
  )
}
