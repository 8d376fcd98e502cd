import { z } from 'zod'
import { Day, Text } from './common.ts'
import { AddressInput, Operator } from './installation.ts'
import { METER_SOURCES, METER_UNITS, ModbusSourceConfig, PROVISIONED_METER_TYPES } from './meters.ts'
import { LangTag } from './accounts.ts'
import { CircuitId, LOAD_LIMIT_MAX, MAX_CIRCUITS } from './load-management.ts'

/**
 * A configuration file (docs/configuration-files.md): installations with their settings, object tree,
 * meters, charging stations, tariffs, rates and users with their roles and permissions. No secrets
 * (passwords, OCPP passwords, tokens), no measurements, no sessions. Every entity is found again by a
 * stable key, never by a database id: the installation by its name, an object by its path, a meter by
 * its serial (else its name), a station by its OCPP id (else its name), a tariff by its start, a rate by
 * kind and start, a user by e-mail. Unknown keys are refused (a typo must not be ignored silently).
 */

/** Separator of an object path's descriptions: "Residence / Apartment 1". */
export const PATH_SEPARATOR = ' / '

/** An object path: the descriptions from the root down (each 1..100 characters, no spaces at its ends), joined by " / ". */
export const ObjectPath = z.string().trim().min(1).max(1000)
  .refine((p) => p.split(PATH_SEPARATOR).every((s) => s.length >= 1 && s.length <= 100 && s === s.trim()), { message: `a path is descriptions (1..100 characters) joined by "${PATH_SEPARATOR}"` })

const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, { message: 'a time HH:mm' })
const Bit = z.union([z.literal(0), z.literal(1)])

export const ConfigObject = z.strictObject({
  path: ObjectPath,
  type: z.enum(['building', 'staircase', 'apartment', 'common_area', 'garage']),
})

export const ConfigMeter = z.strictObject({
  name: Text(100).min(1),
  type: z.enum(PROVISIONED_METER_TYPES),
  /** The object path it measures; null for none. */
  object: ObjectPath.nullable(),
  serial: Text(64).min(1).nullable().default(null),
  /** Defaults to the type's (m3 for water, kWh otherwise); another is refused. */
  unit: z.enum(METER_UNITS).optional(),
  /** kW (kWp for PV), kWh for a battery. */
  capacity: z.number().positive().max(100_000).nullable().default(null),
  source: z.enum(METER_SOURCES).default('ingest'),
  /** Where a gateway reads a 'modbus' meter (shared/schemas/meters.ts ModbusSourceConfig); left out for the other sources. */
  source_config: ModbusSourceConfig.optional(),
  /** kW: ingested power beyond it is refused (server/domain/ingest/check.ts); left out for none. */
  max_power_kw: z.number().positive().max(1_000_000).optional(),
})

export const ConfigStation = z.strictObject({
  name: Text(100).min(1),
  object: ObjectPath,
  capacity_kw: z.number().min(1).max(350),
  phases: z.union([z.literal(1), z.literal(3)]).default(3),
  description: Text(255).default(''),
  /** The OCPP 1.6J charge point id (unique across all installations); its password is never in a file. */
  ocpp_charge_point_id: z.string().trim().min(1).max(48).regex(/^[A-Za-z0-9\-_.:]+$/).nullable().default(null),
})

export const ConfigScheduleEntry = z.strictObject({
  start: Time, end: Time,
  monday: Bit, tuesday: Bit, wednesday: Bit, thursday: Bit, friday: Bit, saturday: Bit, sunday: Bit,
})

/** A power tariff version (SPEC §4 pricing), prices in Rappen (per kWh for energy). */
export const ConfigTariff = z.strictObject({
  name: Text(100).min(1),
  valid_from: Day,
  valid_to: Day.nullable().default(null),
  basic_rappen: z.number().min(0).max(1_000_000),
  high_rappen_per_kwh: z.number().min(0).max(100_000),
  low_rappen_per_kwh: z.number().min(0).max(100_000),
  flat_rappen_per_kwh: z.number().min(0).max(100_000).nullable().default(null),
  flat: z.boolean().default(false),
  schedule: z.array(ConfigScheduleEntry).max(50).default([]),
})

/** A ZEV rate (SPEC §4 rates): its kind's prices in Rappen per kWh or m3. */
export const ConfigRate = z.strictObject({
  kind: z.enum(['power', 'water', 'heat']),
  name: Text(100).min(1),
  start_date: Day.nullable(),
  end_date: Day.nullable().default(null),
  prices: z.record(z.string().regex(/^[a-z_]{1,50}$/), z.number().min(0).max(1_000_000)),
  /** Power rates: high-price spans, installation-local "HH:mm", and the weekdays they repeat on. */
  time_spans: z.array(z.strictObject({ start: Time, end: Time, repetition: z.array(z.string().max(20)).max(7) })).max(50).default([]),
  flat_enabled: z.boolean().default(false),
})

