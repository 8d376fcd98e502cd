/**
 * Realistic live payloads for the stub upstream: a residential garage with 50 charging stations, PV,
 * a battery and a main meter. Time advances with the wall clock times `speed` (so a 1 s benchmark poll
 * sees the changes of a 5 s production poll). Each answer of metrics and stations carries an extra
 * `generated_at` (epoch ms, sub-ms precision) set when the answer is built: the upstream change time
 * the benchmark measures latency from. Deterministic (seeded PRNG) apart from timing.
 */
import type { Metrics } from '../../shared/schemas/metrics.ts'
import type { Station } from '../../shared/schemas/station.ts'
import type { ChargingSession } from '../../shared/schemas/session.ts'
import type { EnergyReturn, InstallationInfo } from '../../shared/schemas/installation.ts'
import type { PageOf } from '../../shared/schemas/common.ts'
import { nowMs } from './common.ts'
import { prng } from '../prng.ts'

export const STATION_COUNT = 50

const r2 = (x: number) => Math.round(x * 100) / 100
const clamp = (x: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, x))
const STATUS_CODE: Record<string, number> = { unknown: 0, off: 1, noCar: 2, carPluggedIn: 3, charging: 4, failure: 5, notBadgedIn: 6 }
const MODES = ['instant', 'optimized', 'solar', 'timer', 'rfid'] as const
const CARS = ['Tesla Model 3', 'VW ID.4', 'Skoda Enyaq', 'BMW i4', 'Renault Zoe', 'Hyundai Ioniq 5', 'Polestar 2', 'Kia EV6', 'Audi Q4 e-tron', 'Fiat 500e']
const FIRST = ['Anna', 'Luca', 'Sara', 'Marco', 'Elena', 'Jonas', 'Mia', 'Noah', 'Lea', 'David', 'Nina', 'Tim']
const LAST = ['Meier', 'Keller', 'Brunner', 'Weber', 'Fischer', 'Huber', 'Schmid', 'Baumann', 'Frei', 'Graf']

interface LiveStation {
  s: Station
  /** Unrounded energy of the running session and power. */
  energy: number
  power: number
  sessionId: number | null
}

