import { describe, expect, it } from 'vitest'
import { fullYear, isAboutToExpire, isExpired, monthOf } from './card-expiry.ts'

describe('card expiry (SPEC §5)', () => {
  const now = { year: 2026, month: 11 }
  it('is about to expire when the expiry month is reached or passed', () => {
    expect(isAboutToExpire(11, 2026, now)).toBe(true)
    expect(isAboutToExpire(10, 2026, now)).toBe(true)
    expect(isAboutToExpire(1, 2020, now)).toBe(true)
    expect(isAboutToExpire(12, 2026, now)).toBe(false)
    expect(isAboutToExpire(1, 2027, now)).toBe(false)
  })
  it('prefixes two-digit years with 20', () => {
    expect(fullYear(27)).toBe(2027)
    expect(fullYear(2031)).toBe(2031)
    expect(isAboutToExpire(11, 26, now)).toBe(true)
    expect(isAboutToExpire(11, 27, now)).toBe(false)
  })
  it('never flags a method without expiry (Twint)', () => {
    expect(isAboutToExpire(null, null, now)).toBe(false)
    expect(isExpired(null, null, now)).toBe(false)
  })
  it('is expired only after the expiry month', () => {
    expect(isExpired(11, 2026, now)).toBe(false)
    expect(isExpired(10, 2026, now)).toBe(true)
  })
  it('reads the month in the installation time zone', () => {
    // 31 Oct 2026 23:30 UTC is already 1 November in Zurich (UTC+1).
    expect(monthOf(new Date('2026-10-31T23:30:00Z'))).toEqual({ year: 2026, month: 11 })
    expect(monthOf(new Date('2026-10-31T23:30:00Z'), 'UTC')).toEqual({ year: 2026, month: 10 })
  })
})
