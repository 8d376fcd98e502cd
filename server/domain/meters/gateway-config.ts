import type { Db } from '../../db/connection.ts'
import type { GatewayConfig } from '../../../shared/schemas/gateway.ts'

/**
 * What a facility gateway of installation `installationId` reads (GET /api/ingest/v1/config,
 * ARCHITECTURE §1 devices): the installation's live (not archived) meters with source 'modbus', by id,
 * with their device settings (null while an admin has not entered them; docs/decisions.md "Meters: a
 * Modbus meter's device settings"). Other sources and other installations' meters are never listed.
 */
export async function gatewayConfigOf(db: Db, installationId: number): Promise<GatewayConfig> {
  const rows = await db.selectFrom('meters')
    .select(['id', 'serial', 'meter_type', 'source_config'])
    .where('installation_id', '=', installationId)
    .where('source', '=', 'modbus')
    .where('archived_at', 'is', null)
    .orderBy('id')
    .execute()
  return { installation_id: installationId, meters: rows.map((r) => ({ id: r.id, serial: r.serial, meter_type: r.meter_type, source: 'modbus' as const, source_config: r.source_config ?? null })) }
}
