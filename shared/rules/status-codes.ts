/**
 * Numeric station status codes 0–31 (SPEC §4; 21 unused). SPEC names the conditions but not their
 * order; this order is ours (docs/decisions.md "Charging: stations, modes and status codes"). ERROR_MAIN_GRID_METER and
 * EVSE_OFFLINE are serious. The simulator reports 0 normally and 17 (EVSE_OFFLINE) for a fault.
 */
export const STATUS_CODES = [
  'EVERYTHING_OK', // 0
  'UNKNOWN', // 1
  'ERROR_MAIN_GRID_METER', // 2
  'VOLTAGE_LOW', // 3
  'ENERGY_SUPPLIER_LOCK', // 4
  'ENERGY_SUPPLIER_REDUCTION_LEVEL_1', // 5
  'ENERGY_SUPPLIER_REDUCTION_LEVEL_2', // 6
  'LOCKED_BY_EXTERNAL_API', // 7
  'FINISHED_BY_EXTERNAL_API', // 8
  'DATABASE_PROCESS_STOPPED', // 9
  'PV_CONDITIONS_NOT_MET', // 10
  'OPTIMIZED_CONDITIONS_NOT_MET', // 11
  'POWER_PEAK_CONTROL', // 12
  'LOAD_MANAGEMENT_INCREASING', // 13
  'LOAD_MANAGEMENT_DECREASING', // 14
  'LOAD_MANAGEMENT_REDUCED_CHARGING', // 15
  'EVSE_ERROR', // 16
  'EVSE_OFFLINE', // 17
  'NO_OCPP_HEARTBEAT', // 18
  'LOAD_MANAGEMENT_MASTER_CONTROL_ACTIVE', // 19
  'LOAD_MANAGEMENT_TIMEOUT', // 20
  null, // 21: unused (SPEC §4)
  'LOAD_MANAGEMENT_NOT_WORKING', // 22
  'LOAD_MANAGEMENT_STATION_NOT_IN_MASTER', // 23
  'LOAD_MANAGEMENT_FUSE_INACTIVE', // 24
  'LOAD_MANAGEMENT_CONFIG_ERROR', // 25
  'THIRD_PARTY_A_ERROR', // 26: first third-party charger system, error
  'THIRD_PARTY_A_INACTIVE', // 27: first third-party charger system, inactive
  'THIRD_PARTY_B_ERROR', // 28: second third-party charger system, error
  'THIRD_PARTY_B_INACTIVE', // 29: second third-party charger system, inactive
  'ABB_ERROR', // 30
  'VOLTAGE_CRITICAL', // 31
] as const

export type StatusCodeName = Exclude<(typeof STATUS_CODES)[number], null>

/** The name of a numeric status code, or null for 21, out-of-range and non-integer values. */
export function statusCodeName(code: number): StatusCodeName | null {
  return Number.isInteger(code) && code >= 0 && code < STATUS_CODES.length ? STATUS_CODES[code] : null
}

/** Serious codes (SPEC §4): ERROR_MAIN_GRID_METER (2) and EVSE_OFFLINE (17). */
export function isSeriousStatusCode(code: number): boolean {
  const name = statusCodeName(code)
  return name === 'ERROR_MAIN_GRID_METER' || name === 'EVSE_OFFLINE'
}
