import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { Domain } from '../domain/index.ts'
import { ErrorDetail } from '../../shared/schemas/errors.ts'
import { GatewayConfig } from '../../shared/schemas/gateway.ts'
import { gatewayConfigOf } from '../domain/meters/gateway-config.ts'
import { deviceOf } from './ingest.ts'
import { devicesOnly } from './openapi.ts'

/**
 * GET /api/ingest/v1/config with a device key (`Authorization: Bearer ck_…`): what the facility gateway
 * of the key's installation reads — its installation id and live Modbus meters with their device
 * settings (server/domain/meters/gateway-config.ts). 401 without a key, or with an unknown or revoked
 * one. Not cached: an admin's change reaches the gateway at its next refresh.
 */
export function ingestConfigRoutes(fastify: FastifyInstance, domain: Domain) {
  const app = fastify.withTypeProvider<ZodTypeProvider>()
  app.get('/ingest/v1/config', {
    schema: {
      summary: "The meters a facility gateway reads: the device key's installation and its Modbus meters with their device settings",
      security: devicesOnly,
      response: { 200: GatewayConfig, 401: ErrorDetail.describe('No device key, or an unknown or revoked one') },
    },
  }, async (req, reply) => {
    const { installationId } = await deviceOf(domain, req)
    // The gateway asking is its facility reporting (SPEC §4): online again, waiting changes sent.
    await domain.devices.reported(installationId, domain.clock.now())
    return reply.header('Cache-Control', 'no-store').send(await gatewayConfigOf(domain.db, installationId))
  })
}
