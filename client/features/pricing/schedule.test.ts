import { describe, expect, it } from 'vitest'
import { daySpans, hhmm } from './schedule.ts'
import type { ScheduleEntry } from '../../../shared/rules/tariff.ts'

const e = (start: string, end: string, days: number[]): ScheduleEntry => {
  const names = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
  return { start, end, ...Object.fromEntries(names.map((n, i) => [n, days.includes(i) ? 1 : 0])) } as ScheduleEntry
}

describe('daySpans: low tariff is the complement of high tariff over the day', () => {
  const schedule = [e('07:00', '20:00', [0, 1, 2, 3, 4]), e('07:00', '13:00', [5]), e('12:00', '14:00', [5]), e('22:00', '00:00', [6])]
  it('weekday: high 07–20, low before and after', () => {
    expect(daySpans(schedule, 0)).toEqual({ high: [[420, 1200]], low: [[0, 420], [1200, 1440]] })
  })
  it('merges overlapping entries and runs an end at midnight to 24:00', () => {
    expect(daySpans(schedule, 5).high).toEqual([[420, 840]])
    expect(daySpans(schedule, 6)).toEqual({ high: [[1320, 1440]], low: [[0, 1320]] })
  })
  it('a day without entries is low all day', () => {
    expect(daySpans([], 3)).toEqual({ high: [], low: [[0, 1440]] })
    expect(hhmm(1440)).toBe('24:00')
  })
})
