import { describe, expect, it } from 'vitest'
import { isHighTariff, minutesOf, type ScheduleEntry } from './tariff.ts'

const weekdays: ScheduleEntry = { start: '07:00', end: '20:00', monday: 1, tuesday: 1, wednesday: 1, thursday: 1, friday: 1, saturday: 0, sunday: 0 }
const saturday: ScheduleEntry = { start: '07:00', end: '13:00', monday: 0, tuesday: 0, wednesday: 0, thursday: 0, friday: 0, saturday: 1, sunday: 0 }

describe('tariff schedule (demo: high 07–20 Mon–Fri, 07–13 Sat)', () => {
  it('is high inside the spans and low in their complement', () => {
    expect(isHighTariff([weekdays, saturday], 0, minutesOf('07:00'))).toBe(true)
    expect(isHighTariff([weekdays, saturday], 0, minutesOf('06:59'))).toBe(false)
    expect(isHighTariff([weekdays, saturday], 4, minutesOf('19:59'))).toBe(true)
    expect(isHighTariff([weekdays, saturday], 4, minutesOf('20:00'))).toBe(false)
    expect(isHighTariff([weekdays, saturday], 5, minutesOf('12:00'))).toBe(true)
    expect(isHighTariff([weekdays, saturday], 5, minutesOf('13:00'))).toBe(false)
    expect(isHighTariff([weekdays, saturday], 6, minutesOf('12:00'))).toBe(false)
  })
  it('rejects malformed times', () => {
    expect(() => minutesOf('7:00')).toThrow()
    expect(() => minutesOf('24:30')).toThrow()
  })
})
