import { describe, expect, it } from 'vitest'
import { parseLocaleNumber } from './parse-number.ts'

describe('parseLocaleNumber', () => {
  it('reads decimal points, decimal commas and Swiss thousands; empty or junk is NaN', () => {
    expect(parseLocaleNumber('0.275')).toBe(0.275)
    expect(parseLocaleNumber('0,275')).toBe(0.275)
    expect(parseLocaleNumber("1'234.50")).toBe(1234.5)
    expect(parseLocaleNumber('1,234.50')).toBe(1234.5)
    expect(parseLocaleNumber('')).toBeNaN()
    expect(parseLocaleNumber('abc')).toBeNaN()
    expect(parseLocaleNumber('1.2.3')).toBeNaN()
  })
})
