import { describe, expect, it } from 'vitest'
import { dayjs } from '../../../../shared/rules/formats.ts'
import { heatPowerKw, outdoorTempC, waterFlowLitresPerMinute } from './water-heat.ts'

const tz = 'Europe/Zurich'
const at = (local: string) => dayjs.tz(local, tz).toDate()

/** Litres through one apartment's meters over one local day, integrated in 1-minute steps. */
function dayLitres(date: string, apartment: number, seed = 1): { cold: number; hot: number } {
  const start = at(`${date} 00:00`).getTime()
  let cold = 0
  let hot = 0
  for (let m = 0; m < 1440; m++) {
    const time = new Date(start + m * 60_000)
    cold += waterFlowLitresPerMinute({ time, tz, seed, apartment, kind: 'cold' })
    hot += waterFlowLitresPerMinute({ time, tz, seed, apartment, kind: 'hot' })
  }
  return { cold, hot }
}

/** Mean over the local days of a month of a value sampled every 30 minutes. */
function monthMean(month: string, f: (time: Date) => number): number {
  let sum = 0
  let n = 0
  for (let d = 1; d <= 28; d++) {
    const start = at(`${month}-${String(d).padStart(2, '0')} 00:00`).getTime()
    for (let m = 0; m < 1440; m += 30) {
      sum += f(new Date(start + m * 60_000))
      n++
    }
  }
  return sum / n
}

describe('outdoorTempC', () => {
  it('follows a Zürich-like season: ≈ 1 °C in January, ≈ 19 °C in July', () => {
    const january = monthMean('2026-01', (t) => outdoorTempC(t, tz, 1))
    const july = monthMean('2026-07', (t) => outdoorTempC(t, tz, 1))
    expect(january).toBeGreaterThan(-4)
    expect(january).toBeLessThan(5)
    expect(july).toBeGreaterThan(15)
    expect(july).toBeLessThan(23)
  })

  it('is coldest around dawn and warmest mid-afternoon', () => {
    let colder = 0
    for (let d = 1; d <= 28; d++) {
      const date = `2026-05-${String(d).padStart(2, '0')}`
      if (outdoorTempC(at(`${date} 06:00`), tz, 2) < outdoorTempC(at(`${date} 15:00`), tz, 2) - 4) colder++
    }
    expect(colder).toBe(28)
  })

  it('varies from day to day and between seeds, reproducibly', () => {
    const noons = Array.from({ length: 10 }, (_, i) => outdoorTempC(at(`2026-02-${String(i + 1).padStart(2, '0')} 12:00`), tz, 3))
    expect(Math.max(...noons) - Math.min(...noons)).toBeGreaterThan(2)
    expect(outdoorTempC(at('2026-02-03 12:00'), tz, 3)).toBe(noons[2])
    expect(outdoorTempC(at('2026-02-03 12:00'), tz, 4)).not.toBe(noons[2])
  })
})

describe('waterFlowLitresPerMinute', () => {
  it('uses ≈ 300–450 L a day per apartment, hot ≈ 30–40 % of cold', () => {
    let cold = 0
    let hot = 0
    for (let apartment = 0; apartment < 8; apartment++) {
      let week = 0
      for (let d = 0; d < 7; d++) {
        const day = dayLitres(`2026-03-${String(2 + d).padStart(2, '0')}`, apartment)
        expect(day.cold + day.hot).toBeGreaterThan(180)
        expect(day.cold + day.hot).toBeLessThan(650)
        week += day.cold + day.hot
        cold += day.cold
        hot += day.hot
      }
      expect(week / 7).toBeGreaterThan(290)
      expect(week / 7).toBeLessThan(460)
    }
    expect(hot / cold).toBeGreaterThan(0.3)
    expect(hot / cold).toBeLessThan(0.42)
  })

  it('is mostly 0 at night and busiest in the morning and evening', () => {
    const share = (fromHour: number, toHour: number) => {
      let running = 0
      let total = 0
      for (let apartment = 0; apartment < 10; apartment++) {
        for (let d = 2; d <= 6; d++) {
          const start = at(`2026-03-0${d} 00:00`).getTime()
          for (let m = fromHour * 60; m < toHour * 60; m++) {
            total++
            if (waterFlowLitresPerMinute({ time: new Date(start + m * 60_000), tz, seed: 1, apartment, kind: 'cold' }) > 0) running++
          }
        }
      }
      return running / total
    }
    const night = share(1, 5)
    expect(night).toBeLessThan(0.01)
    expect(share(6, 8)).toBeGreaterThan(5 * night + 0.05)
    expect(share(19, 21)).toBeGreaterThan(5 * night + 0.03)
  })

  it('never goes negative and gives hot water only with some cold water', () => {
    const start = at('2026-03-07 00:00').getTime()
    for (let m = 0; m < 1440; m++) {
      const time = new Date(start + m * 60_000)
      const cold = waterFlowLitresPerMinute({ time, tz, seed: 5, apartment: 1, kind: 'cold' })
      const hot = waterFlowLitresPerMinute({ time, tz, seed: 5, apartment: 1, kind: 'hot' })
      expect(cold).toBeGreaterThanOrEqual(0)
      expect(hot).toBeGreaterThanOrEqual(0)
      if (hot > 0) expect(cold).toBeGreaterThan(0)
    }
  })
})

describe('heatPowerKw', () => {
  it('heats a winter apartment with 1–4 kW by day and nothing in July', () => {
    let daytime = 0
    let n = 0
    for (let apartment = 0; apartment < 6; apartment++) {
      for (let d = 10; d < 20; d++) {
        daytime += heatPowerKw({ time: at(`2026-01-${d} 10:00`), tz, seed: 1, apartment })
        n++
      }
    }
    expect(daytime / n).toBeGreaterThan(1)
    expect(daytime / n).toBeLessThan(4)
    for (const seed of [1, 2, 3]) expect(monthMean('2026-07', (t) => heatPowerKw({ time: t, tz, seed, apartment: 0 }))).toBe(0)
  })

  it('sets back at night and rises as it gets colder', () => {
    for (let d = 10; d < 20; d++) {
      const day = heatPowerKw({ time: at(`2026-01-${d} 21:30`), tz, seed: 1, apartment: 2 })
      const night = heatPowerKw({ time: at(`2026-01-${d} 22:30`), tz, seed: 1, apartment: 2 })
      expect(night).toBeLessThan(day * 0.7)
    }
    const january = monthMean('2026-01', (t) => heatPowerKw({ time: t, tz, seed: 1, apartment: 2 }))
    const april = monthMean('2026-04', (t) => heatPowerKw({ time: t, tz, seed: 1, apartment: 2 }))
    expect(january).toBeGreaterThan(1.5 * april)
  })
})
