import type { Equipment } from '../../domain/devices/service.ts'
import type { ChargingMode, StationStatus } from '../../../shared/rules/status.ts'
import { minutesOf } from '../../../shared/rules/tariff.ts'
import { pvPowerKw } from './models/pv.ts'
import { apartmentLoadKw, commonAreaLoadKw } from './models/load.ts'
import { carVisits, type CarVisit } from './models/cars.ts'
import { heatPowerKw, waterFlowLitresPerMinute } from './models/water-heat.ts'
import { addDays } from './models/local-clock.ts'
import { localClock } from './models/local-clock.ts'
import { hash01 } from './models/random.ts'

/** Battery limits: charge/discharge power and the state-of-charge window, %. */
export const BATTERY = { maxKw: 10, minSoc: 10, maxSoc: 95, efficiency: 0.95 } as const
/** Below this a station does not start charging (6 A on one phase). */
export const MIN_CHARGE_KW = 1.4

/** A car at a station as the simulator tracks it. */
export interface Car {
  visit: CarVisit
  deliveredKwh: number
  /** Accepted badge: the RFID, or null when charging without a badge. */
  rfid: { id: number; user_id: number | null } | null
  /** Refused: unknown card, or no badge at a station that requires one. */
  refused: boolean
  sessionId: number | null
}

export interface SimState {
  soc: number
  cars: Map<number, Car | null>
  /**
   * Demo control: a guest car an admin plugged in by hand at a station (station id → visit);
   * it replaces the scheduled visit while it lasts.
   */
  guests?: Map<number, CarVisit>
}

export interface StationOutput {
  stationId: number
  status: StationStatus
  statusCode: number
  alerts: string[]
  powerKw: number
  energyKwh: number
  mode: ChargingMode
  car: Car | null
  arrived: boolean
  departed: Car | null
}

/** One step's readings: meter deltas over the step and the station outputs. */
export interface StepResult {
  pvKw: number
  buildingKw: number
  batteryKw: number
  gridKw: number
  soc: number
  stations: StationOutput[]
  readings: { meter_id: number; power_kw: number; energy_in_kwh: number; energy_out_kwh: number; soc: number | null; volume_m3: number }[]
}

const visitCache = new Map<string, CarVisit[]>()
function visitsOn(date: string, tz: string, seed: number, station: number): CarVisit[] {
  const key = `${seed}|${tz}|${station}|${date}`
  let v = visitCache.get(key)
  if (!v) {
    if (visitCache.size > 5000) visitCache.clear()
    v = carVisits({ date, tz, seed, station })
    visitCache.set(key, v)
  }
  return v
}

/** The visit in progress at `t` at station index `station`, if any. */
export function visitAt(t: Date, tz: string, seed: number, station: number): CarVisit | null {
  const today = localClock(t, tz).date
  for (const date of [addDays(today, -1), today]) {
    for (const v of visitsOn(date, tz, seed, station)) if (v.arrive <= t && t < v.depart) return v
  }
  return null
}

/** Hours of `window` that `visit` is plugged in. */
function presentHours(visit: CarVisit, [from, to]: [Date, Date]): number {
  const start = Math.max(from.getTime(), visit.arrive.getTime())
  const end = Math.min(to.getTime(), visit.depart.getTime())
  return Math.max(0, end - start) / 3_600_000
}

/**
 * The charging mode a station in timer mode follows: the timer whose start passed most recently (over
 * the last week) on a day it repeats; optimized when the station has no timer.
 */
export function timerMode(timers: Equipment['timers'], stationId: number, weekday: number, minute: number): { mode: ChargingMode; byTimer: boolean } {
  let best: { elapsed: number; mode: string } | null = null
  for (const timer of timers) {
    if (timer.object_id !== stationId) continue
    const start = minutesOf(timer.start_time)
    for (let back = 0; back < 8; back++) {
      const day = (weekday - back + 70) % 7
      if (!timer.days[day]) continue
      const elapsed = back * 1440 + minute - start
      if (elapsed < 0) continue
      if (!best || elapsed < best.elapsed) best = { elapsed, mode: timer.charging_mode }
      break
    }
  }
  return best ? { mode: best.mode as ChargingMode, byTimer: true } : { mode: 'optimized', byTimer: false }
}

