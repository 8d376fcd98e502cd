import type { Lang } from '../../lib/messages.ts'
import { reasonText, type DisplayReason } from '../../lib/reasons.ts'
import type { StationReason } from '../../../shared/schemas/load-management.ts'
import { STATUS_CODES } from '../../../shared/rules/status-codes.ts'

/** What the load controller stored for a station at its last run (load_limits, migration 0174). */
export interface StoredLimit {
  limit_a: number | null
  reason: string
  params: Record<string, string | number>
  until: Date | null
  status_code: number | null
  alerts: string[]
}

/** The station as far as its reason depends on it (SPEC §4 status, alerts, mode). */
export interface StationForReason {
  status: string | null
  alerts: string[]
  charging_mode: string
  power_kw: number
}

/** "HH:mm" of `at` in time zone `tz` (the reason's `until` as a resident reads it). */
export function localTime(at: Date, tz: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at)
}

/**
 * Why a station charges as it does (docs/decisions.md "Load management: model, controller and reasons"):
 * first what the station itself says (disabled, faulted, offline, waiting for a badge, no car), then the
 * load controller's reason from its last run (`limit`, when load management runs), else what the mode's
 * alerts say. The text is in `lang`, times in the installation's zone `tz`.
 */
export function stationReason(s: StationForReason, limit: StoredLimit | null, tz: string, lang: Lang): StationReason {
  const out = (code: DisplayReason, given: Record<string, string | number> = {}, until: Date | null = null): StationReason => {
    const params = { ...given, ...(until ? { time: localTime(until, tz) } : {}) }
    return { code, text: reasonText(code, lang, params), until: until ? until.toISOString() : null, params }
  }
  if (s.charging_mode === 'locked' || s.status === 'off') return out('station_locked')
  if (s.status === 'failure') return out('charger_fault')
  if (s.status === 'unknown' || s.status === null || s.alerts.includes('offline')) return out('charger_offline')
  if (s.status === 'notBadgedIn') return out('waiting_for_badge')
  if (s.status === 'noCar') return out('no_car')
  if (limit && limit.reason !== 'load_management_off') {
    const params = { ...limit.params, ...(limit.limit_a !== null ? { amps: limit.limit_a } : {}) }
    // Allowed to charge, yet drawing nothing: the car decided (paused or full).
    if ((limit.reason === 'ok' || limit.reason === 'fallback_static') && s.power_kw <= 0 && (limit.limit_a ?? 1) > 0) return out('car_paused')
    return out(limit.reason as DisplayReason, params, limit.until)
  }
  if (s.status === 'charging') return out('charging')
  if (s.alerts.includes('noSolarPower')) return out('no_solar_power')
  if (s.alerts.includes('noOptimizedPower')) return out('no_optimized_power')
  return out('car_paused')
}

/**
 * The station's status code and alerts with the controller's merged in: its load-management code
 * (SPEC §4: 13–15, 19, 20, 22–25) shows while the device reports everything OK (0), and its alerts
 * (gridThrottle, gridOverload, peakManagement) join the device's. A code of 0 beside an alert that says
 * why the car is waiting becomes that alert's condition (SPEC §4: noSolarPower → PV_CONDITIONS_NOT_MET,
 * 10; noOptimizedPower → OPTIMIZED_CONDITIONS_NOT_MET, 11), so the status tab never says "Everything OK"
 * next to it.
 */
export function mergedState(device: { status_code: number; alerts: string[] }, limit: StoredLimit | null): { status_code: number; alerts: string[] } {
  const alerts = limit ? [...device.alerts, ...limit.alerts.filter((a) => !device.alerts.includes(a))] : device.alerts
  let code = device.status_code
  if (code === 0 && limit?.status_code != null) code = limit.status_code
  if (code === 0 && alerts.includes('noSolarPower')) code = STATUS_CODES.indexOf('PV_CONDITIONS_NOT_MET')
  if (code === 0 && alerts.includes('noOptimizedPower')) code = STATUS_CODES.indexOf('OPTIMIZED_CONDITIONS_NOT_MET')
  return { status_code: code, alerts }
}
