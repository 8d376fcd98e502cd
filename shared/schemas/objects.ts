import { z } from 'zod'
import { IdNumber, Text } from './common.ts'

/** Meter types (SPEC §3). */
export const METER_TYPES = ['main_power', 'pv', 'battery', 'cold_water', 'hot_water', 'heat', 'charging_station', 'power'] as const
export const MeterTypeSchema = z.enum(METER_TYPES)

const MeterRef = z.object({ id: z.number().int(), name: z.string(), meter_type: MeterTypeSchema })

/**
 * An object hierarchy node (SPEC §3, GET …/objects/): its meters by section, its readable stations and
 * its child nodes (recursive, hence the component id).
 */
export const ObjectNode = z
  .object({
    id: z.number().int(),
    object_id: z.number().int(),
    parent_object_id: z.number().int().nullable(),
    description: z.string(),
    object_type: z.string(),
    get children(): z.ZodArray<typeof ObjectNode> {
      return z.array(ObjectNode)
    },
    electrical_meters: z.array(MeterRef),
    heating_meters: z.array(MeterRef),
    water_meters: z.array(MeterRef),
    charging_stations: z.array(z.object({ id: z.number().int(), name: z.string() })),
  })
  .meta({ id: 'ObjectNode' })

/**
 * A meter with its newest reading (within 5 minutes, else null; ts ISO, power kW, soc %) and today's
 * totals (installation-local day): energy in/out kWh, volume m3.
 */
export const MeterView = z.object({
  id: z.number().int(),
  name: z.string(),
  meter_type: MeterTypeSchema,
  object_id: z.number().int().nullable(),
  capacity: z.number().nullable(),
  unit: z.enum(['kWh', 'm3']),
  latest: z.object({ ts: z.string(), power_kw: z.number(), soc: z.number().nullable() }).nullable(),
  today: z.object({ energy_in_kwh: z.number(), energy_out_kwh: z.number(), volume_m3: z.number() }),
})

/** GET …/categories: a meter category, its meter types and how many of its meters the caller sees. */
export const MeterCategory = z.object({ category: z.string(), meter_types: z.array(MeterTypeSchema).readonly(), count: z.number().int() })

/** The kinds of object an operator builds (SPEC §3 object hierarchy). */
export const OBJECT_TYPES = ['building', 'staircase', 'apartment', 'common_area', 'garage'] as const

/**
 * POST /api/cockpit/installations/{id}/objects/: a node of the object tree: its description (1..100
 * characters, one line), its parent (an object of the same installation, or null for a root) and its kind.
 */
export const ObjectCreate = z
  .object({ description: Text(100).min(1), parent_object_id: IdNumber.nullable(), object_type: z.enum(OBJECT_TYPES) })
  .strict()
export type ObjectCreate = z.infer<typeof ObjectCreate>

/** PATCH …/objects/{objectId}/: any of the fields; a new parent_object_id moves the node with its subtree. */
export const ObjectPatch = ObjectCreate.partial().strict()
export type ObjectPatch = z.infer<typeof ObjectPatch>
