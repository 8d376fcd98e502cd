import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { localeSigns, parseLocaleNumber, readLocaleNumber, readNumberFields } from './parse-number.ts'
import { formatNumber, intlLocale } from '../../shared/rules/formats.ts'
import { COUNTRIES } from '../../shared/rules/regions.ts'
import { RATE_PRICES } from '../../shared/schemas/rates.ts'

// Every locale the app formats and reads numbers in: the four UI languages with every region format of
// Settings (shared/rules/formats.ts intlLocale), e.g. de-DE, it-IT, en-AT, fr-CH.
const LOCALES = ['en', 'de', 'fr', 'it'].flatMap((lang) => COUNTRIES.map((region) => intlLocale(lang, region)))
const locale = fc.constantFrom(...LOCALES)
/** A price as typed: a whole part 0–999 and 1–4 decimals, as digits. */
const typed = fc.record({ whole: fc.integer({ min: 0, max: 999 }), decimals: fc.stringMatching(/^\d{1,4}$/) })
const value = ({ whole, decimals }: { whole: number; decimals: string }) => Number(`${whole}.${decimals}`)

describe('reading a number typed in any supported locale (SPEC §5: locale aware)', () => {
  it('reads 0.12 and 0,12 as 0.12 in Germany, Austria and Italy too (never 12)', () => {
    for (const loc of ['de-DE', 'de-AT', 'it-IT', 'en-DE', 'en-AT', 'en-IT', 'fr-FR', 'de-CH', 'en-GB']) {
      expect(parseLocaleNumber('0.12', loc), loc).toBe(0.12)
      expect(parseLocaleNumber('0,12', loc), loc).toBe(0.12)
      expect(parseLocaleNumber('0.275', loc), loc).toBe(0.275)
      expect(parseLocaleNumber('0,275', loc), loc).toBe(0.275)
    }
  })

  it('refuses 1.234 in de-DE as ambiguous (1234 or 1.234?), reads the locale’s own decimal sign', () => {
    expect(readLocaleNumber('1.234', 'de-DE')).toEqual({ ok: false, reason: 'ambiguous' })
    expect(readLocaleNumber('1,234', 'de-DE')).toEqual({ ok: true, value: 1.234 })
    expect(readLocaleNumber('1.234,5', 'de-DE')).toEqual({ ok: true, value: 1234.5 })
    expect(readLocaleNumber('1,234', 'en-GB')).toEqual({ ok: false, reason: 'ambiguous' })
    expect(readLocaleNumber('1.234', 'de-CH')).toEqual({ ok: true, value: 1.234 })
    expect(readLocaleNumber('', 'de-DE')).toEqual({ ok: false, reason: 'empty' })
    for (const junk of ['abc', '12a', '1.2.3', '1,2,3', '1.23.456', '--1', '1..2', '.', ',']) expect(readLocaleNumber(junk, 'de-DE').ok, junk).toBe(false)
  })

  it('property: a price typed with either decimal sign and no grouping is read as typed, or refused as ambiguous — never another value', () => {
    fc.assert(
      fc.property(locale, typed, fc.constantFrom('.', ','), (loc, t, sign) => {
        const r = readLocaleNumber(`${t.whole}${sign}${t.decimals}`, loc)
        if (r.ok) expect(r.value).toBeCloseTo(value(t), 10)
        else expect(r.reason).toBe('ambiguous')
        // Only a whole part ≥ 1 with exactly three decimals can look like a thousands group.
        if (!r.ok) expect(t.whole >= 1 && t.decimals.length === 3).toBe(true)
      }),
      { numRuns: 2000 },
    )
  })

  it('property: with the locale’s own decimal sign a typed price is always read as typed', () => {
    fc.assert(
      fc.property(locale, typed, (loc, t) => {
        expect(readLocaleNumber(`${t.whole}${localeSigns(loc).decimal}${t.decimals}`, loc)).toEqual({ ok: true, value: value(t) })
      }),
      { numRuns: 2000 },
    )
  })

  it('property: what the app shows (formatted with grouping, 4 decimals) reads back to the same value', () => {
    fc.assert(
      fc.property(locale, fc.integer({ min: -99_999_999, max: 99_999_999 }), (loc, tenThousandths) => {
        const v = tenThousandths / 10_000
        const r = readLocaleNumber(formatNumber(v, loc, 4), loc)
        expect(r.ok).toBe(true)
        if (r.ok) expect(r.value).toBeCloseTo(v, 8)
      }),
      { numRuns: 2000 },
    )
  })

  it('property: whole numbers, with or without the locale’s grouping, are read as typed (one "." or "," group alone is ambiguous)', () => {
    fc.assert(
      fc.property(locale, fc.integer({ min: 0, max: 10_000_000 }), (loc, n) => {
        expect(readLocaleNumber(String(n), loc)).toEqual({ ok: true, value: n })
        const grouped = new Intl.NumberFormat(loc, { useGrouping: true, maximumFractionDigits: 0 }).format(n)
        // "1.000" in it-IT or "1,000" in en-GB: a person of another habit means 1.
        const oneGroup = /^\d{1,3}[.,]\d{3}$/.test(grouped)
        expect(readLocaleNumber(grouped, loc)).toEqual(oneGroup ? { ok: false, reason: 'ambiguous' } : { ok: true, value: n })
      }),
      { numRuns: 1000 },
    )
  })
})

describe('the price fields of the rates form and of the charging tariff form', () => {
  const TARIFF = ['basic_tariff', 'high_tariff', 'low_tariff', 'flat_tariff'] as const
  const forms = [
    ...Object.entries(RATE_PRICES).map(([kind, keys]) => ({ form: `rates ${kind}`, keys: [...keys], optional: [] as string[] })),
    { form: 'charging tariff', keys: [...TARIFF], optional: ['flat_tariff'] },
  ]

  it('property: every field typed as a person of the region types it is sent as that price', () => {
    fc.assert(
      fc.property(locale, fc.constantFrom(...forms), fc.array(fc.tuple(typed, fc.constantFrom('.', ',')), { minLength: 10, maxLength: 10 }), (loc, form, typing) => {
        // Keep to what cannot be a thousands group, so each field has one reading.
        const texts = Object.fromEntries(form.keys.map((k, i) => {
          const [t, sign] = typing[i]
          const decimals = t.decimals.length === 3 ? `${t.decimals}0` : t.decimals
          return [k, `${t.whole}${sign}${decimals}`]
        }))
        const read = readNumberFields(texts, loc, form.optional)
        expect(read.invalid).toEqual([])
        for (const k of form.keys) expect(read.values[k]).toBeCloseTo(Number(texts[k].replace(',', '.')), 10)
      }),
      { numRuns: 500 },
    )
  })

  it('names the fields it refuses (ambiguous, junk, or empty unless optional) and sends null for an empty optional one', () => {
    const read = readNumberFields({ basic_tariff: '12', high_tariff: '1.234', low_tariff: '', flat_tariff: '' }, 'de-DE', ['flat_tariff'])
    expect(read.invalid.sort()).toEqual(['high_tariff', 'low_tariff'])
    expect(read.values).toMatchObject({ basic_tariff: 12, flat_tariff: null })
  })
})
