/**
 * Household electricity: a seeded daily profile per apartment, common areas (lighting,
 * ventilation, lift) and their sum for the whole building. All powers are consumption, kW ≥ 0.
 */
import { dayOfYear, localClock } from './local-clock.ts'
import { hash01, smoothstep } from './random.ts'

/**
 * Typical yearly electricity use (kWh) of a household in a Swiss apartment building without electric
 * heating or water heating, by persons: 1 person 2,200, 2 persons 2,750, 4 persons 3,850
 * (J. Nipkow, "Typischer Haushalt-Stromverbrauch", Swiss Federal Office of Energy SFOE, August 2021, as
 * summarised at homegate.ch/c/en/advisor/sustainability/average-electricity-consumption-in-switzerland);
 * 3 persons is interpolated.
 */
export const SWISS_FLAT_KWH_PER_YEAR = { 1: 2200, 2: 2750, 3: 3300, 4: 3850 } as const
// What the profile gives over a year, measured (2026, 5-minute samples): the smooth shape at scale 1,
// and the dinner-time cooking spikes, which do not scale with the household (a hob draws what it draws).
const SHAPE_KWH_PER_YEAR = 3845
const COOKING_KWH_PER_YEAR = 330

/** Persons (1–4) of apartment `apartment`'s household under `seed`; its size sets its yearly use. */
export function householdPersons(seed: number, apartment: number): 1 | 2 | 3 | 4 {
  return (1 + Math.floor(hash01(seed, 'apt-scale', apartment) * 4)) as 1 | 2 | 3 | 4
}

/** 1 between `start` and `end` (hours), easing in and out over `edge` hours on each side. */
function plateau(hour: number, start: number, end: number, edge = 0.5): number {
  return smoothstep(start - edge, start + edge, hour) * (1 - smoothstep(end - edge, end + edge, hour))
}

/** The household's smooth profile in kW before its scale factor, by local hour. */
function householdShape(hour: number, weekend: boolean): number {
  if (weekend) {
    return 0.22 + 0.6 * plateau(hour, 8.5, 10, 0.6) + 0.3 * plateau(hour, 10, 17, 0.8) +
      0.4 * plateau(hour, 12, 13.5, 0.4) + 0.85 * plateau(hour, 18.5, 22.5, 0.6)
  }
  return 0.2 + 0.7 * plateau(hour, 6.5, 8.5, 0.4) + 0.25 * plateau(hour, 12, 13.25, 0.4) +
    0.85 * plateau(hour, 18, 21.5, 0.5) + 0.2 * plateau(hour, 21.5, 23, 0.5)
}

/**
 * Consumption in kW (≥ 0.05, 3 decimals) of apartment number `apartment` (0-based) at
 * `time`, using the installation time zone `tz` for the daily rhythm; over a year the Swiss typical
 * figure for its household size (SWISS_FLAT_KWH_PER_YEAR). Night ≈ 0.1–0.2 kW,
 * weekday morning peak 6:30–8:30, lunch bump, evening 18:00–21:30 up to ≈ 2–3 kW with
 * cooking spikes; weekends start later and stay higher through the day. A ±4 % jitter
 * changes every 5-second slot so live values move.
 */
export function apartmentLoadKw(input: { time: Date; tz: string; seed: number; apartment: number }): number {
  const { time, tz, seed, apartment } = input
  const { weekday, minute, date } = localClock(time, tz)
  const weekend = weekday >= 5
  // Households differ in size (their yearly use is the Swiss figure for it) and keep their own, slightly
  // varying, daily timing.
  const scale = (SWISS_FLAT_KWH_PER_YEAR[householdPersons(seed, apartment)] - COOKING_KWH_PER_YEAR) / SHAPE_KWH_PER_YEAR
  const shift = (hash01(seed, 'apt-shift', apartment, date) - 0.5) * 0.8
  const hour = minute / 60 - shift
  let kw = householdShape(hour, weekend) * scale
  // Hob or oven switched on for a 10-minute slot while dinner is made.
  const cooking = plateau(hour, weekend ? 17.5 : 17.75, weekend ? 20.5 : 19.75, 0.25)
  const slot10 = Math.floor(minute / 10)
  if (cooking > 0 && hash01(seed, 'cook', apartment, date, slot10) < 0.35) {
    kw += cooking * (0.8 + 0.7 * hash01(seed, 'cook-kw', apartment, date, slot10))
  }
  const jitter = 1 + 0.08 * (hash01(seed, 'apt-jitter', apartment, Math.floor(time.getTime() / 5000)) - 0.5)
  return Math.round(Math.max(0.05, kw * jitter) * 1000) / 1000
}

/**
 * Common-area consumption in kW (≈ 0.5–2): ventilation always (lower at night), stairwell
 * and garage lighting while it is dark (sunrise/sunset approximated for central Europe by
 * season), and lift trips that are likelier in the morning and evening rush.
 */
export function commonAreaLoadKw(input: { time: Date; tz: string; seed: number }): number {
  const { time, tz, seed } = input
  const { minute, date } = localClock(time, tz)
  const hour = minute / 60
  const ventilation = (hour >= 6 && hour < 22 ? 0.45 : 0.35) * (0.9 + 0.2 * hash01(seed, 'vent'))
  // 1 at the winter solstice, 0 at the summer one (local clock, DST included).
  const winter = (1 + Math.cos((2 * Math.PI * (dayOfYear(date) + 10)) / 365.25)) / 2
  const sunrise = 5.5 + 2.7 * winter
  const sunset = 21.45 - 4.8 * winter
  const dark = hour < sunrise || hour > sunset
  const lighting = dark ? (hour >= 0.5 && hour < 5.5 ? 0.15 : 0.35) : 0.05
  const rush = plateau(hour, 6.5, 9, 0.5) + plateau(hour, 17, 20, 0.5)
  const daytime = plateau(hour, 6, 22.5, 0.5)
  const pTrip = 0.02 + 0.1 * daytime + 0.25 * rush
  const slot30 = Math.floor(time.getTime() / 30_000)
  const lift = hash01(seed, 'lift', slot30) < pTrip ? 0.8 + 0.4 * hash01(seed, 'lift-kw', slot30) : 0
  return Math.round((ventilation + lighting + lift) * 1000) / 1000
}

/**
 * Whole-building consumption in kW (3 decimals): apartments 0 … `apartments` − 1 plus
 * common areas. Excludes EV charging and heat pumps: the engine adds those itself.
 */
export function buildingLoadKw(input: { time: Date; tz: string; seed: number; apartments: number }): number {
  const { time, tz, seed, apartments } = input
  let kw = commonAreaLoadKw({ time, tz, seed })
  for (let apartment = 0; apartment < apartments; apartment++) kw += apartmentLoadKw({ time, tz, seed, apartment })
  return Math.round(kw * 1000) / 1000
}
