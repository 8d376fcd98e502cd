import { describe, expect, it } from 'vitest'
import type { Equipment } from '../../domain/devices/service.ts'
import { BATTERY, step, timerMode, type SimState } from './physics.ts'

function equipment(modes: string[], timers: Equipment['timers'] = []): Equipment {
  return {
    installation: { id: 1, timezone: 'Europe/Zurich', latitude: 47.3769, longitude: 8.5417 },
    meters: [
      { id: 1, meter_type: 'main_power', object_id: 1, capacity: null },
      { id: 2, meter_type: 'pv', object_id: 1, capacity: 30 },
      { id: 3, meter_type: 'battery', object_id: 1, capacity: 20 },
      { id: 4, meter_type: 'cold_water', object_id: 10, capacity: null },
      { id: 5, meter_type: 'heat', object_id: 10, capacity: null },
      ...modes.map((_, i) => ({ id: 100 + i, meter_type: 'charging_station' as const, object_id: 1, capacity: 11 })),
    ],
    apartments: [10, 11, 12, 13, 14, 15],
    stations: modes.map((mode, i) => ({ id: i + 1, meter_id: 100 + i, capacity_kw: 11, charging_mode: mode, status: null, current_session_id: null })),
    rfids: modes.map((_, i) => ({ id: i + 1, user_id: null })),
    timers,
  }
}

/** Run a day in 5-minute steps from `start`; returns every step's result. */
function runDay(eq: Equipment, seed: number, start: string, opts: { highTariff?: (t: Date) => boolean } = {}) {
  const state: SimState = { soc: 50, cars: new Map() }
  const out = []
  for (let m = 5; m <= 24 * 60; m += 5) {
    const t = new Date(new Date(start).getTime() + m * 60_000)
    out.push({ t, ...step(eq, state, t, 300, { seed, highTariff: opts.highTariff?.(t) ?? false }) })
  }
  return out
}

const ALL = ['instant', 'optimized', 'solar', 'timer', 'rfid', 'locked']

describe('simulator step', () => {
  it('is deterministic for a seed and a clock, and differs for another seed', () => {
    const a = runDay(equipment(ALL), 42, '2026-06-10T22:00:00Z')
    const b = runDay(equipment(ALL), 42, '2026-06-10T22:00:00Z')
    const c = runDay(equipment(ALL), 43, '2026-06-10T22:00:00Z')
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
    expect(JSON.stringify(a)).not.toBe(JSON.stringify(c))
  })

  it('meters each flat\'s own consumption: flats\' meters measure part of the building load, every step', () => {
    const eq = equipment(ALL)
    eq.meters.push(...eq.apartments.map((a, i) => ({ id: 200 + i, meter_type: 'power' as const, object_id: a, capacity: null })))
    let flats = 0
    for (const s of runDay(eq, 42, '2026-06-10T22:00:00Z')) {
      const own = s.readings.filter((r) => r.meter_id >= 200)
      expect(own).toHaveLength(6)
      const kw = own.reduce((a, r) => a + r.power_kw, 0)
      expect(kw).toBeGreaterThan(0.05 * 6 - 1e-9)
      // The rest of the building (common areas) is at least the ventilation's 0.3 kW.
      expect(s.buildingKw - kw).toBeGreaterThan(0.3)
      for (const r of own) expect(r.energy_in_kwh).toBeCloseTo(r.power_kw * (300 / 3600), 4)
      flats += own.reduce((a, r) => a + r.energy_in_kwh, 0)
    }
    // A day of six households: a few kWh each (Swiss flats use roughly 6–10 kWh a day).
    expect(flats / 6).toBeGreaterThan(3)
    expect(flats / 6).toBeLessThan(20)
  })

  it('balances power: grid = building + charging + battery − PV, every step', () => {
    for (const r of runDay(equipment(ALL), 1, '2026-06-10T22:00:00Z')) {
      const charging = r.stations.reduce((s, o) => s + o.powerKw, 0)
      expect(r.gridKw).toBeCloseTo(r.buildingKw + charging + r.batteryKw - r.pvKw, 6)
    }
  })

  it('carries a real charger\'s power behind the main meter: the grid imports it once the battery is at its limit, and the building keeps its load', () => {
    const eq = equipment(['locked'])
    const t = new Date('2026-03-04T02:00:00Z')
    const without = step(eq, { soc: 50, cars: new Map() }, t, 60, { seed: 7, highTariff: false })
    const withCharger = step(eq, { soc: 50, cars: new Map() }, t, 60, { seed: 7, highTariff: false, externalKw: 11 })
    expect(withCharger.buildingKw).toBeCloseTo(without.buildingKw, 12)
    // Consumption = grid + PV − battery = building + simulated charging + the real charger's 11 kW.
    expect(withCharger.gridKw + withCharger.pvKw - withCharger.batteryKw).toBeCloseTo(withCharger.buildingKw + 11, 9)
    expect(withCharger.batteryKw).toBe(-BATTERY.maxKw)
    const main = withCharger.readings.find((r) => r.meter_id === 1)!
    expect(main.energy_in_kwh).toBeCloseTo(((withCharger.buildingKw + 11 - BATTERY.maxKw) * 60) / 3600, 9)
  })

  it('produces PV by day only, and exports or charges the battery at a sunny noon', () => {
    const day = runDay(equipment(ALL), 1, '2026-06-10T22:00:00Z')
    const local = (r: { t: Date }) => r.t.getUTCHours() + 2
    expect(day.filter((r) => local(r) % 24 < 4).every((r) => r.pvKw === 0)).toBe(true)
    expect(Math.max(...day.map((r) => r.pvKw))).toBeGreaterThan(5)
  })

  it('keeps the battery within its SoC window and power limit', () => {
    for (const start of ['2026-06-10T22:00:00Z', '2026-12-10T23:00:00Z']) {
      for (const r of runDay(equipment(ALL), 3, start)) {
        expect(r.soc).toBeGreaterThanOrEqual(BATTERY.minSoc - 0.01)
        expect(r.soc).toBeLessThanOrEqual(BATTERY.maxSoc + 0.01)
        expect(Math.abs(r.batteryKw)).toBeLessThanOrEqual(BATTERY.maxKw + 1e-9)
      }
    }
  })

  it('never charges a locked station, and shows it off', () => {
    for (const r of runDay(equipment(['locked']), 5, '2026-06-10T22:00:00Z')) {
      expect(r.stations[0]).toMatchObject({ powerKw: 0, status: 'off' })
    }
  })

  it('charges a solar station only from surplus, and an instant one at full power', () => {
    let solarCharged = 0
    let instantFull = 0
    for (let seed = 1; seed <= 6; seed++) {
      for (const r of runDay(equipment(['solar', 'instant']), seed, '2026-06-12T22:00:00Z')) {
        const [solar, instant] = r.stations
        if (solar.powerKw > 0) {
          solarCharged++
          expect(solar.powerKw).toBeLessThanOrEqual(r.pvKw - r.buildingKw + 1e-6)
        }
        if (instant.status === 'charging' && instant.powerKw === 11) instantFull++
      }
    }
    expect(solarCharged).toBeGreaterThan(0)
    expect(instantFull).toBeGreaterThan(0)
  })

  it('charges an optimized station at full power in low tariff but not from the grid in high tariff', () => {
    const night = runDay(equipment(['optimized']), 2, '2026-12-10T23:00:00Z', { highTariff: () => false })
    expect(night.some((r) => r.stations[0].powerKw === 11)).toBe(true)
    const highDay = runDay(equipment(['optimized']), 2, '2026-12-10T23:00:00Z', { highTariff: () => true })
    for (const r of highDay) if (r.stations[0].powerKw > 0) expect(r.stations[0].powerKw).toBeLessThanOrEqual(r.pvKw - r.buildingKw + 1e-6)
  })

  it('gives cars arriving and leaving with the SPEC §4 statuses', () => {
    const statuses = new Set<string>()
    for (let seed = 1; seed <= 8; seed++) for (const r of runDay(equipment(ALL), seed, '2026-06-10T22:00:00Z')) for (const o of r.stations) statuses.add(o.status)
    for (const s of ['noCar', 'charging', 'carPluggedIn', 'off']) expect(statuses).toContain(s)
  })
})

