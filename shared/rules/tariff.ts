/**
 * Tariff schedule (SPEC §3 Tariff/pricing): high-tariff time spans per weekday; the low tariff is their
 * complement over the day. Times are installation-local "HH:mm"; end "24:00" or "00:00" means midnight.
 */
export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export interface ScheduleEntry {
  start: string
  end: string
  monday: 0 | 1
  tuesday: 0 | 1
  wednesday: 0 | 1
  thursday: 0 | 1
  friday: 0 | 1
  saturday: 0 | 1
  sunday: 0 | 1
}

/** Minutes since midnight of "HH:mm"; "24:00" → 1440. Throws on a malformed time. */
export function minutesOf(hhmm: string): number {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(hhmm)
  if (!m || (m[1] === '24' && m[2] !== '00')) throw new Error(`invalid time ${hhmm}`)
  return Number(m[1]) * 60 + Number(m[2])
}

/**
 * Whether a local moment is in high tariff. `weekday` 0 = Monday … 6 = Sunday (the week starts Monday,
 * SPEC §9), `minute` 0..1439 since local midnight. An end at or before the start runs to midnight.
 */
export function isHighTariff(schedule: readonly ScheduleEntry[], weekday: number, minute: number): boolean {
  const day = WEEKDAYS[weekday]
  return schedule.some((e) => {
    if (!e[day]) return false
    const start = minutesOf(e.start)
    let end = minutesOf(e.end)
    if (end <= start) end = 1440
    return minute >= start && minute < end
  })
}
