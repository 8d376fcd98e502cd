import { describe, expect, it } from 'vitest'
import { parseLocaleNumber } from './parse-number.ts'
import { formatNumber } from '../../shared/rules/formats.ts'

describe('parseLocaleNumber', () => {
  it('reads Swiss numbers in English and German; empty or junk is NaN', () => {
    for (const locale of ['en-CH', 'de-CH', 'it-CH']) {
      expect(parseLocaleNumber('0.275', locale)).toBe(0.275)
      expect(parseLocaleNumber("1'234.50", locale)).toBe(1234.5)
      expect(parseLocaleNumber('1’234.50', locale)).toBe(1234.5)
      expect(parseLocaleNumber('-3', locale)).toBe(-3)
      expect(parseLocaleNumber('', locale)).toBeNaN()
      expect(parseLocaleNumber('abc', locale)).toBeNaN()
      expect(parseLocaleNumber('12a', locale)).toBeNaN()
    }
  })
  it('never reads an English "1,234" as 1.234, nor guesses 1234: it is ambiguous (parse-number.property.test.ts)', () => {
    expect(parseLocaleNumber('1,234', 'en-CH')).toBeNaN()
    expect(parseLocaleNumber('1,234', 'en-GB')).toBeNaN()
    expect(parseLocaleNumber('1,234.5', 'en-GB')).toBe(1234.5)
  })
  it('reads French decimal commas', () => {
    expect(parseLocaleNumber('0,275', 'fr-CH')).toBe(0.275)
    expect(parseLocaleNumber('1 234,5', 'fr-CH')).toBe(1234.5)
  })
  it('reads back what the app formats, in every default locale', () => {
    for (const locale of ['de-CH', 'fr-CH', 'it-CH', 'en-CH']) {
      for (const v of [0.295, 12.5, 1234.5678, -98765.4321]) expect(parseLocaleNumber(formatNumber(v, locale, 4), locale)).toBeCloseTo(v, 4)
    }
  })
})