describe('timer mode', () => {
  const timers = [
    { object_id: 4, days: [true, true, true, true, true, true, true], start_time: '22:00', charging_mode: 'instant' },
    { object_id: 4, days: [true, true, true, true, true, true, true], start_time: '06:30', charging_mode: 'solar' },
  ]
  it('follows the timer that started most recently', () => {
    expect(timerMode(timers, 4, 0, 23 * 60).mode).toBe('instant')
    expect(timerMode(timers, 4, 1, 3 * 60).mode).toBe('instant')
    expect(timerMode(timers, 4, 1, 12 * 60).mode).toBe('solar')
  })
  it('falls back to optimized without timers, and looks across days that do not repeat', () => {
    expect(timerMode([], 4, 0, 600)).toEqual({ mode: 'optimized', byTimer: false })
    const mondayOnly = [{ object_id: 4, days: [true, false, false, false, false, false, false], start_time: '08:00', charging_mode: 'locked' }]
    expect(timerMode(mondayOnly, 4, 3, 600).mode).toBe('locked')
  })

  it('under peak shaving\'s command the battery covers only the import above the peak, and keeps its charge below it', () => {
    // Wednesday 4 March 2026 at 19:00 in Zürich: dark, the building's evening load, no car.
    const t = new Date('2026-03-04T18:00:00Z')
    const own = step(equipment([]), { soc: 50, cars: new Map() }, t, 5, { seed: 42, highTariff: true })
    // Its own operation: it covers the whole deficit.
    expect(own.batteryKw).toBeCloseTo(-own.buildingKw, 3)
    expect(own.gridKw).toBeCloseTo(0, 3)
    const peak = own.buildingKw / 2
    const commanded = { ...equipment([]), battery_command: { peak_kw: peak } }
    const state = { soc: 50, cars: new Map() }
    const shaved = step(commanded, state, t, 5, { seed: 42, highTariff: true })
    expect(shaved.gridKw).toBeCloseTo(peak, 3)
    expect(shaved.batteryKw).toBeCloseTo(-(own.buildingKw - peak), 3)
    // Under the peak it does not discharge at all.
    const under = step({ ...commanded, battery_command: { peak_kw: own.buildingKw + 5 } }, { soc: 50, cars: new Map() }, t, 5, { seed: 42, highTariff: true })
    expect(under.batteryKw).toBeCloseTo(0, 6)
    expect(under.gridKw).toBeCloseTo(own.buildingKw, 3)
  })
})
