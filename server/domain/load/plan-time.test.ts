import { describe, expect, it } from 'vitest'
import { nextAt, nextDeadline } from './plan-time.ts'

/** When a charge plan is due, in the installation's zone (docs/decisions.md "Load management: charge plans"). */
const ZH = 'Europe/Zurich'
const none = { repeat_monday: false, repeat_tuesday: false, repeat_wednesday: false, repeat_thursday: false, repeat_friday: false, repeat_saturday: false, repeat_sunday: false }

describe('charge plan deadlines', () => {
  it('takes the next 07:00, also across the night the clocks go forward', () => {
    // Saturday 28 March 2026, 22:00 in Zürich; the clocks go to summer time that night.
    expect(nextAt('07:00', new Date('2026-03-28T21:00:00Z'), ZH)?.toISOString()).toBe('2026-03-29T05:00:00.000Z')
    expect(nextAt('23:00', new Date('2026-03-28T21:00:00Z'), ZH)?.toISOString()).toBe('2026-03-28T22:00:00.000Z')
  })

  it('skips to the next chosen weekday, and a once-plan ends at its instant', () => {
    // Friday 27 November 2026, 22:00: weekdays 07:00 is due Monday.
    const weekdays = { ...none, repeat_monday: true, repeat_tuesday: true, repeat_wednesday: true, repeat_thursday: true, repeat_friday: true }
    expect(nextDeadline({ deadline_time: '07:00', deadline_at: null, ...weekdays }, new Date('2026-11-27T21:00:00Z'), ZH)?.toISOString()).toBe('2026-11-30T06:00:00.000Z')
    expect(nextDeadline({ deadline_time: '07:00', deadline_at: null, ...none }, new Date('2026-11-27T21:00:00Z'), ZH)).toBeNull()
    const once = { deadline_time: '07:00', deadline_at: new Date('2026-11-28T06:00:00Z'), ...none }
    expect(nextDeadline(once, new Date('2026-11-28T05:59:00Z'), ZH)?.toISOString()).toBe('2026-11-28T06:00:00.000Z')
    expect(nextDeadline(once, new Date('2026-11-28T06:00:00Z'), ZH)).toBeNull()
  })
})
