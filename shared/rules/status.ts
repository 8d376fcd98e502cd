/**
 * Charging station status values and their display mapping (SPEC §4).
 */
export const STATION_STATUSES = ['unknown', 'off', 'noCar', 'carPluggedIn', 'charging', 'failure', 'notBadgedIn'] as const
export type StationStatus = (typeof STATION_STATUSES)[number]

/** What a station card shows: SPEC §4 "Displayed as". */
export type StatusDisplay = 'ready' | 'running' | 'error' | 'disabled'

/**
 * Map a station status to its display (SPEC §4): noCar and carPluggedIn → ready; charging → running;
 * failure, unknown and null → error; off and notBadgedIn → disabled; empty string → nothing (null).
 * A value outside the SPEC list is treated like unknown (error), so a new firmware state never hides a station.
 */
export function displayStatus(status: string | null | undefined): StatusDisplay | null {
  if (status === '') return null
  switch (status) {
    case 'noCar':
    case 'carPluggedIn':
      return 'ready'
    case 'charging':
      return 'running'
    case 'off':
    case 'notBadgedIn':
      return 'disabled'
    default:
      return 'error'
  }
}

/** Charging modes (SPEC §4). `locked` blocks power: the station is disabled until an admin unlocks it. */
export const CHARGING_MODES = ['instant', 'optimized', 'solar', 'locked', 'timer', 'rfid'] as const
export type ChargingMode = (typeof CHARGING_MODES)[number]

/** Station alerts (SPEC §4). */
export const STATION_ALERTS = [
  'stopped', 'mainMeasurementFailure', 'voltageCritical', 'voltageLow', 'gridLock', 'gridThrottle', 'gridOverload',
  'noSolarPower', 'noOptimizedPower', 'offline', 'singlePhaseMode', 'meterFailure', 'peakManagement', 'defaultSocket',
  'reserved',
] as const
export type StationAlert = (typeof STATION_ALERTS)[number]

/** Serious alerts (SPEC §4): offline, meterFailure, mainMeasurementFailure. */
export function isSeriousAlert(alert: string): boolean {
  return alert === 'offline' || alert === 'meterFailure' || alert === 'mainMeasurementFailure'
}