/** The simulated installation. `speed` = simulated seconds per real second. */
export function createSimulation({ speed, seed = 42, now = nowMs }: { speed: number; seed?: number; now?: () => number }) {
  const rnd = prng(seed)
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]
  const iso = (ms: number) => new Date(ms).toISOString()
  let last = now()
  let simNow = last
  const day0 = new Date(simNow)
  day0.setHours(0, 0, 0, 0)

  const rfids = Array.from({ length: 60 }, (_, i) => ({ id: i + 1, tag: `04A${(0x3b00 + i * 97).toString(16).toUpperCase()}C2E1`, description: `${FIRST[i % FIRST.length]} ${LAST[i % LAST.length]} – ${CARS[i % CARS.length]}`, user_id: 200 + (i % 40) }))

  const stations: LiveStation[] = Array.from({ length: STATION_COUNT }, (_, i) => {
    const id = i + 1
    const level = id <= 25 ? -1 : -2
    const mode = id === 17 || id === 42 ? 'locked' : id === 1 ? 'instant' : pick(MODES)
    const capacity = id % 5 === 0 ? 22 : 11
    const status = mode === 'locked' ? 'off' : id === 33 ? 'failure' : id === 8 ? 'notBadgedIn' : 'noCar'
    const s: Station = {
      id, device_id: `CH-ZH-GRG-${String(id).padStart(3, '0')}`, name: `P${level === -1 ? 'U1' : 'U2'}-${String(((id - 1) % 25) + 1).padStart(2, '0')}`,
      description: `Garage level ${level}, parking space ${((id - 1) % 25) + 1}`, object_id: level === -1 ? 11 : 12, object_type: 'charging_station',
      capacity_kw: capacity, charging_mode: mode, status, status_code: STATUS_CODE[status], alerts: status === 'failure' ? ['offline'] : [],
      rfid_lernmodus: 0, power_kw: 0, energy_kwh: 0, session_start: null, rfid: null, updated_at: iso(simNow - 3600_000 * rnd()),
    }
    return { s, energy: 0, power: 0, sessionId: null }
  })

  let nextSessionId = 5000
  const sessions = new Map<number, ChargingSession>()
  // Today's finished sessions.
  for (let i = 0; i < 22; i++) {
    const st = stations[Math.floor(rnd() * STATION_COUNT)].s
    const rfid = pick(rfids)
    const start = day0.getTime() + rnd() * Math.max(1, simNow - day0.getTime() - 3600_000)
    const high = r2(rnd() * 18)
    const low = r2(rnd() * 6)
    const price = r2(high * 0.295 + low * 0.21)
    const paid = rnd() < 0.3
    const id = nextSessionId++
    sessions.set(id, {
      id, station_id: st.id, station_name: st.name, rfid_id: rfid.id, rfid_tag: rfid.tag, user_id: rfid.user_id, start: iso(start), end: iso(start + 3600_000 * (0.5 + rnd() * 3)),
      energy_kwh: r2(high + low), high_kwh: high, low_kwh: low, price, transaction_fee: 0, total: price, status: paid ? 'paid' : 'unpaid', paid_on: paid ? iso(simNow) : null,
    })
  }

  const isHigh = () => {
    const h = new Date(simNow).getHours()
    return h >= 7 && h < 20
  }

  function startCharging(ls: LiveStation): void {
    const rfid = pick(rfids)
    ls.sessionId = nextSessionId++
    ls.energy = 0
    ls.power = ls.s.charging_mode === 'instant' || ls.s.charging_mode === 'timer' || ls.s.charging_mode === 'rfid' ? ls.s.capacity_kw * 0.97 : 1.4 + rnd() * (ls.s.capacity_kw - 1.4)
    ls.s = { ...ls.s, status: 'charging', status_code: STATUS_CODE.charging, session_start: iso(simNow), rfid: { id: rfid.id, tag: rfid.tag, description: rfid.description }, power_kw: r2(ls.power), energy_kwh: 0, updated_at: iso(simNow) }
    sessions.set(ls.sessionId, {
      id: ls.sessionId, station_id: ls.s.id, station_name: ls.s.name, rfid_id: rfid.id, rfid_tag: rfid.tag, user_id: rfid.user_id, start: iso(simNow), end: null,
      energy_kwh: 0, high_kwh: 0, low_kwh: 0, price: 0, transaction_fee: 0, total: 0, status: 'charging', paid_on: null,
    })
  }

  function stopCharging(ls: LiveStation, leave: boolean): void {
    const sess = ls.sessionId != null ? sessions.get(ls.sessionId) : undefined
    if (sess) sessions.set(sess.id, { ...sess, end: iso(simNow), status: 'unpaid' })
    ls.sessionId = null
    ls.power = 0
    const status = leave ? 'noCar' : 'carPluggedIn'
    ls.s = { ...ls.s, status, status_code: STATUS_CODE[status], power_kw: 0, ...(leave ? { session_start: null, rfid: null, energy_kwh: 0 } : {}), updated_at: iso(simNow) }
    // The 24 h window slides: the oldest finished sessions fall out so the page stays near 30.
    const finished = [...sessions.values()].filter((x) => x.end).sort((a, b) => a.start.localeCompare(b.start))
    while (sessions.size > 30 && finished.length) sessions.delete(finished.shift()!.id)
  }

  // Eight cars charging when the benchmark starts (station 1 among them: it carries generated_at).
  for (const id of [1, 4, 9, 13, 22, 27, 36, 48]) startCharging(stations[id - 1])

  const meters = { pv: 24, building: 14, battery: 0, soc: 62, sourced: 0, consumed: 0, water: 3.1, exported: { today: 18.4, month: 412.7, year: 5230.2 } }
  let infoPolls = 0
  let erPolls = 0
  const info: InstallationInfo = { online: true, offline_since: null, alerts: [] }

  /** Advance the simulation to the present (wall clock × speed). */
  function advance(): void {
    const t = now()
    const dt = Math.min(60, ((t - last) / 1000) * speed)
    last = t
    if (dt <= 0) return
    simNow += dt * 1000
    const f = dt / 5 // 1 = one production metrics step
    const charging = stations.filter((x) => x.sessionId != null)
    // Status changes: a car finishes or leaves, another one starts; around eight charge at once.
    const pStop = 0.015 * f * (charging.length > 10 ? 2 : 1)
    const pStart = 0.004 * f * (charging.length < 6 ? 3 : 1)
    for (const ls of stations) {
      if (ls.s.charging_mode === 'locked' || ls.s.status === 'failure' || ls.s.status === 'notBadgedIn') continue
      if (ls.sessionId != null) {
        if (ls.s.id !== 1 && rnd() < pStop) stopCharging(ls, rnd() < 0.5)
      } else if (ls.s.status === 'carPluggedIn' && rnd() < 0.03 * f) {
        ls.s = { ...ls.s, status: 'noCar', status_code: STATUS_CODE.noCar, session_start: null, rfid: null, energy_kwh: 0, updated_at: iso(simNow) }
      } else if (rnd() < pStart) startCharging(ls)
    }
    // Charging power moves a little (solar and optimized more); energy grows with it.
    let chargingKw = 0
    const high = isHigh()
    for (const ls of stations) {
      if (ls.sessionId == null) continue
      if (rnd() < Math.min(1, 0.85 * f)) {
        const cap = ls.s.capacity_kw
        ls.power = ls.s.charging_mode === 'solar' || ls.s.charging_mode === 'optimized' ? clamp(ls.power + (rnd() - 0.5) * 0.8, 1.4, cap) : clamp(cap * 0.97 + (rnd() - 0.5) * 0.3, 0, cap)
      }
      const kwh = (ls.power * dt) / 3600
      ls.energy += kwh
      chargingKw += ls.power
      const power_kw = r2(ls.power)
      const energy_kwh = r2(ls.energy)
      if (power_kw !== ls.s.power_kw || energy_kwh !== ls.s.energy_kwh) ls.s = { ...ls.s, power_kw, energy_kwh, updated_at: power_kw !== ls.s.power_kw ? iso(simNow) : ls.s.updated_at }
      const sess = sessions.get(ls.sessionId)!
      const hk = sess.high_kwh + (high ? kwh : 0)
      const lk = sess.low_kwh + (high ? 0 : kwh)
      sessions.set(sess.id, { ...sess, energy_kwh: r2(ls.energy), high_kwh: r2(hk), low_kwh: r2(lk), price: r2(hk * 0.295 + lk * 0.21) })
    }
    // Main meters: PV and the building wander, the battery takes the surplus, the grid balances.
    meters.pv = clamp(meters.pv + (rnd() - 0.5) * 3 * Math.sqrt(f), 0, 60)
    meters.building = clamp(meters.building + (rnd() - 0.5) * 1.6 * Math.sqrt(f), 6, 35)
    meters.battery = clamp(meters.pv - meters.building - chargingKw + (rnd() - 0.5), -10, 10)
    meters.soc = clamp(meters.soc + ((meters.battery * dt) / 3600 / 40) * 100, 5, 100)
    const grid = meters.building + chargingKw + meters.battery - meters.pv
    meters.sourced += ((Math.max(0, grid) + meters.pv + Math.max(0, -meters.battery)) * dt) / 3600
    meters.consumed += ((meters.building + chargingKw) * dt) / 3600
    meters.water += 0.0006 * f
  }

  const grid = () => r2(meters.building + stations.reduce((a, x) => a + x.power, 0) + meters.battery - meters.pv)

  return {
    metrics(): Metrics & { generated_at: number } {
      advance()
      const per: Record<string, number> = {}
      let cs = 0
      for (const ls of stations) {
        per[ls.s.id] = r2(ls.power)
        cs += ls.power
      }
      const g = grid()
      return {
        installation_id: 1,
        timestamp: iso(simNow),
        grid: { power_kw: g, import_kw: r2(Math.max(0, g)), export_kw: r2(Math.max(0, -g)) },
        pv: { power_kw: r2(meters.pv), peak_kw: 60 },
        battery: { power_kw: r2(meters.battery), soc: r2(meters.soc), capacity_kwh: 40 },
        building: { power_kw: r2(meters.building) },
        charging_stations: { power_kw: r2(cs), stations: per },
        e_sourced_today: r2(184.2 + meters.sourced),
        consumption_today: r2(151.7 + meters.consumed),
        water: { today_m3: r2(meters.water) },
        generated_at: now(),
      }
    },
    stations(): PageOf<Station> {
      advance()
      const results: Station[] = stations.map((x) => x.s)
      // Station 1 always charges and carries the latency probe: it changes on every poll.
      results[0] = { ...results[0], generated_at: now() } as Station
      return { count: results.length, next: null, previous: null, results }
    },
    sessions(): PageOf<ChargingSession> {
      advance()
      const results = [...sessions.values()].sort((a, b) => b.start.localeCompare(a.start))
      return { count: results.length, next: null, previous: null, results }
    },
    /** Online state and alerts: an alert comes or goes about every 20th poll. */
    info(): InstallationInfo {
      if (++infoPolls % 20 === 0) {
        info.alerts = info.alerts.length ? [] : [{ code: 'gridThrottle', serious: false, since: iso(simNow) }]
      }
      return info
    },
    /** Energy returned to the grid: moves about every 10th poll (2-decimal kWh). */
    energyReturn(): EnergyReturn {
      if (++erPolls % 10 === 0) meters.exported.today += 0.25
      const today = r2(meters.exported.today)
      const day = new Date().toISOString().slice(0, 10)
      return { today_kwh: today, month_kwh: r2(meters.exported.month + today), year_kwh: r2(meters.exported.year + today), month_since: `${day.slice(0, 7)}-01`, year_since: `${day.slice(0, 4)}-01-01` }
    },
  }
}
export type Simulation = ReturnType<typeof createSimulation>
