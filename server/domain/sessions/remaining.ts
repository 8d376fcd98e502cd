import type { Db } from '../../db/connection.ts'

/** Below this a station draws nothing (its readings' noise), kW: the same bound as the effective time's. */
const DRAWING_KW = 0.05

/**
 * The seconds a running session still needs to reach its charge plan (SPEC §4 charging modes; shared/
 * schemas/session.ts `remaining_s`; docs/load-management.md "Charge plans"), by session id, from the load
 * controller's last plan of it (charge_plans `window_session_id`, `remaining_kwh`, `slots`):
 * - the plan is met: 0;
 * - the car draws now: the kWh still missing at the station's current power;
 * - it waits (a later low-tariff or solar slot): until the end of the last planned slot, when the plan
 *   is reachable.
 * Sessions without a plan the controller planned, and ended ones, are absent (their `remaining_s` is null).
 */
export async function planRemaining(db: Db, sessions: readonly { id: number; station_id: number; end: Date | null }[], now: Date): Promise<Map<number, number>> {
  const out = new Map<number, number>()
  const running = sessions.filter((s) => s.end === null)
  if (!running.length) return out
  const rows = await db.selectFrom('charge_plans as p').innerJoin('charging_stations as s', 's.current_session_id', 'p.window_session_id')
    .select(['p.window_session_id', 'p.remaining_kwh', 'p.reachable', 'p.slots', 's.power_kw'])
    .where('p.window_session_id', 'in', running.map((s) => s.id)).where('p.remaining_kwh', 'is not', null).execute()
  for (const r of rows) {
    const id = r.window_session_id!
    const kwh = r.remaining_kwh!
    if (kwh <= 0) out.set(id, 0)
    else if (r.power_kw > DRAWING_KW) out.set(id, Math.round((kwh / r.power_kw) * 3600))
    else if (r.reachable) {
      const slots = (typeof r.slots === 'string' ? JSON.parse(r.slots) : r.slots) as { end: string }[]
      const last = slots.length ? Date.parse(slots[slots.length - 1].end) : NaN
      if (Number.isFinite(last)) out.set(id, Math.max(0, Math.round((last - now.getTime()) / 1000)))
    }
  }
  return out
}
