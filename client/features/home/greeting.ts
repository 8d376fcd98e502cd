import { dayjs } from '../../../shared/rules/formats.ts'

/** Part of the day at `now` in the installation's time zone: morning before 12, afternoon before 18. */
export function dayPart(now: Date, timezone: string): 'morning' | 'afternoon' | 'evening' {
  const hour = dayjs(now).tz(timezone).hour()
  return hour < 5 ? 'evening' : hour < 12 ? 'morning' : hour < 18 ? 'afternoon' : 'evening'
}
