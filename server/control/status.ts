/**
 * The SPEC §4 load-management status codes the controller sets (shared/rules/status-codes.ts order,
 * docs/decisions.md "Load management: model, controller and reasons").
 */
export const LOAD_STATUS = {
  /** 12: the power peak (peak shaving) holds the station below its maximum. */
  peakControl: 12,
  /** 13: the limit went up this round. */
  increasing: 13,
  /** 14: the limit went down this round. */
  decreasing: 14,
  /** 15: charging below the station's maximum because of a limit. */
  reduced: 15,
  /** 19: the controller holds a car that wants energy at 0 A (its turn, a higher priority). */
  masterControl: 19,
  /** 20: the charge point did not take the last charging profile (failed, rejected). */
  timeout: 20,
  /** 22: no grid reading: static shares instead of control. */
  notWorking: 22,
  /** 23: circuits are configured but the station is on none (it hangs on the connection). */
  notInMaster: 23,
  /** 24: load management is configured but switched off. */
  fuseInactive: 24,
  /** 25: the controller failed for the installation (its settings could not be applied). */
  configError: 25,
} as const

/** Reasons that mean the grid connection or a circuit holds the station back. */
const THROTTLING = new Set(['grid_limit_shared', 'circuit_limit', 'waiting_for_turn', 'higher_priority', 'fallback_static', 'peak_shaving'])

/**
 * The status code of one station after a round, or null (nothing to say: 0 from the device stands).
 * Precedence: no reading (22), a refused profile (20), a change (13/14), held at 0 (19), reduced (15; 12
 * when the power peak of peak shaving holds it), not in a circuit (23).
 */
export function loadStatus(s: { charging: boolean; limitA: number; previousA: number | null; maxA: number; reason: string; noReading: boolean; inCircuit: boolean; commandFailed: boolean }): number | null {
  if (s.noReading) return LOAD_STATUS.notWorking
  if (s.commandFailed) return LOAD_STATUS.timeout
  if (s.charging) {
    if (s.previousA !== null && s.limitA > s.previousA) return LOAD_STATUS.increasing
    if (s.previousA !== null && s.limitA < s.previousA) return LOAD_STATUS.decreasing
    if (s.limitA === 0 && THROTTLING.has(s.reason)) return LOAD_STATUS.masterControl
    if (s.limitA > 0 && s.limitA < s.maxA && THROTTLING.has(s.reason)) return s.reason === 'peak_shaving' ? LOAD_STATUS.peakControl : LOAD_STATUS.reduced
  }
  if (!s.inCircuit) return LOAD_STATUS.notInMaster
  return null
}

/**
 * The SPEC §4 alerts of one station after a round: gridThrottle while a car is held below its maximum by
 * the connection or a circuit; gridOverload while the grid meter reads above the connection's limit;
 * peakManagement while the kW limit (a power peak) is the one that holds it back, or while peak shaving
 * acts (`peakActing`: the battery discharges for import above the peak).
 */
export function loadAlerts(s: { charging: boolean; limitA: number; maxA: number; reason: string; overload: boolean; peak: boolean; peakActing?: boolean }): string[] {
  if (!s.charging) return []
  const out: string[] = []
  const throttled = s.limitA < s.maxA && THROTTLING.has(s.reason)
  if (throttled) out.push('gridThrottle')
  if (s.overload) out.push('gridOverload')
  if ((throttled && s.peak && s.reason !== 'circuit_limit') || s.peakActing) out.push('peakManagement')
  return out
}
