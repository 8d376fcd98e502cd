import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { Domain } from '../domain/index.ts'
import { Id, ListQuery, Page } from '../../shared/schemas/common.ts'
import { ErrorDetail } from '../../shared/schemas/errors.ts'
import { DeviceKey, DeviceKeyCreate, DeviceKeyCreated, INGEST_MAX_BYTES, INGEST_MAX_READINGS, IngestBody, IngestResult } from '../../shared/schemas/ingest.ts'
import { AppError } from '../lib/errors.ts'
import { pickLang } from '../lib/messages.ts'
import { actorOf } from './http.ts'
import { devicesOnly, NoContent } from './openapi.ts'

const InstallationParams = z.object({ installationId: Id })
const KeyParams = z.object({ installationId: Id, keyId: Id })

/** The installation of the request's device key (`Authorization: Bearer ck_…`); 401 when missing, unknown or revoked. */
export async function deviceOf(domain: Domain, req: FastifyRequest): Promise<{ installationId: number; keyId: number }> {
  const header = req.headers.authorization
  return domain.deviceKeys.authenticate(header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined)
}

/**
 * The ingestion API (docs/decisions.md "Ingest: registers become deltas"): POST /api/ingest/v1/readings
 * with a device key → 202 {accepted, duplicates, rejected}; 401 without a valid key (checked before the
 * body), 413 beyond {@link INGEST_MAX_READINGS} readings or {@link INGEST_MAX_BYTES} bytes, naming the
 * limit. Device keys of an installation (admins and superusers): GET/POST …/device_keys/, DELETE
 * …/device_keys/{id}/ revokes; the created key is shown once (Cache-Control: no-store). A batch with a
 * valid key counts as the installation's device reporting (domain.devices.reported, SPEC §4).
 */
export function ingestRoutes(fastify: FastifyInstance, domain: Domain) {
  void fastify.register(async (scope) => {
    // A body over the limit is refused while it is read, before any route code: its 413 names the limit.
    scope.setErrorHandler((err, _req, _reply) => {
      if ((err as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw new AppError(413, 'ingestTooLarge', { max: INGEST_MAX_BYTES })
      throw err
    })
    const app = scope.withTypeProvider<ZodTypeProvider>()
    app.post('/ingest/v1/readings', {
      bodyLimit: INGEST_MAX_BYTES,
      // The key before anything else: a caller without one learns nothing of the body's rules.
      onRequest: async (req) => {
        ;(req as FastifyRequest & { device?: { installationId: number } }).device = await deviceOf(domain, req)
      },
      schema: {
        summary: "Send meter readings of the device key's installation (a batch of at most 10,000 readings and 1 MB)",
        security: devicesOnly,
        body: IngestBody,
        response: {
          202: IngestResult,
          401: ErrorDetail.describe('No device key, or an unknown or revoked one'),
          413: ErrorDetail.describe('More than 10,000 readings or more than 1 MB: the answer names the limit'),
        },
      },
    }, async (req, reply) => {
      if (req.body.readings.length > INGEST_MAX_READINGS) throw new AppError(413, 'ingestTooManyReadings', { max: INGEST_MAX_READINGS })
      const { installationId } = (req as FastifyRequest & { device: { installationId: number } }).device
      // The device reports: its installation is online, and changes that waited for it are sent (SPEC §4).
      await domain.devices.reported(installationId, domain.clock.now())
      // Reasons in the request's language, like the API's other errors.
      return reply.code(202).send(await domain.ingest.ingest(installationId, req.body.readings, 'ingest', pickLang(req.headers['accept-language'])))
    })
  })

  const app = fastify.withTypeProvider<ZodTypeProvider>()
  const base = '/cockpit/installations/:installationId/device_keys'
  app.get(`${base}/`, { schema: { summary: "The installation's device keys, revoked ones included (admins)", params: InstallationParams, querystring: ListQuery, response: { 200: Page(DeviceKey) } } }, async (req) =>
    domain.deviceKeys.list(await actorOf(domain, req), req.params.installationId, req.query),
  )
  app.post(`${base}/`, { schema: { summary: 'Create a device key for the ingestion API, shown this once (admins)', params: InstallationParams, body: DeviceKeyCreate, response: { 201: DeviceKeyCreated, 409: ErrorDetail.describe('The installation is archived') } } }, async (req, reply) => {
    const created = await domain.deviceKeys.create(await actorOf(domain, req), req.params.installationId, req.body.name)
    return reply.code(201).header('Cache-Control', 'no-store').send(created)
  })
  app.delete(`${base}/:keyId/`, { schema: { summary: 'Revoke a device key: it is refused from now on (admins)', params: KeyParams, response: { 204: NoContent } } }, async (req, reply) => {
    await domain.deviceKeys.revoke(await actorOf(domain, req), req.params.installationId, req.params.keyId)
    return reply.code(204).send(null)
  })
}
