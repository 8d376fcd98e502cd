import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'
import { asPercent, solarShare, type SessionBucket } from '../../../shared/rules/energy-insights.ts'

/** Above this power (kW) a station's reading counts as the car drawing power (effective charging time). */
export const DRAWING_KW = 0.05

/** A gap between two readings counts for at most this long (ms): a meter that went silent is not charging time. */
const MAX_READING_GAP_S = 15 * 60

/** The figures of one session beside its stored fields (shared/schemas/session.ts). */
export interface SessionInsight {
  /** Percent of the session's kWh from the installation's PV (1 decimal); null without PV meter or measured energy. */
  solar_share: number | null
  /** kWh from PV: solar_share of the session's kWh (2 decimals); null as solar_share. */
  solar_kwh: number | null
  /** Running sessions: seconds the car drew power (readings above DRAWING_KW); null once ended. */
  effective_s: number | null
}

interface SessionRef {
  id: number
  installation_id: number
  station_id: number
  start: Date
  end: Date | null
  energy_kwh: number
}

/**
 * Solar share and effective charging time of `sessions` (one installation), at `now` for running ones
 * (docs/decisions.md "Screens: solar share, ratios, comparisons"). Two statements whatever their number:
 * the station's 15-minute buckets from the session's start up to its end (or `now`), each with the
 * installation's PV, grid, battery and all stations' energy of that bucket (measurements_type_15m); and,
 * for running sessions, the station meter's raw readings (kept 48 h) since the start, each reading above
 * DRAWING_KW counting the time since the previous one (at most 15 minutes).
 */
export async function sessionInsights(db: Db, sessions: SessionRef[], now: Date): Promise<Map<number, SessionInsight>> {
  const out = new Map<number, SessionInsight>()
  if (!sessions.length) return out
  const installationIds = [...new Set(sessions.map((s) => s.installation_id))]
  const withPv = new Set(
    (await db.selectFrom('meters').select('installation_id').distinct().where('installation_id', 'in', installationIds).where('meter_type', '=', 'pv').execute()).map((r) => r.installation_id),
  )
  const ids = sessions.map((s) => s.id)
  const { rows } = await sql<{ session_id: number; station: number; stations: number; pv: number; grid_in: number; grid_out: number; battery_in: number; battery_out: number }>`
    with s as (
      select cs.id, cs.installation_id, cs.start, coalesce(cs."end", ${now}::timestamptz) as until, st.meter_id
      from charging_sessions cs join charging_stations st on st.id = cs.station_id
      where cs.id in (${sql.join(ids)}))
    select s.id as session_id, a.energy_in_kwh as station,
      coalesce(sum(t.energy_in_kwh) filter (where t.meter_type = 'charging_station'), 0) as stations,
      coalesce(sum(t.energy_in_kwh) filter (where t.meter_type = 'pv'), 0) as pv,
      coalesce(sum(t.energy_in_kwh) filter (where t.meter_type = 'main_power'), 0) as grid_in,
      coalesce(sum(t.energy_out_kwh) filter (where t.meter_type = 'main_power'), 0) as grid_out,
      coalesce(sum(t.energy_in_kwh) filter (where t.meter_type = 'battery'), 0) as battery_in,
      coalesce(sum(t.energy_out_kwh) filter (where t.meter_type = 'battery'), 0) as battery_out
    from s
    join measurements_15m a on a.meter_id = s.meter_id
      and a.bucket >= date_bin('15 minutes', s.start, '2000-01-01T00:00:00Z'::timestamptz) and a.bucket < s.until and a.energy_in_kwh > 0
    left join measurements_type_15m t on t.installation_id = s.installation_id and t.bucket = a.bucket
    group by s.id, a.bucket, a.energy_in_kwh`.execute(db)
  const buckets = new Map<number, SessionBucket[]>()
  for (const r of rows) {
    const list = buckets.get(r.session_id) ?? []
    list.push({ station: Number(r.station), stations: Number(r.stations), pv: Number(r.pv), gridIn: Number(r.grid_in), gridOut: Number(r.grid_out), batteryIn: Number(r.battery_in), batteryOut: Number(r.battery_out) })
    buckets.set(r.session_id, list)
  }
  const running = sessions.filter((s) => s.end === null)
  const effective = new Map<number, number>()
  if (running.length) {
    const { rows: eff } = await sql<{ session_id: number; seconds: number | string | null }>`
      with s as (
        select cs.id, cs.start, st.meter_id from charging_sessions cs join charging_stations st on st.id = cs.station_id
        where cs.id in (${sql.join(running.map((s) => s.id))})),
      r as (
        select s.id, m.ts, m.power_kw, coalesce(lag(m.ts) over (partition by s.id order by m.ts), s.start) as prev
        from s join measurements m on m.meter_id = s.meter_id and m.ts > s.start and m.ts <= ${now}::timestamptz)
      select id as session_id, sum(least(extract(epoch from ts - prev), ${MAX_READING_GAP_S})) filter (where power_kw > ${DRAWING_KW}) as seconds
      from r group by id`.execute(db)
    for (const r of eff) effective.set(r.session_id, Math.round(Number(r.seconds ?? 0)))
  }
  for (const s of sessions) {
    const share = withPv.has(s.installation_id) ? solarShare(buckets.get(s.id) ?? []) : null
    out.set(s.id, {
      solar_share: asPercent(share),
      solar_kwh: share === null ? null : Math.round(share * s.energy_kwh * 100) / 100,
      effective_s: s.end === null ? (effective.get(s.id) ?? 0) : null,
    })
  }
  return out
}
