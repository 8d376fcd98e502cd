/**
 * Peak shaving with the battery (docs/load-management.md "Peak shaving", docs/decisions.md "Load
 * management: peak shaving"): a pure rule from one round's readings to the battery's command and the
 * power the cars may have at the connection. Powers in kW; a battery's power is positive while it
 * charges, negative while it discharges (as its meter reports it).
 *
 * - The import the building would have without the battery: grid − battery.
 * - The battery may discharge while its state of charge is above {@link BATTERY_RESERVE_SOC} (unknown
 *   state of charge: as long as it delivers), at most its `max_power_kw` (the meter's; unknown:
 *   {@link DEFAULT_BATTERY_KW}).
 * - It is told to discharge what goes above the peak (within what it may); the cars may use the peak plus
 *   that available discharge, never more than the connection (the allocator keeps them under both).
 */

/** Below this state of charge, %, the battery is empty for peak shaving (the simulator stops at 10 %). */
export const BATTERY_RESERVE_SOC = 10
/** A battery meter without `max_power_kw`: the discharge assumed, kW (the simulator's battery gives 10). */
export const DEFAULT_BATTERY_KW = 10

/** One round's readings and the settings; see {@link peakShaving}. */
export interface PeakInput {
  /** The grid import to stay under, kW. */
  peak_kw: number
  /** Grid import now (negative: export), kW; null: no reading. */
  grid_kw: number | null
  /** The battery's power now (+ charging, − discharging), kW; null: no battery or no reading. */
  battery_kw: number | null
  /** The battery's state of charge, %; null: unknown. */
  battery_soc: number | null
  /** The battery's highest discharge, kW; null: no battery. */
  battery_max_kw: number | null
}

/** The round's decision; see {@link peakShaving}. */
export interface PeakDecision {
  /** Grid import the building would have without the battery, kW (null: no reading). */
  import_without_battery_kw: number | null
  /** What the battery may discharge now, kW (0: empty or none). */
  available_kw: number
  /** What the battery is told to discharge, kW (0 when import stays under the peak). */
  discharge_kw: number
  /** The cars' share of the connection is held by the peak (peak + available below the connection). */
  cars_limit_kw: number
  /** The import would go above the peak: the battery acts (or, empty, the cars are held). */
  acting: boolean
}

/**
 * Decide one round of peak shaving (see the module comment).
 * @param connectionKw the connection's limit in kW (3 × 230 V × its A per phase)
 */
export function peakShaving(input: PeakInput, connectionKw: number): PeakDecision {
  const hasBattery = input.battery_max_kw !== null && input.battery_max_kw > 0
  const empty = input.battery_soc !== null && input.battery_soc <= BATTERY_RESERVE_SOC
  const available = hasBattery && !empty ? input.battery_max_kw! : 0
  const without = input.grid_kw === null ? null : input.grid_kw - (input.battery_kw ?? 0)
  const over = without === null ? 0 : without - input.peak_kw
  const discharge = Math.round(Math.min(available, Math.max(0, over)) * 1000) / 1000
  return {
    import_without_battery_kw: without,
    available_kw: available,
    discharge_kw: discharge,
    cars_limit_kw: Math.min(connectionKw, input.peak_kw + available),
    acting: over > 0,
  }
}
