import { describe, expect, it } from 'vitest'
import { defaultRegion, formatDate, formatDateTime, formatMoney, formatNumber, formatPercent, formatUnit, intlLocale, localParts, startOfLocalDay } from './formats.ts'

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

describe('one formatting source (issue 15 §4)', () => {
  it('defaults every language to Switzerland, so English shows Swiss dates, not US ones', () => {
    for (const lang of ['de', 'fr', 'it', 'en']) expect(defaultRegion(lang)).toBe('CH')
    expect(formatDateTime(t, defaultRegion('en'), 'Europe/Zurich')).toBe('05.03.26, 14:07')
    expect(formatDate(t, defaultRegion('it'), 'Europe/Zurich')).toBe('05.03.2026')
  })
  it('builds the Intl locale from language and region, de-CH … en-CH by default', () => {
    expect(['de', 'fr', 'it', 'en'].map((l) => intlLocale(l))).toEqual(['de-CH', 'fr-CH', 'it-CH', 'en-CH'])
    expect(intlLocale('it', 'IT')).toBe('it-IT')
    expect(intlLocale('fr-CH')).toBe('fr-CH')
    expect(intlLocale('xx')).toBe('en-CH')
  })
  it('groups thousands the Swiss way in German and English alike', () => {
    // CLDR's Swiss group separator is an apostrophe (ASCII or U+2019, by ICU version).
    expect(formatNumber(1234.5, 'de')).toMatch(/^1['’]234\.50$/u)
    expect(formatNumber(1234.5, 'en')).toBe(formatNumber(1234.5, 'de'))
    expect(formatNumber(1234.5, 'en-GB')).toBe('1,234.50')
    expect(formatNumber(0.275, 'fr', 4)).toBe('0,2750')
  })
  it('formats money as CHF through Intl, never breakable between code and digits', () => {
    expect(formatMoney(5.69, 'de')).toBe('CHF\u00a05.69')
    expect(formatMoney(1234.5, 'en')).toMatch(/^CHF\u00a01['’]234\.50$/u)
    expect(formatMoney(0.2950, 'it', 4)).toBe('CHF\u00a00.2950')
    for (const lang of ['de', 'fr', 'it', 'en']) expect(formatMoney(-12345.678, lang)).not.toMatch(/[ \t\n]/)
  })
  it('formats percentages in the same locale as the numbers beside them', () => {
    expect(formatPercent(1.3, 'de', 1)).toBe('1.3%')
    expect(formatPercent(20, 'en')).toBe('20%')
    expect(formatPercent(1.3, 'fr', 1)).toMatch(/^1,3\s?%$/u)
  })
  it('joins a unit with a no-break space', () => {
    expect(formatUnit(3.25, 'kW', 'de')).toBe('3.25\u00a0kW')
  })
})
