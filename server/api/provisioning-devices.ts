import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery, Page } from '../../shared/schemas/common.ts'
import { IncludeArchived, MeterAdmin, MeterCreate, MeterPatch, PurgeQuery } from '../../shared/schemas/meters.ts'
import { OcppCredentials, StationCreate, StationCreated } from '../../shared/schemas/station.ts'
import { NoContent } from './openapi.ts'
import { ErrorDetail, FieldErrors } from '../../shared/schemas/errors.ts'
import { pickLang } from '../lib/messages.ts'
import { actorOf } from './http.ts'

const InstallationParams = z.object({ installationId: Id })
const MeterParams = z.object({ installationId: Id, meterId: Id })
const StationParams = z.object({ installationId: Id, stationId: Id })
/** A 404 or 409 naming the field that caused it (`{"object_id": ["Not found."]}`), or `{detail}`. */
const NotFoundBody = z.union([FieldErrors, ErrorDetail]).describe('Not found: the field that names something not found here, or {detail}')
const ConflictBody = z.union([FieldErrors, ErrorDetail]).describe('Conflict: the field whose value is taken, or {detail} (e.g. a session is running)')
const refusals = { 404: NotFoundBody, 409: ConflictBody }

/**
 * Provisioning of meters and charging stations (admins of the installation and superusers; 403 for
 * others). Meters: GET/POST …/meters/, PATCH/DELETE …/meters/{id}/ (DELETE archives; ?purge=true drops
 * the measurements too). Stations: POST …/charging_stations/ (201, with the OCPP password shown once),
 * POST …/charging_stations/{id}/ocpp/password (a new password, shown once), DELETE
 * …/charging_stations/{id}/ (archives; 409 while a session is open). Answers carrying a password are
 * not cached (Cache-Control: no-store). Rules and errors: server/domain/meters/provisioning.ts and
 * server/domain/stations/provisioning.ts.
 */
export function provisioningDeviceRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const inst = '/cockpit/installations/:installationId'
  // A charge point whose credentials went away (rotated, or its station deleted) is disconnected when it
  // is connected to this process; elsewhere its next connection is refused.
  const drop = (id: string | null) => {
    if (id) fastify.ocpp?.disconnect(id)
  }

  app.get(`${inst}/meters/`, { schema: { summary: "The installation's meters with serial, unit, source (admins)", params: InstallationParams, querystring: ListQuery.extend(IncludeArchived.shape), response: { 200: Page(MeterAdmin), ...refusals } } }, async (req) =>
    domain.meterProvisioning.list(await actorOf(domain, req), req.params.installationId, { ...req.query, include_archived: req.query.include_archived === 'true' }, pickLang(req.headers['accept-language'])),
  )
  app.post(`${inst}/meters/`, { schema: { summary: 'Create a meter on an object of the installation (admins)', params: InstallationParams, body: MeterCreate, response: { 201: MeterAdmin, ...refusals } } }, async (req, reply) =>
    reply.code(201).send(await domain.meterProvisioning.create(await actorOf(domain, req), req.params.installationId, req.body)),
  )
  app.patch(`${inst}/meters/:meterId/`, { schema: { summary: 'Change a meter (admins)', params: MeterParams, body: MeterPatch, response: { 200: MeterAdmin, ...refusals } } }, async (req) =>
    domain.meterProvisioning.update(await actorOf(domain, req), req.params.installationId, req.params.meterId, req.body, pickLang(req.headers['accept-language'])),
  )
  app.delete(`${inst}/meters/:meterId/`, { schema: { summary: 'Delete a meter: archived with its measurements kept, or purged with them (admins)', params: MeterParams, querystring: PurgeQuery, response: { 204: NoContent, ...refusals } } }, async (req, reply) => {
    await domain.meterProvisioning.remove(await actorOf(domain, req), req.params.installationId, req.params.meterId, req.query.purge === 'true')
    return reply.code(204).send(null)
  })

  app.post(`${inst}/charging_stations/`, { schema: { summary: 'Create a charging station with its meter and, given an OCPP id, its charge point password shown once (admins)', params: InstallationParams, body: StationCreate, response: { 201: StationCreated, ...refusals } } }, async (req, reply) => {
    const created = await domain.stationProvisioning.create(await actorOf(domain, req), req.params.installationId, req.body)
    return reply.code(201).header('Cache-Control', 'no-store').send(created)
  })
  app.post(`${inst}/charging_stations/:stationId/ocpp/password`, { schema: { summary: "Give the station's OCPP charge point a new password, shown once; the old one stops working (admins)", params: StationParams, response: { 200: OcppCredentials, ...refusals } } }, async (req, reply) => {
    const creds = await domain.stationProvisioning.rotatePassword(await actorOf(domain, req), req.params.installationId, req.params.stationId)
    drop(creds.charge_point_id)
    return reply.header('Cache-Control', 'no-store').send(creds)
  })
  app.delete(`${inst}/charging_stations/:stationId/`, { schema: { summary: 'Delete a charging station; its sessions stay (admins; 409 while charging)', params: StationParams, response: { 204: NoContent, ...refusals } } }, async (req, reply) => {
    drop(await domain.stationProvisioning.remove(await actorOf(domain, req), req.params.installationId, req.params.stationId))
    return reply.code(204).send(null)
  })
}
