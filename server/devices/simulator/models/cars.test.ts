import { describe, expect, it } from 'vitest'
import { localParts } from '../../../../shared/rules/formats.ts'
import { addDays } from './local-clock.ts'
import { carVisits, type CarVisit } from './cars.ts'

const tz = 'Europe/Zurich'
const hourOf = (d: Date) => localParts(d, tz).minute / 60

/** Every date of 2026 (covers both DST switches) with its visits, for a few stations. */
function year(seed: number, stations = 4): { date: string; station: number; visits: CarVisit[] }[] {
  const out = []
  for (let station = 0; station < stations; station++) {
    for (let i = 0; i < 365; i++) {
      const date = addDays('2026-01-01', i)
      out.push({ date, station, visits: carVisits({ date, tz, seed, station }) })
    }
  }
  return out
}

const all = year(1)
const visits = all.flatMap((d) => d.visits)

describe('carVisits', () => {
  it('returns sorted visits arriving on the asked local date, never overlapping yesterday or each other', () => {
    for (const { date, station, visits: today } of all) {
      const yesterday = carVisits({ date: addDays(date, -1), tz, seed: 1, station })
      const timeline = [...yesterday, ...today]
      for (const v of today) {
        expect(localParts(v.arrive, tz).date).toBe(date)
        expect(v.depart.getTime()).toBeGreaterThan(v.arrive.getTime())
      }
      for (let i = 1; i < timeline.length; i++) {
        expect(timeline[i].arrive.getTime()).toBeGreaterThan(timeline[i - 1].depart.getTime())
      }
    }
  })

  it('has cars arriving mostly in the evening and leaving mostly in the morning', () => {
    const eveningArrivals = visits.filter((v) => hourOf(v.arrive) >= 16 && hourOf(v.arrive) < 23).length
    const morningDepartures = visits.filter((v) => hourOf(v.depart) >= 6 && hourOf(v.depart) < 12).length
    expect(eveningArrivals / visits.length).toBeGreaterThan(0.8)
    expect(morningDepartures / visits.length).toBeGreaterThan(0.8)
  })

  it('lets weekday overnight cars leave between 06:30 and 09:00 on workday mornings', () => {
    const workdayLeaves = all
      .filter(({ date }) => ['Mon', 'Tue', 'Wed', 'Thu'].includes(new Date(`${date}T12:00:00Z`).toUTCString().slice(0, 3)))
      .flatMap((d) => d.visits)
      .map((v) => hourOf(v.depart))
    expect(workdayLeaves.length).toBeGreaterThan(400)
    for (const h of workdayLeaves) {
      expect(h).toBeGreaterThanOrEqual(6.5)
      expect(h).toBeLessThanOrEqual(9)
    }
  })

  it('has idle days, and daytime visits only on weekends', () => {
    const idle = all.filter((d) => d.visits.length === 0).length
    expect(idle).toBeGreaterThan(0.1 * all.length)
    expect(idle).toBeLessThan(0.4 * all.length)
    const daytime = all.flatMap(({ date, visits: vs }) => vs.filter((v) => hourOf(v.arrive) < 16).map(() => date))
    expect(daytime.length).toBeGreaterThan(40)
    for (const date of daytime) expect(['Sat', 'Sun']).toContain(new Date(`${date}T12:00:00Z`).toUTCString().slice(0, 3))
  })

  it('asks for 5–40 kWh, mostly 10–25, with ~90 % resident badges', () => {
    const energies = visits.map((v) => v.energyNeededKwh).sort((a, b) => a - b)
    expect(energies[0]).toBeGreaterThanOrEqual(5)
    expect(energies.at(-1)).toBeLessThanOrEqual(40)
    const median = energies[Math.floor(energies.length / 2)]
    expect(median).toBeGreaterThan(10)
    expect(median).toBeLessThan(25)
    const share = (badge: CarVisit['badge']) => visits.filter((v) => v.badge === badge).length / visits.length
    expect(share('resident')).toBeGreaterThan(0.85)
    expect(share('unknown')).toBeGreaterThan(0.02)
    expect(share('none')).toBeGreaterThan(0.02)
  })

  it('is reproducible per seed and different for another seed or station', () => {
    const args = { date: '2026-05-12', tz, seed: 1, station: 0 }
    const pattern = (seed: number, station: number) =>
      Array.from({ length: 14 }, (_, i) => carVisits({ ...args, seed, station, date: addDays(args.date, i) }))
        .flat()
        .map((v) => `${v.arrive.toISOString()}/${v.depart.toISOString()}/${v.energyNeededKwh}`)
        .join()
    expect(pattern(1, 0)).toBe(pattern(1, 0))
    expect(pattern(2, 0)).not.toBe(pattern(1, 0))
    expect(pattern(1, 1)).not.toBe(pattern(1, 0))
  })
})
