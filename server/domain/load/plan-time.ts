/**
 * When a charge plan is due (docs/decisions.md "Load management: charge plans"): a once-plan at its
 * instant, a repeating plan at its "HH:mm" on the next chosen weekday, both installation-local (SPEC §9
 * time zones; a day of 23 or 25 hours handled by the zone).
 */
import { dayjs, localParts } from '../../../shared/rules/formats.ts'
import { WEEKDAY_FIELDS } from '../../../shared/schemas/timer.ts'

/** A plan's timing as stored (migration 0181). */
export interface PlanTiming {
  deadline_time: string
  deadline_at: Date | null
  repeat_monday: boolean
  repeat_tuesday: boolean
  repeat_wednesday: boolean
  repeat_thursday: boolean
  repeat_friday: boolean
  repeat_saturday: boolean
  repeat_sunday: boolean
}

/** The instant local "HH:mm" `time` of local date `date` ("YYYY-MM-DD") in zone `tz`. */
export function localInstant(date: string, time: string, tz: string): Date {
  return dayjs.tz(`${date} ${time}`, 'YYYY-MM-DD HH:mm', tz).toDate()
}

/**
 * The first instant after `now` at local `time` on a weekday `days` allows (Monday first; all allowed
 * when `days` is omitted), within the next eight days; null when no day is chosen.
 */
export function nextAt(time: string, now: Date, tz: string, days?: readonly boolean[]): Date | null {
  const today = localParts(now, tz).date
  for (let d = 0; d < 9; d++) {
    const date = dayjs(today).add(d, 'day').format('YYYY-MM-DD')
    const at = localInstant(date, time, tz)
    if (at.getTime() <= now.getTime()) continue
    if (days && !days[localParts(at, tz).weekday]) continue
    return at
  }
  return null
}

/** The plan's next deadline after `now`: a once-plan's instant while ahead (else null), a repeating plan's next weekday. */
export function nextDeadline(p: PlanTiming, now: Date, tz: string): Date | null {
  if (p.deadline_at !== null) return p.deadline_at.getTime() > now.getTime() ? p.deadline_at : null
  return nextAt(p.deadline_time, now, tz, WEEKDAY_FIELDS.map((f) => p[f]))
}
