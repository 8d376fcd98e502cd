import { z } from 'zod'
import { IdNumber, Text } from './common.ts'
import { MeterTypeSchema } from './objects.ts'

/** Where a meter's readings come from: the simulator (simulated), or a real device over ingest, MQTT or Modbus. */
export const METER_SOURCES = ['simulator', 'ingest', 'mqtt', 'modbus'] as const
export const METER_UNITS = ['kWh', 'm3'] as const
export type MeterUnit = (typeof METER_UNITS)[number]

/**
 * Meter types an admin creates (SPEC §3 kinds, `power` a flat's own electricity sub-meter); a station's
 * `charging_station` meter is made with its station.
 */
export const PROVISIONED_METER_TYPES = ['main_power', 'pv', 'battery', 'hot_water', 'cold_water', 'heat', 'power'] as const

/** The unit a meter type is read in: water in m3, electricity and heat in kWh. */
export function unitOf(meterType: string): MeterUnit {
  return meterType === 'cold_water' || meterType === 'hot_water' ? 'm3' : 'kWh'
}

/** Modbus TCP register maps a facility gateway reads (server/devices/gateway/registers.ts): Eastron SDM630, SunSpec. */
export const MODBUS_MODELS = ['sdm630', 'sunspec'] as const
export type ModbusModel = (typeof MODBUS_MODELS)[number]

/** A host name or an IPv4/IPv6 address, without scheme, port or path (e.g. `192.168.1.20`, `sdm630.local`). */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)$/

/**
 * Where a facility gateway reads a 'modbus' meter (ARCHITECTURE §1 devices): a Modbus TCP device at
 * `host`:`port` (default 502, the Modbus TCP port), slave `unit_id` (default 1; 0..247 per the Modbus
 * application protocol), its register map `model`, read every `interval_s` seconds (default 5, 1..3600).
 */
export const ModbusSourceConfig = z
  .object({
    host: Text(253).min(1).regex(HOST),
    port: z.number().int().min(1).max(65535).default(502),
    unit_id: z.number().int().min(0).max(247).default(1),
    model: z.enum(MODBUS_MODELS),
    interval_s: z.number().int().min(1).max(3600).default(5),
  })
  .strict()
  .meta({ id: 'ModbusSourceConfig' })
export type ModbusSourceConfig = z.infer<typeof ModbusSourceConfig>

/**
 * A meter's data quality (readings through the ingestion API, shared/schemas/ingest.ts): `flagged` while
 * its newest refused or set-aside reading (`reason`, in the request's language; `at` when) is
 * less than {@link QUALITY_FLAG_HOURS} hours old, else `ok` (with the last finding, if any, for reference).
 */
export const DataQuality = z.object({ state: z.enum(['ok', 'flagged']), reason: z.string().nullable(), at: z.string().nullable() }).meta({ id: 'DataQuality' })
export type DataQuality = z.infer<typeof DataQuality>
export const QUALITY_FLAG_HOURS = 24

/**
 * A meter as an admin manages it (GET/POST/PATCH …/meters/): capacity in kW (kWp for PV) or kWh for a
 * battery, `archived_at` ISO 8601 or null (an archived meter is only shown with ?include_archived=true),
 * `max_power_kw` the bound ingested power is checked against (null: none), `last_reading_at` its newest
 * ingested reading (ISO 8601 or null), `data_quality` (see {@link DataQuality}).
 */
export const MeterAdmin = z
  .object({
    id: z.number().int(),
    name: z.string(),
    meter_type: MeterTypeSchema,
    object_id: z.number().int().nullable(),
    serial: z.string().nullable(),
    unit: z.enum(METER_UNITS),
    capacity: z.number().nullable(),
    source: z.enum(METER_SOURCES),
    /** The settings of `source`: the Modbus device for 'modbus', null for the other sources. */
    source_config: ModbusSourceConfig.nullable(),
    archived_at: z.string().nullable(),
    max_power_kw: z.number().nullable(),
    last_reading_at: z.string().nullable(),
    data_quality: DataQuality,
  })
  .meta({ id: 'MeterAdmin' })
export type MeterAdmin = z.infer<typeof MeterAdmin>

const Serial = Text(64).min(1).nullable()
/** kW, kWp or kWh (battery): above 0, at most 100 MW(h). */
const Capacity = z.number().positive().max(100_000).nullable()
/** kW: above 0, at most 1 GW; ingested power beyond it is refused. */
const MaxPower = z.number().positive().max(1_000_000).nullable()

/**
 * POST …/meters/: unit defaults to the type's (a wrong one is 400), source to 'ingest'. `source_config`
 * is required with source 'modbus' and must be null (or left out) with the others (400 naming it).
 */
export const MeterCreate = z.object({
  object_id: IdNumber,
  meter_type: z.enum(PROVISIONED_METER_TYPES),
  name: Text(100).min(1),
  serial: Serial.optional(),
  unit: z.enum(METER_UNITS).optional(),
  capacity: Capacity.optional(),
  max_power_kw: MaxPower.optional(),
  source: z.enum(METER_SOURCES).default('ingest'),
  source_config: ModbusSourceConfig.nullable().optional(),
})
export type MeterCreate = z.infer<typeof MeterCreate>

/**
 * PATCH …/meters/{id}/: any field of {@link MeterCreate}. A source changed away from 'modbus' drops its
 * `source_config`; changed to 'modbus', the meter needs one (given now or kept from before).
 */
export const MeterPatch = z
  .object({
    object_id: IdNumber,
    meter_type: z.enum(PROVISIONED_METER_TYPES),
    name: Text(100).min(1),
    serial: Serial,
    unit: z.enum(METER_UNITS),
    capacity: Capacity,
    max_power_kw: MaxPower,
    source: z.enum(METER_SOURCES),
    source_config: ModbusSourceConfig.nullable(),
  })
  .partial()
export type MeterPatch = z.infer<typeof MeterPatch>

/** GET …/meters/: ListQuery plus include_archived. DELETE: purge=true drops the measurements too. */
export const IncludeArchived = z.object({ include_archived: z.enum(['true', 'false']).default('false') })
export const PurgeQuery = z.object({ purge: z.enum(['true', 'false']).default('false') })
