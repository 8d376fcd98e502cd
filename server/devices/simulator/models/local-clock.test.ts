import { describe, expect, it } from 'vitest'
import { localParts } from '../../../../shared/rules/formats.ts'
import { addDays, dayOfYear, localClock, weekdayOf } from './local-clock.ts'

describe('localClock', () => {
  it('agrees with shared localParts minute by minute across both DST switches and other zones', () => {
    const zones = ['Europe/Zurich', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata']
    const windows = ['2026-03-28T12:00:00Z', '2026-10-24T12:00:00Z', '2026-04-04T06:00:00Z', '2026-10-03T06:00:00Z', '2026-03-08T00:00:00Z']
    for (const tz of zones) {
      for (const from of windows) {
        const start = Date.parse(from)
        for (let m = 0; m < 48 * 60; m += 7) {
          const time = new Date(start + m * 60_000 + 13_000)
          expect(localClock(time, tz)).toEqual(localParts(time, tz))
        }
      }
    }
  })
})

describe('calendar helpers', () => {
  it('adds days across month and year ends and gives Monday as weekday 0', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(weekdayOf('2026-11-23')).toBe(0)
    expect(weekdayOf('2026-11-29')).toBe(6)
    expect(dayOfYear('2026-01-01')).toBe(0)
    expect(dayOfYear('2026-12-31')).toBe(364)
  })
})
