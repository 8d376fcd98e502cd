import { describe, expect, it } from 'vitest'
import { elapsed } from './elapsed.ts'

const start = Date.parse('2026-03-04T18:30:00+01:00')
describe('a session\'s elapsed time on the station card', () => {
  it('counts whole minutes, then hours and minutes', () => {
    expect(elapsed(start, start + 59_999)).toEqual({ key: 'elapsedMinutes', minutes: 0 })
    expect(elapsed(start, start + 45 * 60_000)).toEqual({ key: 'elapsedMinutes', minutes: 45 })
    expect(elapsed(start, start + (2 * 60 + 15) * 60_000 + 30_000)).toEqual({ key: 'elapsedHours', hours: 2, minutes: 15 })
    expect(elapsed(start, start + 26 * 3600_000)).toEqual({ key: 'elapsedHours', hours: 26, minutes: 0 })
  })
  it('shows nothing for a start ahead of the clock', () => {
    expect(elapsed(start, start - 61_000)).toBeNull()
    expect(elapsed(Number.NaN, start)).toBeNull()
  })
})
