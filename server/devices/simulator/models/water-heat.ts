/**
 * Outdoor temperature, per-apartment water draw (cold and hot meters) and space heating.
 * Water use is a seeded list of events per apartment and local day (showers, taps, kitchen,
 * toilets, machines), so a meter integrating the flow sees a plausible daily total.
 */
import { dayOfYear, localClock, weekdayOf } from './local-clock.ts'
import { hash01, noise1d } from './random.ts'

/** Zürich-like seasonal mean in °C: ≈ 1 °C around 20 January, ≈ 19 °C around 22 July. */
function seasonalC(date: string): number {
  return 10 - 9 * Math.cos((2 * Math.PI * (dayOfYear(date) - 20)) / 365.25)
}

/** Seasonal mean plus weather noise in °C, without the daily swing. */
function dailyMeanC(time: Date, date: string, seed: number): number {
  const days = time.getTime() / 86_400_000
  // Weather fronts last a few days; a faster term adds day-to-day wobble.
  const weather = 7 * (noise1d(seed, 'temp-front', days / 3) - 0.5) + 3 * (noise1d(seed, 'temp-day', days) - 0.5)
  return seasonalC(date) + weather
}

/** Daily swing in [-1, 1]: −1 at 06:00, +1 at 15:00, local time. */
function dailySwing(hour: number): number {
  if (hour >= 6 && hour < 15) return -Math.cos((Math.PI * (hour - 6)) / 9)
  return Math.cos((Math.PI * ((hour - 15 + 24) % 24)) / 15)
}

/**
 * Outdoor air temperature in °C (2 decimals) at `time` for a site in zone `tz`: a Zürich-like
 * season (≈ 1 °C mean in January, ≈ 19 °C in July), ±4 °C daily swing (coldest ≈ 06:00,
 * warmest ≈ 15:00 local) and smooth multi-day weather noise of several °C from `seed`.
 */
export function outdoorTempC(time: Date, tz: string, seed: number): number {
  const { minute, date } = localClock(time, tz)
  return Math.round((dailyMeanC(time, date, seed) + 4 * dailySwing(minute / 60)) * 100) / 100
}

/** One water draw: start minute of the local day, whole minutes long, L/min, hot share. */
type Draw = { start: number; minutes: number; lpm: number; hot: number }

const drawCache = new Map<string, Draw[]>()

/** All draws of one apartment on one local day, drawn from the seed. */
function dayDraws(seed: number, apartment: number, date: string): Draw[] {
  const cacheKey = `${seed}|${apartment}|${date}`
  const cached = drawCache.get(cacheKey)
  if (cached) return cached
  const u = (...keys: (string | number)[]) => hash01(seed, 'water', apartment, date, ...keys)
  const weekend = weekdayOf(date) >= 5
  const wake = weekend ? 7.5 : 6 // hour the household gets up
  const persons = 2 + (hash01(seed, 'persons', apartment) < 0.5 ? 1 : 0)
  const draws: Draw[] = []
  const at = (fromHour: number, spanHours: number, ...keys: (string | number)[]) => Math.floor((fromHour + spanHours * u(...keys)) * 60)

  for (let p = 0; p < persons; p++) {
    if (u('shower', p) < 0.85) {
      const start = u('shower-when', p) < 0.65 ? at(wake, 2, 'shower-at', p) : at(18, 4, 'shower-at', p)
      draws.push({ start, minutes: 6 + Math.floor(5 * u('shower-len', p)), lpm: 9, hot: 0.45 })
    }
    for (let i = 0; i < 5; i++) {
      // Flushes follow the waking day, with the odd one at night.
      const start = u('wc-night', p, i) < 0.06 ? at(0, 5, 'wc', p, i) : at(wake, 23 - wake, 'wc', p, i)
      draws.push({ start, minutes: 1, lpm: 6, hot: 0 })
    }
    for (let i = 0; i < 5; i++) draws.push({ start: at(wake, 23 - wake, 'tap', p, i), minutes: 1, lpm: 4, hot: 0.2 })
  }
  draws.push({ start: at(wake, 1.5, 'breakfast'), minutes: 3, lpm: 5, hot: 0.35 })
  if (weekend || u('lunch') < 0.4) draws.push({ start: at(12, 1, 'lunch-at'), minutes: 4, lpm: 5, hot: 0.35 })
  draws.push({ start: at(18.5, 1.5, 'dinner'), minutes: 6, lpm: 6, hot: 0.35 })
  // Machines heat their own water, so they only draw cold.
  if (u('dishwasher') < 0.7) for (let i = 0; i < 3; i++) draws.push({ start: at(20.5, 1.5, 'dw') + i * 25, minutes: 1, lpm: 4, hot: 0 })
  if (u('laundry') < (weekend ? 0.6 : 0.35)) for (let i = 0; i < 4; i++) draws.push({ start: at(9, 9, 'wash') + i * 15, minutes: 2, lpm: 6, hot: 0 })

  if (drawCache.size >= 5000) drawCache.clear()
  drawCache.set(cacheKey, draws)
  return draws
}

/**
 * Water flow in litres per minute (≥ 0, 2 decimals) through apartment `apartment`'s cold or
 * hot meter at `time` (local zone `tz`). Flow changes on whole local minutes: draws are
 * showers (mostly 6–9 h weekdays, later on weekends, or 18–22 h), taps, kitchen at meals,
 * toilet flushes and machines; mostly 0 at night. Per apartment and day ≈ 300–450 L in total,
 * hot ≈ 30–40 % of cold. Outside a draw the flow is exactly 0.
 */
export function waterFlowLitresPerMinute(input: { time: Date; tz: string; seed: number; apartment: number; kind: 'cold' | 'hot' }): number {
  const { time, tz, seed, apartment, kind } = input
  const { minute, date } = localClock(time, tz)
  let lpm = 0
  for (const d of dayDraws(seed, apartment, date)) {
    if (minute >= d.start && minute < d.start + d.minutes) lpm += d.lpm * (kind === 'hot' ? d.hot : 1 - d.hot)
  }
  return Math.round(lpm * 100) / 100
}

/**
 * Space-heating power in kW (≥ 0, 3 decimals) delivered to apartment `apartment` at `time`:
 * proportional to 18 °C minus the (thermally smoothed) outdoor temperature, ≈ 1–4 kW on a
 * typical winter day, halved during the night setback 22:00–06:00 local, and 0 in summer
 * (plant off from about late May to late September, and on any day whose mean outdoor
 * temperature is 16 °C or more).
 */
export function heatPowerKw(input: { time: Date; tz: string; seed: number; apartment: number }): number {
  const { time, tz, seed, apartment } = input
  const { minute, date } = localClock(time, tz)
  const mean = dailyMeanC(time, date, seed)
  // Summer mode (≈ late May to late September) or a warm day: the plant stays off.
  if (seasonalC(date) >= 14 || mean >= 16) return 0
  const hour = minute / 60
  // The building's mass follows the daily mean and only partly the afternoon swing.
  const felt = mean + 0.3 * 4 * dailySwing(hour)
  const kwPerKelvin = 0.16 * (0.8 + 0.45 * hash01(seed, 'heat-loss', apartment))
  const setback = hour >= 22 || hour < 6 ? 0.5 : 1
  return Math.round(Math.max(0, 18 - felt) * kwPerKelvin * setback * 1000) / 1000
}
