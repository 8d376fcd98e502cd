/** SPEC §4 status codes the central system sets (shared/rules/status-codes.ts). */
export const OCPP_STATUS_CODE = { ok: 0, evseError: 17, noHeartbeat: 18 } as const

/**
 * OCPP 1.6 ChargePointStatus → the station's SPEC §4 status: Available → noCar, Preparing
 * → carPluggedIn, Charging → charging, SuspendedEV/SuspendedEVSE/Finishing → carPluggedIn (the reason
 * stays in the binding's last_status), Reserved → noCar with the `reserved` alert, Unavailable → off,
 * Faulted → failure with status code 17 and the OCPP error code as an alert.
 */
export function stationStatusOf(status: string, errorCode = 'NoError'): { status: string; status_code: number; alerts: string[] } {
  switch (status) {
    case 'Available':
      return { status: 'noCar', status_code: 0, alerts: [] }
    case 'Preparing':
    case 'SuspendedEV':
    case 'SuspendedEVSE':
    case 'Finishing':
      return { status: 'carPluggedIn', status_code: 0, alerts: [] }
    case 'Charging':
      return { status: 'charging', status_code: 0, alerts: [] }
    case 'Reserved':
      return { status: 'noCar', status_code: 0, alerts: ['reserved'] }
    case 'Unavailable':
      return { status: 'off', status_code: 0, alerts: [] }
    case 'Faulted':
      return { status: 'failure', status_code: OCPP_STATUS_CODE.evseError, alerts: [errorCode] }
    default:
      return { status: 'unknown', status_code: 1, alerts: [] }
  }
}

/**
 * What the station shows of its charge point's reported statuses (OCPP 1.6 §4.9): connector 0's fault or
 * unavailability while it lasts (it concerns every connector), else the bound connector's status; null when
 * neither is known.
 */
export function reportedStatus(c: { last_status: string | null; last_error: string | null; connector0_status: string | null; connector0_error: string | null }): { status: string; errorCode: string } | null {
  if (c.connector0_status === 'Faulted' || c.connector0_status === 'Unavailable') return { status: c.connector0_status, errorCode: c.connector0_error ?? 'NoError' }
  return c.last_status ? { status: c.last_status, errorCode: c.last_error ?? 'NoError' } : null
}
