import { isHighTariff, minutesOf, type ScheduleEntry } from '../../../shared/rules/tariff.ts'
import { dayjs, localParts } from '../../../shared/rules/formats.ts'

/**
 * The next instant after `t` at which the high/low tariff may change: the next start or end of a schedule
 * entry on `t`'s local day, or the next local midnight (where the weekday, and the tariff in force, change).
 * Local times are resolved in `tz`, so a 23- or 25-hour day moves the instants with the zone.
 */
export function nextTariffChange(schedule: readonly ScheduleEntry[], tz: string, t: Date): Date {
  const p = localParts(t, tz)
  const candidates = new Set<number>([1440])
  for (const e of schedule) {
    const start = minutesOf(e.start)
    const end = minutesOf(e.end)
    candidates.add(start)
    candidates.add(end <= start ? 1440 : end)
  }
  const next = Math.min(...[...candidates].filter((c) => c > p.minute))
  const day = dayjs.tz(p.date, tz)
  const at = next >= 1440 ? day.add(1, 'day').startOf('day') : dayjs.tz(`${p.date} ${String(Math.floor(next / 60)).padStart(2, '0')}:${String(next % 60).padStart(2, '0')}`, tz)
  const ms = at.valueOf()
  // A local time the zone skips (spring forward) may resolve before `t`: move on by a minute at least.
  return new Date(ms > t.getTime() ? ms : t.getTime() + 60_000)
}

/**
 * Split `kwh` delivered between `from` and `to` into high- and low-tariff kWh by linear interpolation over
 * time (docs/decisions.md "Charging: energy split at tariff changes"): the energy between two register
 * readings is taken to flow evenly, so each tariff gets the share of the interval it covers. `scheduleAt`
 * gives the high-tariff schedule in force at an instant (null: no tariff, or a flat one — all low); it is
 * asked once per local day piece. An interval of no length (or `to` before `from`) goes wholly to the
 * tariff at `to`. Pieces are bounded by {@link nextTariffChange}, so a week-long interval takes a few dozen steps.
 */
export async function splitByTariff(kwh: number, from: Date, to: Date, tz: string, scheduleAt: (at: Date) => Promise<readonly ScheduleEntry[] | null>): Promise<{ highKwh: number; lowKwh: number }> {
  const highAt = async (at: Date) => {
    const schedule = await scheduleAt(at)
    if (!schedule) return false
    const p = localParts(at, tz)
    return isHighTariff(schedule, p.weekday, p.minute)
  }
  const total = to.getTime() - from.getTime()
  if (total <= 0) return (await highAt(to)) ? { highKwh: kwh, lowKwh: 0 } : { highKwh: 0, lowKwh: kwh }
  let highMs = 0
  let t = from
  while (t < to) {
    const schedule = (await scheduleAt(t)) ?? []
    const next = new Date(Math.min(to.getTime(), nextTariffChange(schedule, tz, t).getTime()))
    if (schedule.length && (await highAt(t))) highMs += next.getTime() - t.getTime()
    t = next
  }
  const highKwh = (kwh * highMs) / total
  return { highKwh, lowKwh: kwh - highKwh }
}
