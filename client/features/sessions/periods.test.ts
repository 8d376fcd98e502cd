import { describe, expect, it } from 'vitest'
import { periodRange } from './periods.ts'

const now = new Date('2026-05-20T10:00:00Z')

describe('periodRange', () => {
  it('gives the current month, quarter and year in Zürich local time', () => {
    expect(periodRange({ kind: 'month' }, 'Europe/Zurich', now)).toEqual({ start: '2026-05-01T00:00:00+02:00', end: '2026-06-01T00:00:00+02:00' })
    expect(periodRange({ kind: 'quarter' }, 'Europe/Zurich', now)).toEqual({ start: '2026-04-01T00:00:00+02:00', end: '2026-07-01T00:00:00+02:00' })
    expect(periodRange({ kind: 'year' }, 'Europe/Zurich', now)).toEqual({ start: '2026-01-01T00:00:00+01:00', end: '2027-01-01T00:00:00+01:00' })
  })
  it('gives a given year and a quarter across a DST change', () => {
    expect(periodRange({ kind: 'given', year: 2024 }, 'Europe/Zurich', now)).toEqual({ start: '2024-01-01T00:00:00+01:00', end: '2025-01-01T00:00:00+01:00' })
    expect(periodRange({ kind: 'quarter' }, 'Europe/Zurich', new Date('2026-02-10T12:00:00Z'))).toEqual({ start: '2026-01-01T00:00:00+01:00', end: '2026-04-01T00:00:00+02:00' })
  })
  it('ends a quarter that starts in summer time at the local midnight in winter time', () => {
    expect(periodRange({ kind: 'quarter' }, 'Europe/Zurich', new Date('2026-11-10T12:00:00Z'))).toEqual({ start: '2026-10-01T00:00:00+02:00', end: '2027-01-01T00:00:00+01:00' })
  })
  it('uses the local date, not UTC, near midnight', () => {
    // 31 May 23:30 UTC is already 1 June in Zürich.
    expect(periodRange({ kind: 'month' }, 'Europe/Zurich', new Date('2026-05-31T23:30:00Z')).start).toBe('2026-06-01T00:00:00+02:00')
  })
})
