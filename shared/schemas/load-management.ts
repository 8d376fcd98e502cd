import { z } from 'zod'
import { IdNumber, Text } from './common.ts'

/** IEC 61851-1: below 6 A per phase a car does not charge; the minimum current of every station. */
export const MIN_CURRENT_A = 6
/** Largest limits accepted: a grid connection of 10,000 A per phase or 10 MW, a circuit of 10,000 A. */
export const LOAD_LIMIT_MAX = { a: 10_000, kw: 10_000 } as const
/** At most this many circuits per installation. */
export const MAX_CIRCUITS = 200

/** A circuit id: the admin's short name, letters, digits, `-` and `_`, 1–40 characters, unique per installation. */
export const CircuitId = z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/)

/**
 * A sub-distribution below the grid connection (docs/decisions.md "Load management: model, controller
 * and reasons"): its id, a name, the circuit feeding it (`parent_id` null: the connection itself), its
 * limit in A per phase and the stations on it (a station is on one circuit at most; a station on none
 * hangs on the connection directly).
 */
export const LoadCircuit = z.object({
  id: CircuitId,
  name: Text(100).min(1),
  parent_id: CircuitId.nullable(),
  limit_a: z.number().positive().max(LOAD_LIMIT_MAX.a),
  station_ids: z.array(IdNumber).max(1000),
})
export type LoadCircuit = z.infer<typeof LoadCircuit>

/**
 * Peak shaving with the battery (docs/load-management.md "Peak shaving"): when `enabled`, the controller
 * keeps grid import under `peak_kw` (kW, required when enabled): the battery discharges for what goes
 * above it, and when the battery cannot (empty, none), the cars are held back (status code 12
 * POWER_PEAK_CONTROL, alert peakManagement).
 */
export const PeakShaving = z.object({
  enabled: z.boolean(),
  peak_kw: z.number().positive().max(LOAD_LIMIT_MAX.kw).nullable().default(null),
})
export type PeakShaving = z.infer<typeof PeakShaving>

/** Peak shaving off: the default of a PUT, a file and an installation without settings. */
export const PEAK_SHAVING_OFF: PeakShaving = { enabled: false, peak_kw: null }

/**
 * PUT /api/cockpit/installations/{id}/load_management: the switch, the grid connection's limit in A per
 * phase and/or kW (at least one when enabled; both: the tighter holds, kW at 3 × 230 V) and the circuits
 * (the whole tree, replacing the stored one). Errors: 400 naming the field (`circuits.2.parent_id` an
 * unknown circuit or a cycle, `circuits.1.station_ids` a station of another installation or on two
 * circuits, `grid_limit_a` missing when enabled without limits).
 */
export const LoadManagementPut = z.object({
  enabled: z.boolean(),
  grid_limit_a: z.number().positive().max(LOAD_LIMIT_MAX.a).nullable().default(null),
  grid_limit_kw: z.number().positive().max(LOAD_LIMIT_MAX.kw).nullable().default(null),
  circuits: z.array(LoadCircuit).max(MAX_CIRCUITS).default([]),
  peak_shaving: PeakShaving.default(PEAK_SHAVING_OFF),
})
export type LoadManagementPut = z.infer<typeof LoadManagementPut>

/**
 * Why a station charges as it does (SPEC §4 statuses and alerts, explained): a reason code, its
 * sentence in the caller's language, the ISO instant it is expected to change (null: unknown) and the
 * sentence's values.
 */
export const StationReason = z.object({
  code: z.string(),
  text: z.string(),
  until: z.string().nullable(),
  /** The values the sentence was filled with (amps, cars, circuit, kw, time), so a screen can say it in its own language. */
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
})
export type StationReason = z.infer<typeof StationReason>

/**
 * A station as load management sees it: phases, minimum and maximum current (A per phase), the circuit
 * it hangs on (null: the connection), the limit the controller set at its last run (null: none) and why.
 */
export const LoadStation = z.object({
  id: z.number().int(),
  name: z.string(),
  phases: z.number().int(),
  min_current_a: z.number(),
  max_current_a: z.number(),
  circuit_id: z.string().nullable(),
  limit_a: z.number().nullable(),
  reason: StationReason,
})

/**
 * GET …/load_management: the stored settings (as PUT takes them; `enabled` false and no limits before the
 * first PUT), the limit in force at the connection in A per phase (null: none), the battery command of
 * peak shaving, and the stations.
 */
export const LoadManagement = z.object({
  enabled: z.boolean(),
  grid_limit_a: z.number().nullable(),
  grid_limit_kw: z.number().nullable(),
  circuits: z.array(LoadCircuit),
  peak_shaving: PeakShaving,
  /**
   * The controller's battery command at its last round while peak shaving is on: hold grid import at
   * `peak_kw`, discharging `discharge_kw` (kW, 0: not needed) then; null: none.
   */
  battery_command: z.object({ peak_kw: z.number(), discharge_kw: z.number(), at: z.string() }).nullable(),
  effective_grid_limit_a: z.number().nullable(),
  updated_at: z.string().nullable(),
  stations: z.array(LoadStation),
})
export type LoadManagement = z.infer<typeof LoadManagement>