/** A user's permission entry (SPEC §3 permissions) on an object (by path) or a station (by its key). */
export const ConfigPermission = z.strictObject({
  object: ObjectPath.optional(),
  /** A station's OCPP id or name; "*" for every station (object_id 0, SPEC §3 permissions). */
  station: z.string().trim().min(1).max(100).optional(),
  level: z.enum(['none', 'read', 'read_and_write', 'inherit']),
  cost: z.boolean().default(false),
  overview: z.boolean().default(false),
}).refine((p) => (p.object === undefined) !== (p.station === undefined), { message: 'names either an object or a station', path: ['object'] })

/** A member of the installation; created without a usable password (docs/configuration-files.md "Users"). */
export const ConfigUser = z.strictObject({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  first_name: Text(150).min(1),
  last_name: Text(150).min(1),
  title: Text(20).nullable().default(null),
  language: LangTag.default('de-CH'),
  role: z.enum(['installation_admin', 'installation_user']),
  permissions: z.array(ConfigPermission).max(1000).default([]),
})

/**
 * Load management (docs/load-management.md): the switch, the grid connection's limits and the circuit
 * tree, each circuit's stations by their key (OCPP id, else name). Null: the installation has none (an
 * import then leaves its settings as they are).
 */
export const ConfigLoadManagement = z.strictObject({
  enabled: z.boolean(),
  grid_limit_a: z.number().positive().max(LOAD_LIMIT_MAX.a).nullable().default(null),
  grid_limit_kw: z.number().positive().max(LOAD_LIMIT_MAX.kw).nullable().default(null),
  circuits: z.array(z.strictObject({
    id: CircuitId,
    name: Text(100).min(1),
    parent: CircuitId.nullable().default(null),
    limit_a: z.number().positive().max(LOAD_LIMIT_MAX.a),
    stations: z.array(z.string().trim().min(1).max(100)).max(1000).default([]),
  })).max(MAX_CIRCUITS).default([]),
  /** Peak shaving with the battery (docs/load-management.md "Peak shaving"); off when left out. */
  peak_shaving: z.strictObject({ enabled: z.boolean(), peak_kw: z.number().positive().max(LOAD_LIMIT_MAX.kw).nullable().default(null) }).default({ enabled: false, peak_kw: null }),
})

export const ConfigInstallation = z.strictObject({
  name: Text(100).min(1),
  timezone: z.string().trim().min(1).max(64),
  currency: z.enum(['CHF', 'EUR']).default('CHF'),
  /** null: none recorded (installations made before addresses existed); an import then leaves it as it is. */
  address: AddressInput.nullable().default(null),
  latitude: z.number().min(-90).max(90).default(46.8182),
  longitude: z.number().min(-180).max(180).default(8.2275),
  registration_enabled: z.boolean().default(false),
  operator: Operator.nullable().default(null),
  objects: z.array(ConfigObject).max(10_000).default([]),
  meters: z.array(ConfigMeter).max(10_000).default([]),
  stations: z.array(ConfigStation).max(1_000).default([]),
  tariffs: z.array(ConfigTariff).max(100).default([]),
  rates: z.array(ConfigRate).max(100).default([]),
  users: z.array(ConfigUser).max(10_000).default([]),
  load_management: ConfigLoadManagement.nullable().default(null),
})
export type ConfigInstallation = z.infer<typeof ConfigInstallation>

/** The whole file: `cockpit_configuration: 1` (the format's version) and its installations. */
export const ConfigurationFile = z.strictObject({
  cockpit_configuration: z.literal(1),
  installations: z.array(ConfigInstallation).min(1).max(10_000),
}).meta({ id: 'ConfigurationFile' })
export type ConfigurationFile = z.infer<typeof ConfigurationFile>
/** The file as written (defaults not yet filled in). */
export type ConfigurationFileInput = z.input<typeof ConfigurationFile>

/** What an import did (or, in a dry run, would do) to one entity. */
export const ConfigChange = z.object({
  installation: z.string(),
  entity: z.enum(['installation', 'object', 'meter', 'station', 'tariff', 'rate', 'user', 'load_management']),
  key: z.string(),
  change: z.enum(['created', 'updated', 'unchanged']),
  /** For `updated`: the fields that differ. */
  fields: z.array(z.string()).optional(),
})
export type ConfigChange = z.infer<typeof ConfigChange>

/** POST /api/cockpit/configuration/import: the changes, counts, and the OCPP credentials made (shown once; none in a dry run). */
export const ConfigImportResult = z.object({
  dry_run: z.boolean(),
  installations: z.array(z.object({ name: z.string(), id: z.number().int().nullable() })),
  summary: z.object({ created: z.number().int(), updated: z.number().int(), unchanged: z.number().int() }),
  changes: z.array(ConfigChange),
  ocpp_credentials: z.array(z.object({ installation: z.string(), station: z.string(), charge_point_id: z.string(), password: z.string(), url: z.string() })),
}).meta({ id: 'ConfigImportResult' })
export type ConfigImportResult = z.infer<typeof ConfigImportResult>
