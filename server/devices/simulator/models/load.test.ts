import { describe, expect, it } from 'vitest'
import { dayjs } from '../../../../shared/rules/formats.ts'
import { apartmentLoadKw, buildingLoadKw, commonAreaLoadKw, householdPersons, SWISS_FLAT_KWH_PER_YEAR } from './load.ts'

const tz = 'Europe/Zurich'
const at = (local: string) => dayjs.tz(local, tz).toDate()

/** Mean apartment load over apartments 0–19 at the same local clock time on several dates. */
function meanAt(dates: string[], clock: string, seed = 1): number {
  let sum = 0
  let n = 0
  for (const date of dates) {
    for (let apartment = 0; apartment < 20; apartment++) {
      sum += apartmentLoadKw({ time: at(`${date} ${clock}`), tz, seed, apartment })
      n++
    }
  }
  return sum / n
}

const weekdays = ['2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13'] // Mon–Fri
const weekends = ['2026-03-07', '2026-03-08', '2026-03-14', '2026-03-15'] // Sat/Sun

describe('apartmentLoadKw', () => {
  it('uses in a year what a Swiss household of its size does (SFOE typical figures)', { timeout: 60_000 }, () => {
    // The demo's seed; hourly samples at a minute that moves, so every part of the hour (and the 10-minute
    // cooking slots) is met over the year.
    for (const seed of [42]) {
      for (let apartment = 0; apartment < 6; apartment++) {
        let kwh = 0
        for (let t = Date.UTC(2026, 0, 1), i = 0; t < Date.UTC(2027, 0, 1); t += 3_600_000, i++) kwh += apartmentLoadKw({ time: new Date(t + ((i * 7) % 60) * 60_000 + 30_000), tz, seed, apartment })
        const typical = SWISS_FLAT_KWH_PER_YEAR[householdPersons(seed, apartment)]
        expect(Math.abs(kwh / typical - 1), `seed ${seed} apartment ${apartment}: ${kwh.toFixed(0)} vs ${typical} kWh`).toBeLessThan(0.05)
      }
    }
  })

  it('keeps the night low (0.1–0.35 kW) and the evening much higher', () => {
    const night = meanAt(weekdays, '03:00')
    const evening = meanAt(weekdays, '19:30')
    expect(night).toBeGreaterThan(0.1)
    expect(night).toBeLessThan(0.35)
    expect(evening).toBeGreaterThan(3 * night)
    expect(meanAt(weekdays, '07:30')).toBeGreaterThan(2 * night)
  })

  it('shifts weekends: quiet at 7:00 on weekends but busy at 7:30 on weekdays, and busier at 15:00', () => {
    expect(meanAt(weekdays, '07:30')).toBeGreaterThan(1.5 * meanAt(weekends, '07:00'))
    expect(meanAt(weekends, '15:00')).toBeGreaterThan(1.3 * meanAt(weekdays, '15:00'))
  })

  it('stays within household bounds over a day and peaks around 2–3 kW', () => {
    let max = 0
    const start = at('2026-01-15 00:00').getTime()
    for (let apartment = 0; apartment < 10; apartment++) {
      for (let m = 0; m < 1440; m += 2) {
        const kw = apartmentLoadKw({ time: new Date(start + m * 60_000), tz, seed: 4, apartment })
        expect(kw).toBeGreaterThanOrEqual(0.05)
        max = Math.max(max, kw)
      }
    }
    expect(max).toBeGreaterThan(1.5)
    expect(max).toBeLessThan(3.5)
  })

  it('moves every 5 seconds but only by a few percent', () => {
    const base = at('2026-03-10 03:00').getTime()
    const values = Array.from({ length: 12 }, (_, i) => apartmentLoadKw({ time: new Date(base + i * 5000), tz, seed: 1, apartment: 0 }))
    expect(new Set(values).size).toBeGreaterThan(6)
    expect(Math.max(...values) / Math.min(...values)).toBeLessThan(1.12)
  })

  it('is reproducible per seed and apartment, and differs between seeds and apartments', () => {
    const time = at('2026-03-10 19:00')
    const a = apartmentLoadKw({ time, tz, seed: 1, apartment: 0 })
    expect(apartmentLoadKw({ time, tz, seed: 1, apartment: 0 })).toBe(a)
    expect(apartmentLoadKw({ time, tz, seed: 2, apartment: 0 })).not.toBe(a)
    expect(apartmentLoadKw({ time, tz, seed: 1, apartment: 1 })).not.toBe(a)
  })
})

describe('commonAreaLoadKw', () => {
  it('stays within ≈ 0.3–2.5 kW and lights up on winter evenings', () => {
    const start = at('2026-12-10 00:00').getTime()
    for (let m = 0; m < 1440; m += 1) {
      const kw = commonAreaLoadKw({ time: new Date(start + m * 60_000), tz, seed: 3 })
      expect(kw).toBeGreaterThan(0.3)
      expect(kw).toBeLessThan(2.5)
    }
    // Same clock time, dark in December and bright in June; average out the lift.
    const mean = (date: string) => {
      const t0 = at(`${date} 18:30`).getTime()
      let sum = 0
      for (let i = 0; i < 60; i++) sum += commonAreaLoadKw({ time: new Date(t0 + i * 30_000), tz, seed: 3 })
      return sum / 60
    }
    expect(mean('2026-12-10')).toBeGreaterThan(mean('2026-06-10') + 0.2)
  })
})

describe('buildingLoadKw', () => {
  it('is the sum of the apartments and the common areas', () => {
    const time = at('2026-03-10 19:00')
    let sum = commonAreaLoadKw({ time, tz, seed: 9 })
    for (let apartment = 0; apartment < 8; apartment++) sum += apartmentLoadKw({ time, tz, seed: 9, apartment })
    expect(buildingLoadKw({ time, tz, seed: 9, apartments: 8 })).toBeCloseTo(sum, 3)
    expect(buildingLoadKw({ time, tz, seed: 9, apartments: 0 })).toBe(commonAreaLoadKw({ time, tz, seed: 9 }))
  })
})
