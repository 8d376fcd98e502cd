import { describe, expect, it } from 'vitest'
import { getTimes } from 'suncalc'
import { clearSkyFactor, cloudFactor, pvPowerKw, ZURICH_MONTHLY_KWH_PER_KWP } from './pv.ts'

const ZURICH = { lat: 47.3769, lon: 8.5417 }
const PEAK = 30

/** PV power every 5 minutes over one UTC day. */
function dayCurve(date: string, seed: number): { time: Date; kw: number }[] {
  const start = Date.parse(`${date}T00:00:00Z`)
  return Array.from({ length: 288 }, (_, i) => {
    const time = new Date(start + i * 300_000)
    return { time, kw: pvPowerKw({ time, ...ZURICH, peakKw: PEAK, seed }) }
  })
}

const energyKwh = (curve: { kw: number }[]) => curve.reduce((sum, p) => sum + p.kw / 12, 0)

describe('clearSkyFactor', () => {
  it('is 0 at night and highest around solar noon', () => {
    const date = new Date('2026-06-21T12:00:00Z')
    const noon = getTimes(date, ZURICH.lat, ZURICH.lon).solarNoon
    expect(clearSkyFactor(new Date('2026-06-21T23:00:00Z'), ZURICH.lat, ZURICH.lon)).toBe(0)
    expect(clearSkyFactor(new Date('2026-06-21T01:30:00Z'), ZURICH.lat, ZURICH.lon)).toBe(0)
    let best = { t: 0, v: -1 }
    for (let m = 0; m < 1440; m += 5) {
      const t = Date.parse('2026-06-21T00:00:00Z') + m * 60_000
      const v = clearSkyFactor(new Date(t), ZURICH.lat, ZURICH.lon)
      if (v > best.v) best = { t, v }
    }
    expect(Math.abs(best.t - noon.getTime())).toBeLessThan(30 * 60_000)
    expect(best.v).toBeGreaterThan(0.9)
    expect(best.v).toBeLessThanOrEqual(1)
  })

  it('gives a weaker noon in winter than in summer', () => {
    const summer = clearSkyFactor(new Date('2026-06-21T11:30:00Z'), ZURICH.lat, ZURICH.lon)
    const winter = clearSkyFactor(new Date('2026-12-21T11:30:00Z'), ZURICH.lat, ZURICH.lon)
    expect(winter).toBeGreaterThan(0.3)
    expect(winter).toBeLessThan(summer * 0.7)
  })
})

describe('cloudFactor', () => {
  it('stays in [0.1, 1] and has clear, mixed and overcast days', () => {
    const middays: number[] = []
    for (let d = 0; d < 365; d++) {
      const time = new Date(Date.UTC(2026, 0, 1 + d, 11))
      const v = cloudFactor(time, 5)
      expect(v).toBeGreaterThanOrEqual(0.1)
      expect(v).toBeLessThanOrEqual(1)
      middays.push(v)
    }
    expect(middays.filter((v) => v > 0.9).length).toBeGreaterThan(50)
    expect(middays.filter((v) => v < 0.4).length).toBeGreaterThan(50)
  })

  it('is cloudier in winter than in summer on average', () => {
    const mean = (month: number) => {
      let sum = 0
      for (let year = 2026; year < 2030; year++) for (let d = 1; d <= 28; d++) sum += cloudFactor(new Date(Date.UTC(year, month, d, 11)), 8)
      return sum / (4 * 28)
    }
    expect(mean(11) + mean(0)).toBeLessThan(mean(5) + mean(6) - 0.15)
  })
})

describe('pvPowerKw (Zürich, 30 kWp)', () => {
  it('is 0 at night, never above the peak, and peaks near solar noon on the clearest June day', () => {
    let clearest = { date: '', energy: -1 }
    for (let d = 1; d <= 30; d++) {
      const date = `2026-06-${String(d).padStart(2, '0')}`
      const curve = dayCurve(date, 1)
      for (const p of curve) {
        expect(p.kw).toBeGreaterThanOrEqual(0)
        expect(p.kw).toBeLessThanOrEqual(PEAK)
      }
      expect(pvPowerKw({ time: new Date(`${date}T00:30:00Z`), ...ZURICH, peakKw: PEAK, seed: 1 })).toBe(0)
      expect(pvPowerKw({ time: new Date(`${date}T21:30:00Z`), ...ZURICH, peakKw: PEAK, seed: 1 })).toBe(0)
      const energy = energyKwh(curve)
      if (energy > clearest.energy) clearest = { date, energy }
    }
    const curve = dayCurve(clearest.date, 1)
    const peak = curve.reduce((a, b) => (b.kw > a.kw ? b : a))
    const noon = getTimes(new Date(`${clearest.date}T12:00:00Z`), ZURICH.lat, ZURICH.lon).solarNoon
    expect(peak.kw).toBeGreaterThan(20)
    expect(Math.abs(peak.time.getTime() - noon.getTime())).toBeLessThan(90 * 60_000)
    expect(clearest.energy).toBeGreaterThan(120)
    expect(clearest.energy).toBeLessThan(220)
  })

  it('produces far more in June than in December', () => {
    let june = 0
    let december = 0
    for (let d = 1; d <= 28; d++) {
      june += energyKwh(dayCurve(`2026-06-${String(d).padStart(2, '0')}`, 3))
      december += energyKwh(dayCurve(`2026-12-${String(d).padStart(2, '0')}`, 3))
    }
    expect(june).toBeGreaterThan(2 * december)
  })

  it('is reproducible per seed and differs between seeds', () => {
    const a = dayCurve('2026-05-10', 11).map((p) => p.kw)
    expect(dayCurve('2026-05-10', 11).map((p) => p.kw)).toEqual(a)
    const others = [12, 13, 14].map((seed) => dayCurve('2026-05-10', seed).map((p) => p.kw))
    expect(others.some((b) => b.some((kw, i) => kw !== a[i]))).toBe(true)
  })

  it('rounds to watts', () => {
    for (const p of dayCurve('2026-04-01', 2)) expect(Math.round(p.kw * 1000) / 1000).toBe(p.kw)
  })
})

describe('a simulated year against the published Zürich series', () => {
  /** kWh per kWp in each month of `year`, from 15-minute steps. */
  function monthlyYield(year: number, seed: number): number[] {
    const months = new Array<number>(12).fill(0)
    for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 900_000) {
      const time = new Date(t + 450_000)
      months[time.getUTCMonth()] += pvPowerKw({ time, ...ZURICH, peakKw: 1, seed }) / 4
    }
    return months
  }

  it('has every month within ±15 % of the series, about 1,100 kWh/kWp a year and a November of 1.2–1.5 kWh/kWp a day', () => {
    for (const [year, seed] of [[2026, 42], [2026, 7], [2027, 1]]) {
      const months = monthlyYield(year, seed)
      months.forEach((kwh, m) => {
        const published = ZURICH_MONTHLY_KWH_PER_KWP[m]
        expect(Math.abs(kwh / published - 1), `${year} seed ${seed} month ${m + 1}: ${kwh.toFixed(1)} vs ${published}`).toBeLessThanOrEqual(0.15)
      })
      const year_ = months.reduce((a, b) => a + b, 0)
      expect(year_).toBeGreaterThan(1045)
      expect(year_).toBeLessThan(1155)
      expect(months[10] / 30).toBeGreaterThanOrEqual(1.2)
      expect(months[10] / 30).toBeLessThanOrEqual(1.5)
    }
  })
})
