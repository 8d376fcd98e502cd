import { z } from 'zod'
import { IdNumber, Text } from './common.ts'
import { ChargePointId } from './ocpp.ts'
import { CHARGING_MODES, STATION_STATUSES } from '../rules/status.ts'
import { StationReason } from './load-management.ts'

/** A station's capacity in kW (a wallbox's rating: 1 to 350, the largest DC chargers). */
export const StationCapacity = z.number().min(1).max(350)
/** A station's phases: 1 or 3. */
export const StationPhases = z.union([z.literal(1), z.literal(3)])

/** Everyday charging station fields (whoever may write the station): name, mode and learning mode. */
export const StationPatch = z
  .object({
    name: Text(100).min(1),
    charging_mode: z.enum(CHARGING_MODES),
    rfid_lernmodus: z.number().int().min(0).max(1),
  })
  .partial()

/**
 * PATCH/PUT …/installations/{id}/charging_stations/{id}/: the everyday fields and the setup fields
 * capacity_kw and phases (admins only, audited).
 */
export const StationChange = StationPatch.extend({
  capacity_kw: StationCapacity.describe('Maximum charging power in kW, 1–350 (admins)').optional(),
  phases: StationPhases.describe('1 or 3 phases (admins)').optional(),
})
export type StationChange = z.infer<typeof StationChange>

/** The setup of a station as its admins change it (stations provisioning `update`). */
export interface StationSetup {
  name?: string
  object_id?: number
  capacity_kw?: number
  phases?: 1 | 3
  description?: string
}

/**
 * A charging station with its live state (SPEC §3). Power in kW, energy in kWh (2 decimals),
 * session_start ISO 8601. `rfid` is the card of the running session when the caller may read it.
 */
export const Station = z.object({
  id: z.number().int(),
  device_id: z.string(),
  name: z.string(),
  description: z.string(),
  object_id: z.number().int().nullable(),
  object_type: z.literal('charging_station'),
  capacity_kw: z.number(),
  /** 1 or 3 phases (stations made before provisioning: 3). */
  phases: z.number().int().optional(),
  charging_mode: z.enum(CHARGING_MODES),
  status: z.enum(STATION_STATUSES).nullable(),
  status_code: z.number().int(),
  alerts: z.array(z.string()),
  rfid_lernmodus: z.number().int(),
  /** Learning mode (SPEC §4): the unknown tag detected while learning, shown to admins only; else null. */
  pending_rfid: z.object({ tag: z.string(), detected_at: z.string() }).nullable().optional(),
  power_kw: z.number(),
  energy_kwh: z.number(),
  session_start: z.string().nullable(),
  rfid: z.object({ id: z.number().int(), tag: z.string(), description: z.string() }).nullable(),
  updated_at: z.string(),
  /**
   * Changes made while the installation is offline, waiting to be sent on reconnect, oldest first:
   * the field, its new value and when it was asked for. Empty when none.
   */
  pending_changes: z.array(z.object({ field: z.enum(['charging_mode', 'rfid_lernmodus']), value: z.union([z.string(), z.number()]), requested_at: z.string() })).optional(),
  /**
   * Why the station charges as it does (docs/decisions.md "Load management: model, controller and
   * reasons"): a code, its sentence in the caller's language (Accept-Language) and the ISO instant it is
   * expected to change (null: unknown). Always sent by the API.
   */
  reason: StationReason.optional(),
})
export type Station = z.infer<typeof Station>

/** An object node with the stations the caller may read in it and its descendants (…/objects/charging_stations). */
export const StationObjectNode = z.object({ id: z.number().int(), parent_object_id: z.number().int().nullable(), description: z.string(), object_type: z.string() })
export const StationObject = StationObjectNode.extend({ charging_stations: z.array(Station) })

/** …/objects/charging_stations/stats: readable stations by display status (SPEC §4), total power kW, stations learning. */
export const StationStats = z.object({
  count: z.number().int(),
  ready: z.number().int(),
  running: z.number().int(),
  error: z.number().int(),
  disabled: z.number().int(),
  power_kw: z.number(),
  learning: z.number().int(),
})

/**
 * POST …/charging_stations/ (admins): capacity in kW (1–350), 1 or 3 phases; `ocpp_charge_point_id`
 * binds the station to an OCPP 1.6J charge point (unique across all installations).
 */
export const StationCreate = z.object({
  name: Text(100).min(1),
  object_id: IdNumber,
  capacity_kw: StationCapacity,
  phases: StationPhases,
  description: Text(255).optional(),
  ocpp_charge_point_id: ChargePointId.optional(),
})
export type StationCreate = z.infer<typeof StationCreate>

/** The OCPP credentials of a station, shown once: the charge point id, its password and the URL to enter in the wallbox. */
export const OcppCredentials = z.object({ charge_point_id: z.string(), password: z.string(), url: z.string() })

/** A created station with its OCPP credentials (null without a charge point id). */
export const StationCreated = Station.extend({ ocpp: OcppCredentials.nullable() })
