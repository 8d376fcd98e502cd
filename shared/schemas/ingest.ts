import { z } from 'zod'
import { IdNumber, Text } from './common.ts'

/**
 * What a reading measures: the OCPP 1.6 measurand names (OCPP 1.6 §7.31 Measurand) where they exist,
 * `Volume` for water (m3) and `Energy.Heat.Register` for a heat meter's energy register (kWh; OCPP has
 * no heat). `*.Register` and `Volume` are counters: the portal stores their rise between readings
 * (docs/decisions.md "Ingest: registers become deltas").
 */
export const MEASURANDS = [
  'Energy.Active.Import.Register',
  'Energy.Active.Export.Register',
  'Power.Active.Import',
  'Power.Active.Export',
  'SoC',
  'Voltage',
  'Current.Import',
  'Volume',
  'Energy.Heat.Register',
] as const
export type Measurand = (typeof MEASURANDS)[number]

/** Counters: their value only grows; the portal books the rise since the meter's previous reading. */
export const REGISTER_MEASURANDS: ReadonlySet<Measurand> = new Set(['Energy.Active.Import.Register', 'Energy.Active.Export.Register', 'Energy.Heat.Register', 'Volume'])

/**
 * The units each measurand is accepted in, with the factor to its stored unit (kWh, kW, m3, %, V, A;
 * OCPP 1.6 §7.45 UnitOfMeasure names, plus MWh, MW, l and %).
 */
export const MEASURAND_UNITS: Record<Measurand, Readonly<Record<string, number>>> = {
  'Energy.Active.Import.Register': { Wh: 0.001, kWh: 1, MWh: 1000 },
  'Energy.Active.Export.Register': { Wh: 0.001, kWh: 1, MWh: 1000 },
  'Energy.Heat.Register': { Wh: 0.001, kWh: 1, MWh: 1000 },
  'Power.Active.Import': { W: 0.001, kW: 1, MW: 1000 },
  'Power.Active.Export': { W: 0.001, kW: 1, MW: 1000 },
  SoC: { Percent: 1, '%': 1 },
  Voltage: { V: 1 },
  'Current.Import': { A: 1 },
  Volume: { l: 0.001, L: 0.001, m3: 1 },
}

/**
 * One reading (POST /api/ingest/v1/readings, MQTT, the facility gateway): exactly one of `meter_id` and
 * `meter_serial` (the meter's serial in its installation); `timestamp` ISO 8601 with an offset (or Z);
 * `value` in `unit`, one of {@link MEASURAND_UNITS} for the measurand.
 */
export const IngestReading = z
  .object({
    meter_id: IdNumber.optional(),
    meter_serial: Text(64).min(1).optional(),
    timestamp: z.iso.datetime({ offset: true }),
    measurand: z.enum(MEASURANDS),
    unit: z.string().max(16),
    value: z.number(),
  })
  .refine((r) => (r.meter_id === undefined) !== (r.meter_serial === undefined), { message: 'exactly one of meter_id and meter_serial', path: ['meter_id'] })
  .meta({ id: 'IngestReading' })
export type IngestReading = z.infer<typeof IngestReading>

/** Most readings and bytes one batch may carry (beyond them: 413 naming the limit). */
export const INGEST_MAX_READINGS = 10_000
export const INGEST_MAX_BYTES = 1 << 20

/**
 * The request body as the route takes it: each reading is checked on its own (a bad one is answered in
 * `rejected` with its index and reason, the others are stored), so the wire schema leaves the items open.
 */
export const IngestBody = z.object({
  readings: z.array(z.unknown().describe('An IngestReading')).describe(`IngestReading items, at most ${INGEST_MAX_READINGS} (and 1 MB) per batch`),
})
export type IngestBody = { readings: IngestReading[] }

/**
 * The answer (202): readings stored, readings already stored before (same meter, timestamp and
 * measurand: a batch sent twice changes nothing), and the readings refused with their index in the
 * batch and the reason (English, for a device's log).
 */
export const IngestResult = z
  .object({
    accepted: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.array(z.object({ index: z.number().int(), reason: z.string() })),
  })
  .meta({ id: 'IngestResult' })
export type IngestResult = z.infer<typeof IngestResult>

/** How readings reached the service (kept with each reading). */
export type IngestVia = 'ingest' | 'mqtt' | 'modbus' | 'simulator'

/** A device key as its installation's admins see it in the list (the key itself is shown only once). */
export const DeviceKey = z
  .object({
    id: z.number().int(),
    name: z.string(),
    created_at: z.string(),
    last_used_at: z.string().nullable(),
    revoked_at: z.string().nullable(),
  })
  .meta({ id: 'DeviceKey' })
export type DeviceKey = z.infer<typeof DeviceKey>

/** POST …/device_keys/: a name for the key (e.g. the gateway's place). */
export const DeviceKeyCreate = z.object({ name: Text(100).min(1) })
export type DeviceKeyCreate = z.infer<typeof DeviceKeyCreate>

/** 201: the new key with its text `key` (starts with `ck_`), shown this once. */
export const DeviceKeyCreated = z
  .object({ id: z.number().int(), name: z.string(), key: z.string(), created_at: z.string() })
  .meta({ id: 'DeviceKeyCreated' })
export type DeviceKeyCreated = z.infer<typeof DeviceKeyCreated>

/** The prefix of every device key's text. */
export const DEVICE_KEY_PREFIX = 'ck_'
