import { afterEach, describe, expect, it, vi } from 'vitest'
import { dayjs, datePatterns, formatInZone, zoneOffsetMinutes, formatTime } from './formats.ts'
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

describe('one formatting source', () => {
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

describe('dates in a time zone without a new formatter per value (Power blocked the page formatting them)', () => {
  afterEach(() => vi.restoreAllMocks())
  const ZONES = ['Europe/Zurich', 'America/New_York', 'Asia/Kolkata', 'Australia/Lord_Howe', 'Pacific/Chatham', 'UTC']

  it('shows the same wall clock as dayjs .tz(), across both DST changes of every zone', () => {
    const patterns = ['YYYY-MM-DD HH:mm:ss', datePatterns('US').dateTime]
    // Through 2026 every 2 days 1 h, every 30 minutes around the DST changes of both hemispheres (US,
    // EU, Australia, New Zealand), and some past instants. Kept small: dayjs .tz() is the slow side.
    const instants = [0, 86_400_000 * 365 * 20 + 1234, Date.parse('2026-03-29T00:59:59.999Z'), Date.parse('2026-10-25T01:00:00Z')]
    for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 49 * 3_600_000) instants.push(t)
    for (const day of ['2026-03-08', '2026-03-29', '2026-04-05', '2026-09-27', '2026-10-04', '2026-10-25', '2026-11-01']) {
      const from = Date.parse(`${day}T00:00:00Z`) - 43_200_000
      for (let t = from; t < from + 86_400_000; t += 30 * 60_000) instants.push(t)
    }
    for (const tz of ZONES) {
      for (const t of instants) {
        for (const p of patterns) expect(formatInZone(t, p, tz), `${tz} ${new Date(t).toISOString()}`).toBe(dayjs(t).tz(tz).format(p))
      }
    }
  }, 120_000)

  it('knows the offsets: Zurich 60/120 min, Kolkata 330, Lord Howe 630/660, Chatham 765/825', () => {
    expect(zoneOffsetMinutes(Date.parse('2026-01-15T12:00:00Z'), 'Europe/Zurich')).toBe(60)
    expect(zoneOffsetMinutes(Date.parse('2026-07-15T12:00:00Z'), 'Europe/Zurich')).toBe(120)
    expect(zoneOffsetMinutes(Date.parse('2026-07-15T12:00:00Z'), 'Asia/Kolkata')).toBe(330)
    expect(zoneOffsetMinutes(Date.parse('2026-07-15T12:00:00Z'), 'Australia/Lord_Howe')).toBe(630)
    expect(zoneOffsetMinutes(Date.parse('2026-01-15T12:00:00Z'), 'Australia/Lord_Howe')).toBe(660)
    expect(zoneOffsetMinutes(Date.parse('2026-07-15T12:00:00Z'), 'Pacific/Chatham')).toBe(765)
    expect(zoneOffsetMinutes(Date.parse('2026-01-15T12:00:00Z'), 'Pacific/Chatham')).toBe(825)
  })

  it('builds at most one Intl formatter per zone, however many values it formats', () => {
    const toLocale = vi.spyOn(Date.prototype, 'toLocaleString')
    const Real = Intl.DateTimeFormat
    let built = 0
    vi.spyOn(Intl, 'DateTimeFormat').mockImplementation(function (this: unknown, ...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      built++
      return new Real(...args)
    } as unknown as typeof Intl.DateTimeFormat)
    const start = Date.parse('2026-11-23T00:00:00Z')
    for (let i = 0; i < 500; i++) {
      formatTime(start + i * 5_000, 'CH', 'Europe/Berlin')
      formatDateTime(start + i * 5_000, 'US', 'Europe/Berlin')
    }
    expect(built).toBeLessThanOrEqual(1)
    expect(toLocale).not.toHaveBeenCalled()
  })

  it('keeps an invalid date invalid', () => {
    expect(formatDateTime('not a date', 'CH', 'Europe/Zurich')).toBe('Invalid Date')
  })
})
