import { describe, expect, it } from 'vitest'
import { DateTime, Day, DayOrDateTime, Id, IdNumber, IdOrZero, ListQuery, MAX_ID, Text } from './common.ts'

describe('bounded ids', () => {
  it('take 1..2^31−1 and refuse what PostgreSQL integer cannot hold', () => {
    expect(Id.parse('2147483647')).toBe(MAX_ID)
    for (const bad of ['2147483648', '99999999999999999999', '0', '-1', '1.5', '']) expect(Id.safeParse(bad).success, bad).toBe(false)
    expect(IdNumber.safeParse(2 ** 31).success).toBe(false)
    expect(IdNumber.safeParse('5').success).toBe(false)
    expect(IdOrZero.parse('0')).toBe(0)
    expect(IdOrZero.safeParse(2 ** 31).success).toBe(false)
    expect(ListQuery.safeParse({ offset: '99999999999999999999' }).success).toBe(false)
  })
})

describe('dates', () => {
  it('refuse year 0000, years past 9999 and days that do not exist', () => {
    expect(Day.safeParse('2024-02-29').success).toBe(true)
    expect(Day.safeParse('0001-01-01').success).toBe(true)
    for (const bad of ['0000-01-01', '2023-02-29', '2021-02-30', '2021-13-01', '10000-01-01']) expect(Day.safeParse(bad).success, bad).toBe(false)
    expect(DateTime.safeParse('2026-03-01T10:00:00+01:00').success).toBe(true)
    for (const bad of ['0000-01-01T00:00:00Z', '2021-02-30T00:00:00Z', '2026-01-01T24:30:00Z', '2026-01-01T10:00:00']) expect(DateTime.safeParse(bad).success, bad).toBe(false)
    expect(DayOrDateTime.safeParse('0000-01-01').success).toBe(false)
    expect(DayOrDateTime.safeParse('2026-01-01').success).toBe(true)
  })
})

describe('Text', () => {
  it('bounds the length after trimming and refuses control characters', () => {
    expect(Text(5).parse('  abcde  ')).toBe('abcde')
    expect(Text(5).safeParse('abcdef').error?.issues[0]).toMatchObject({ code: 'too_big', maximum: 5 })
    for (const bad of ['a\u0000b', 'a\u0007b', 'a\nb', 'a\u001bb']) expect(Text(50).safeParse(bad).success, JSON.stringify(bad)).toBe(false)
    expect(Text(50).safeParse('a\tb').success).toBe(true)
    expect(Text(50, { multiline: true }).parse('line 1\r\nline 2')).toBe('line 1\r\nline 2')
    expect(Text(50, { multiline: true }).safeParse('a\u0000b').success).toBe(false)
  })
})
