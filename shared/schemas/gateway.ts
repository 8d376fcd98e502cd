import { z } from 'zod'
import { MeterTypeSchema } from './objects.ts'
import { ModbusSourceConfig } from './meters.ts'

/**
 * A meter a facility gateway reads (GET /api/ingest/v1/config): one of the installation's live 'modbus'
 * meters with its device (`source_config`, null while an admin has not set it: the gateway skips it).
 */
export const GatewayMeter = z
  .object({
    id: z.number().int(),
    serial: z.string().nullable(),
    meter_type: MeterTypeSchema,
    source: z.literal('modbus'),
    source_config: ModbusSourceConfig.nullable(),
  })
  .meta({ id: 'GatewayMeter' })
export type GatewayMeter = z.infer<typeof GatewayMeter>

/** GET /api/ingest/v1/config with a device key: the key's installation and the meters its gateway polls. */
export const GatewayConfig = z
  .object({
    installation_id: z.number().int(),
    meters: z.array(GatewayMeter),
  })
  .meta({ id: 'GatewayConfig' })
export type GatewayConfig = z.infer<typeof GatewayConfig>
