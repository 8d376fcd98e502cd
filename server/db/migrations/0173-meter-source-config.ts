import { sql, type Kysely } from 'kysely'

/**
 * Where a real meter is read (ARCHITECTURE §1 devices): `meters.source_config`, the settings of its
 * `source`. For 'modbus' the device a facility gateway polls (shared/schemas/meters.ts ModbusSourceConfig:
 * host, port, unit_id, model, interval_s); null for the simulator, the ingestion API and MQTT, which need
 * none. Nullable, so every existing meter keeps working unchanged.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE meters ADD COLUMN source_config jsonb`.execute(db)
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE meters DROP COLUMN source_config`.execute(db)
}
