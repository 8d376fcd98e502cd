import { describe, expect, it } from 'vitest'
import { granularityOf, periodRange } from './granularity.ts'

const TZ = 'Europe/Zurich'
const hours = (r: { start: string; end: string }) => (Date.parse(r.end) - Date.parse(r.start)) / 3_600_000

describe('granularityOf (SPEC §9)', () => {
  it('maps periods to API granularities', () => {
    expect(granularityOf('day', true)).toBe('fifteen_minutes')
    expect(granularityOf('day')).toBe('hour')
    expect(granularityOf('week')).toBe('day')
    expect(granularityOf('month')).toBe('day')
    expect(granularityOf('year')).toBe('month')
  })
})

describe('periodRange', () => {
  it('gives a day from local midnight to the next, 23 and 25 hours on DST days', () => {
    expect(periodRange('day', '2026-11-22', TZ)).toEqual({ date: '2026-11-22', start: '2026-11-22T00:00:00+01:00', end: '2026-11-23T00:00:00+01:00', granularity: 'hour' })
    expect(hours(periodRange('day', '2026-03-29', TZ))).toBe(23)
    expect(hours(periodRange('day', '2026-10-25', TZ))).toBe(25)
    expect(periodRange('day', '2026-10-25', TZ, { fine: true }).granularity).toBe('fifteen_minutes')
  })
  it('starts weeks on Monday and steps back and forth', () => {
    const w = periodRange('week', '2026-03-29', TZ) // a Sunday
    expect(w.date).toBe('2026-03-23')
    expect(w.start).toBe('2026-03-23T00:00:00+01:00')
    expect(w.end).toBe('2026-03-30T00:00:00+02:00')
    expect(hours(w)).toBe(167)
    expect(periodRange('week', '2026-03-29', TZ, { offset: -1 }).date).toBe('2026-03-16')
    expect(periodRange('week', '2026-12-30', TZ, { offset: 1 }).date).toBe('2027-01-04')
  })
  it('gives months and years, previous across a year boundary', () => {
    expect(periodRange('month', '2026-01-15', TZ, { offset: -1 })).toMatchObject({ date: '2025-12-01', start: '2025-12-01T00:00:00+01:00', end: '2026-01-01T00:00:00+01:00', granularity: 'day' })
    expect(periodRange('month', '2026-03-31', TZ)).toMatchObject({ start: '2026-03-01T00:00:00+01:00', end: '2026-04-01T00:00:00+02:00' })
    expect(periodRange('year', '2026-07-01', TZ, { offset: 1 })).toMatchObject({ date: '2027-01-01', start: '2027-01-01T00:00:00+01:00', end: '2028-01-01T00:00:00+01:00', granularity: 'month' })
  })
})
