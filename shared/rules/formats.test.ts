import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, localParts, startOfLocalDay } from './formats.ts'

const t = '2026-03-05T13:07:00Z' // 14:07 in Zurich (CET)

describe('SPEC §9 display formats', () => {
  it('uses dd.MM.yy, HH:mm for CH/DE/AT/FR', () => {
    expect(formatDateTime(t, 'CH', 'Europe/Zurich')).toBe('05.03.26, 14:07')
    expect(formatDate(t, 'DE', 'Europe/Zurich')).toBe('05.03.2026')
  })
  it('uses dd/MM/yy for IT and 12-hour MM/dd/yy for GB/US', () => {
    expect(formatDateTime(t, 'IT', 'Europe/Zurich')).toBe('05/03/26, 14:07')
    expect(formatDateTime(t, 'US', 'Europe/Zurich')).toBe('03/05/26, 02:07 PM')
    expect(formatDate(t, 'GB', 'Europe/Zurich')).toBe('03/05/2026')
  })
})

describe('installation-local days', () => {
  it('starts the day at local midnight, also across DST', () => {
    expect(startOfLocalDay(new Date('2026-03-29T12:00:00Z'), 'Europe/Zurich').toISOString()).toBe('2026-03-28T23:00:00.000Z')
    expect(startOfLocalDay(new Date('2026-03-30T12:00:00Z'), 'Europe/Zurich').toISOString()).toBe('2026-03-29T22:00:00.000Z')
  })
  it('gives Monday as weekday 0', () => {
    expect(localParts(new Date('2026-11-23T08:30:00Z'), 'Europe/Zurich')).toEqual({ weekday: 0, minute: 9 * 60 + 30, date: '2026-11-23' })
  })
})