/**
 * Advance the facility by `dtSeconds` ending at `t`. Pure apart from `state` (battery SoC and
 * the cars), which it updates. PV from the sun and clouds, household and common-area load, cars arriving
 * and leaving, stations charging per mode (instant and rfid at full power; optimized at full power in low
 * tariff, else on surplus; solar on surplus only; locked never), battery absorbing surplus and covering
 * deficit within its SoC window (only the import above the peak under peak shaving's `battery_command`), the grid taking the rest; water and heat per apartment. `window` is the
 * interval the step stands for (default: the `dtSeconds` before `t`): a car charges only for the part of
 * it that it is plugged in (a car arriving in the middle of a 15-minute backfill step gets
 * that part of the step, so no session exceeds station power × time). `externalKw` is load behind the main
 * meter that the simulator does not run (real charge points' reported power): the surplus, the battery
 * and the grid see it like the building's own load, so the simulated main meter imports what a real
 * charger draws (docs/decisions.md "Simulator: real chargers inside the simulated balance").
 */
export function step(eq: Equipment, state: SimState, t: Date, dtSeconds: number, opts: { seed: number; highTariff: boolean; window?: [Date, Date]; externalKw?: number }): StepResult {
  const { seed } = opts
  const tz = eq.installation.timezone
  const h = dtSeconds / 3600
  const window: [Date, Date] = opts.window ?? [new Date(t.getTime() - dtSeconds * 1000), t]
  const local = localClock(t, tz)
  const meter = (type: string) => eq.meters.find((m) => m.meter_type === type)
  const pvMeter = meter('pv')
  const batteryMeter = meter('battery')
  const pvKw = pvMeter ? pvPowerKw({ time: t, lat: eq.installation.latitude, lon: eq.installation.longitude, peakKw: pvMeter.capacity ?? 0, seed }) : 0
  const apartmentKw = eq.apartments.map((_a, i) => apartmentLoadKw({ time: t, tz, seed, apartment: i }))
  const buildingKw = apartmentKw.reduce((sum, kw) => sum + kw, 0) + commonAreaLoadKw({ time: t, tz, seed })

  // Stations: full-power modes first, then surplus modes share what PV leaves over the building.
  const plans = eq.stations.map((s, index) => {
    let car = state.cars.get(s.id) ?? null
    let departed: Car | null = null
    let arrived = false
    const guest = state.guests?.get(s.id)
    if (guest && t >= guest.depart) state.guests!.delete(s.id)
    const visit = guest && guest.arrive <= t && t < guest.depart ? guest : visitAt(t, tz, seed, index)
    if (car && (!visit || car.visit.arrive.getTime() !== visit.arrive.getTime())) {
      departed = car
      car = null
    }
    if (!car && visit) {
      const resident = visit.rfidId !== undefined ? (eq.rfids.find((r) => r.id === visit.rfidId) ?? null) : (eq.rfids[index % Math.max(1, eq.rfids.length)] ?? null)
      // A card limited to other stations (per-station permissions) is refused here like an unknown one.
      const allowed = resident && (!resident.station_ids || resident.station_ids.includes(s.id))
      const byRfid = visit.badge === 'resident' && resident && allowed ? { id: resident.id, user_id: resident.user_id } : null
      car = { visit, deliveredKwh: 0, rfid: byRfid, refused: visit.badge === 'unknown' || (visit.badge === 'resident' && !!resident && !allowed), sessionId: null }
      arrived = true
    }
    state.cars.set(s.id, car)
    const configured = s.charging_mode as ChargingMode
    const mode = configured === 'timer' ? timerMode(eq.timers, s.id, local.weekday, local.minute).mode : configured
    if (car && mode === 'rfid' && !car.rfid) car.refused = true
    return { s, index, car, departed, arrived, mode }
  })
  // A rare fault for an hour, so the error display is seen.
  const faulty = (index: number) => hash01(seed, 'fault', index, local.date, Math.floor(local.minute / 60)) < 0.004

  const externalKw = Math.max(0, opts.externalKw ?? 0)
  let surplus = pvKw - buildingKw - externalKw
  const outputs: StationOutput[] = []
  const order = [...plans].sort((a, b) => Number(['solar', 'optimized'].includes(a.mode)) - Number(['solar', 'optimized'].includes(b.mode)))
  for (const p of order) {
    const { s, car, mode } = p
    let status: StationStatus = 'noCar'
    let powerKw = 0
    const alerts: string[] = []
    let statusCode = 0
    let energyKwh = 0
    if (mode === 'locked') status = 'off'
    else if (faulty(p.index)) {
      status = 'failure'
      statusCode = 17
      alerts.push('offline')
    } else if (car) {
      const need = car.visit.energyNeededKwh - car.deliveredKwh
      if (car.refused) status = 'notBadgedIn'
      else if (need <= 0.01) status = 'carPluggedIn'
      else {
        let want = 0
        if (mode === 'instant' || mode === 'rfid' || (mode === 'optimized' && !opts.highTariff)) want = s.capacity_kw
        else if (mode === 'solar' || mode === 'optimized') {
          want = Math.min(s.capacity_kw, Math.max(0, surplus))
          if (want < MIN_CHARGE_KW) {
            want = 0
            alerts.push(mode === 'solar' ? 'noSolarPower' : 'noOptimizedPower')
          }
        }
        const present = presentHours(car.visit, window)
        want = present > 0 ? Math.min(want, need / present) : 0
        powerKw = Math.round(want * 1000) / 1000
        surplus -= powerKw
        status = powerKw > 0 ? 'charging' : 'carPluggedIn'
        energyKwh = powerKw * present
        car.deliveredKwh += energyKwh
      }
    }
    outputs.push({ stationId: s.id, status, statusCode, alerts, powerKw, energyKwh, mode, car, arrived: p.arrived, departed: p.departed })
  }
  outputs.sort((a, b) => a.stationId - b.stationId)
  const chargingKw = outputs.reduce((sum, o) => sum + o.powerKw, 0)

  // Battery: absorb surplus, cover deficit, within power and SoC limits. Under peak shaving's command
  // (docs/load-management.md "Peak shaving") it covers only the import above the peak, keeping its
  // charge for the peaks, as a battery's own peak-shaving mode does between the controller's rounds.
  let batteryKw = 0
  const capacity = batteryMeter?.capacity ?? 0
  if (capacity > 0) {
    const net = pvKw - buildingKw - chargingKw - externalKw
    const cover = eq.battery_command ? Math.max(0, -net - eq.battery_command.peak_kw) : -net
    if (net > 0) batteryKw = Math.min(net, BATTERY.maxKw, (((BATTERY.maxSoc - state.soc) / 100) * capacity) / h / BATTERY.efficiency)
    else batteryKw = -Math.min(cover, BATTERY.maxKw, (((state.soc - BATTERY.minSoc) / 100) * capacity) / h)
    batteryKw = Math.max(-BATTERY.maxKw, Math.min(BATTERY.maxKw, batteryKw))
    const stored = batteryKw > 0 ? batteryKw * h * BATTERY.efficiency : batteryKw * h
    state.soc = Math.min(100, Math.max(0, state.soc + (stored / capacity) * 100))
  }
  const gridKw = buildingKw + chargingKw + externalKw + batteryKw - pvKw

  const readings: StepResult['readings'] = []
  const r3 = (x: number) => Math.round(x * 1000) / 1000
  const push = (meter_id: number, power_kw: number, energy_in_kwh = 0, energy_out_kwh = 0, soc: number | null = null, volume_m3 = 0) =>
    readings.push({ meter_id, power_kw: r3(power_kw), energy_in_kwh, energy_out_kwh, soc, volume_m3 })
  const main = meter('main_power')
  if (main) push(main.id, gridKw, Math.max(0, gridKw) * h, Math.max(0, -gridKw) * h)
  if (pvMeter) push(pvMeter.id, pvKw, pvKw * h)
  if (batteryMeter) push(batteryMeter.id, batteryKw, Math.max(0, batteryKw) * h, Math.max(0, -batteryKw) * h, Math.round(state.soc * 10) / 10)
  for (const o of outputs) {
    const s = eq.stations.find((x) => x.id === o.stationId)!
    push(s.meter_id, o.powerKw, o.energyKwh)
  }
  const minutes = dtSeconds / 60
  for (const m of eq.meters) {
    const apartment = eq.apartments.indexOf(m.object_id ?? -1)
    if (apartment < 0) continue
    if (m.meter_type === 'cold_water' || m.meter_type === 'hot_water') {
      const lpm = waterFlowLitresPerMinute({ time: t, tz, seed, apartment, kind: m.meter_type === 'cold_water' ? 'cold' : 'hot' })
      push(m.id, 0, 0, 0, null, (lpm * minutes) / 1000)
    } else if (m.meter_type === 'heat') {
      const kw = heatPowerKw({ time: t, tz, seed, apartment })
      push(m.id, kw, kw * h)
    } else if (m.meter_type === 'power') {
      // A flat's own electricity meter measures the household load that is part of the building's
      // (each ZEV participant is billed on its own consumption).
      push(m.id, apartmentKw[apartment], apartmentKw[apartment] * h)
    }
  }
  return { pvKw, buildingKw, batteryKw, gridKw, soc: state.soc, stations: outputs, readings }
}
