import { describe, expect, it } from 'vitest'
import { dueRuns, lastCompletedPeriod } from './periods.ts'

const TZ = 'Europe/Zurich'

describe('lastCompletedPeriod', () => {
  it('gives the previous day, week, month, quarter, half year and year in local time', () => {
    const now = new Date('2026-08-12T10:00:00+02:00') // a Wednesday
    expect(lastCompletedPeriod('d', now, TZ)).toMatchObject({ from: '2026-08-11', to: '2026-08-12' })
    expect(lastCompletedPeriod('w', now, TZ)).toMatchObject({ from: '2026-08-03', to: '2026-08-10' })
    expect(lastCompletedPeriod('m', now, TZ)).toMatchObject({ from: '2026-07-01', to: '2026-08-01' })
    expect(lastCompletedPeriod('q', now, TZ)).toMatchObject({ from: '2026-04-01', to: '2026-07-01' })
    expect(lastCompletedPeriod('s', now, TZ)).toMatchObject({ from: '2026-01-01', to: '2026-07-01' })
    const y = lastCompletedPeriod('y', now, TZ)
    expect(y).toMatchObject({ from: '2025-01-01', to: '2026-01-01' })
    expect(y.end.toISOString()).toBe('2025-12-31T23:00:00.000Z')
  })
  it('uses the local date just after midnight', () => {
    expect(lastCompletedPeriod('m', new Date('2026-03-31T22:30:00Z'), TZ)).toMatchObject({ from: '2026-03-01', to: '2026-04-01' })
  })
})

describe('dueRuns (fake clock)', () => {
  it('runs once per period and makes up only the latest missed one', () => {
    const last: Record<string, string> = {}
    const at = (iso: string) => dueRuns(['m', 'y'], last, new Date(iso), TZ)
    const first = at('2026-03-01T00:10:00+01:00')
    expect(first.map((p) => [p.interval, p.from])).toEqual([['m', '2026-02-01'], ['y', '2025-01-01']])
    for (const p of first) last[p.interval] = p.end.toISOString()
    expect(at('2026-03-01T06:00:00+01:00')).toEqual([])
    expect(at('2026-03-31T23:59:00+02:00')).toEqual([])
    // Server down from mid-March to 2 June: one make-up run, for May.
    const later = at('2026-06-02T08:00:00+02:00')
    expect(later.map((p) => [p.interval, p.from, p.to])).toEqual([['m', '2026-05-01', '2026-06-01']])
  })
})
