import { describe, expect, it } from 'vitest'
import { nextTariffChange, splitByTariff } from './split.ts'
import type { ScheduleEntry } from '../../../shared/rules/tariff.ts'

// docs/decisions.md "Charging: energy split at tariff changes": energy between two readings is spread evenly
// over the time between them, each tariff taking the share it covers.
const weekdays = { monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0 } as const
const HIGH: ScheduleEntry[] = [{ start: '07:00', end: '20:00', ...weekdays }]
const TZ = 'Europe/Zurich'
const always = async () => HIGH

describe('splitByTariff', () => {
  it('splits an hour over 20:00 in half, and keeps an interval inside one tariff whole', async () => {
    const r = await splitByTariff(10, new Date('2026-03-04T19:30:00+01:00'), new Date('2026-03-04T20:30:00+01:00'), TZ, always)
    expect(r.highKwh).toBeCloseTo(5, 12)
    expect(r.lowKwh).toBeCloseTo(5, 12)
    expect(await splitByTariff(3, new Date('2026-03-04T08:00:00+01:00'), new Date('2026-03-04T09:00:00+01:00'), TZ, always)).toEqual({ highKwh: 3, lowKwh: 0 })
  })

  it('spreads a night over the next morning and a weekend by the hours of each', async () => {
    // Friday 18:00 to Monday 08:00 (62 h): high Friday 18–20 and Monday 07–08, 3 h.
    const r = await splitByTariff(62, new Date('2026-03-06T18:00:00+01:00'), new Date('2026-03-09T08:00:00+01:00'), TZ, always)
    expect(r.highKwh).toBeCloseTo(3, 9)
    expect(r.lowKwh).toBeCloseTo(59, 9)
  })

  it('follows the zone on the 23-hour day (spring forward) and takes no tariff or a flat one as low', async () => {
    // Friday 2026-03-27 19:00 +01:00 to Monday 2026-03-30 08:00 +02:00: 60 h of real time, high 1 h + 1 h.
    const from = new Date('2026-03-27T19:00:00+01:00')
    const to = new Date('2026-03-30T08:00:00+02:00')
    expect((to.getTime() - from.getTime()) / 3600_000).toBe(60)
    const r = await splitByTariff(60, from, to, TZ, always)
    expect(r.highKwh).toBeCloseTo(2, 9)
    expect(await splitByTariff(4, new Date('2026-03-04T19:30:00+01:00'), new Date('2026-03-04T20:30:00+01:00'), TZ, async () => null)).toEqual({ highKwh: 0, lowKwh: 4 })
  })

  it('puts an interval of no length at the tariff of its reading', async () => {
    const t = new Date('2026-03-04T19:59:00+01:00')
    expect(await splitByTariff(1, t, t, TZ, always)).toEqual({ highKwh: 1, lowKwh: 0 })
  })

  it('finds the next change on the local day, or the next local midnight', () => {
    expect(nextTariffChange(HIGH, TZ, new Date('2026-03-04T19:30:00+01:00')).toISOString()).toBe('2026-03-04T19:00:00.000Z')
    expect(nextTariffChange(HIGH, TZ, new Date('2026-03-04T20:00:00+01:00')).toISOString()).toBe('2026-03-04T23:00:00.000Z')
    expect(nextTariffChange(HIGH, TZ, new Date('2026-03-04T06:59:30+01:00')).toISOString()).toBe('2026-03-04T06:00:00.000Z')
  })
})
