/**
 * Photovoltaic production: clear-sky geometry from the sun's position, times a seeded
 * day-by-day weather model, times system losses.
 */
import { getPosition } from 'suncalc'
import { hash01, noise1d, smoothstep } from './random.ts'

const DEG = Math.PI / 180
const TILT = 30 * DEG // typical pitched-roof array
const ARRAY_AZIMUTH = 180 // facing south (suncalc 2: degrees, clockwise from north)
const SYSTEM_LOSSES = 0.85 // inverter, wiring, soiling, temperature

/**
 * The published series the simulator is fitted to: monthly yield of 1 kWp (kWh, Jan–Dec)
 * of a south-facing 30° array in Zürich, 1,100 kWh/kWp a year. Derived from measured global radiation at
 * MeteoSwiss station Zürich-Fluntern (SMA), daily means 2018–2021 (MeteoSwiss NBCN daily values,
 * https://data.geo.admin.ch/ch.meteoswiss.klima/nbcn-tageswerte/nbcn-daily_SMA_current.csv, as published by
 * Statistisches Amt Kanton Zürich, github.com/statistikZH/covid19monitoring_other_Weather), monthly means
 * in kWh/m²/day 1.05 1.93 3.19 5.03 5.16 6.01 5.93 4.80 4.03 2.24 1.08 0.75, transposed to the 30°
 * plane by the isotropic-sky method of Duffie & Beckman, Solar Engineering of Thermal Processes, §2.19
 * (Erbs et al. 1982 monthly diffuse fraction, Klein 1977 R_b, ground albedo 0.2), and scaled by a
 * performance ratio of 0.78 to the annual 1,100 kWh/kWp. November: 37.9 kWh = 1.26 kWh/kWp/day.
 */
export const ZURICH_MONTHLY_KWH_PER_KWP = [41.5, 62.8, 96.6, 129.2, 122.8, 133.3, 138.4, 120.5, 112.9, 75.6, 37.9, 28.4] as const

/**
 * Per UTC month, what brings the geometry-and-weather model's mean month (seeds 1–16, 2026–2027) to
 * ZURICH_MONTHLY_KWH_PER_KWP: the model's winter was too bright and its spring too dull.
 */
const MONTH_SCALE = [1.031, 1.171, 1.133, 1.179, 0.92, 0.934, 0.933, 0.896, 1.042, 0.958, 0.768, 0.773]

/**
 * Clear-sky output factor in [0, 1] of a south-facing, 30°-tilted array at `time`
 * (an instant) and `lat`/`lon` (degrees, east positive). 0 while the sun is below the
 * horizon; ≈ 1 at a high summer sun. Includes air-mass damping and a small diffuse share.
 */
export function clearSkyFactor(time: Date, lat: number, lon: number): number {
  const { altitude, azimuth } = getPosition(time, lat, lon)
  if (!(altitude > 0)) return 0
  const alt = altitude * DEG
  // Kasten–Young air mass stays finite at the horizon; Meinel's fit turns it into beam strength.
  const airMass = 1 / (Math.sin(alt) + 0.50572 * (altitude + 6.07995) ** -1.6364)
  const beam = 1.353 * 0.7 ** (airMass ** 0.678) // kW/m² normal to the sun
  const cosIncidence = Math.sin(alt) * Math.cos(TILT) + Math.cos(alt) * Math.sin(TILT) * Math.cos((azimuth - ARRAY_AZIMUTH) * DEG)
  const diffuse = 0.1 * beam * Math.sin(alt) ** 0.5 * (1 + Math.cos(TILT)) / 2
  // 1 kW/m² on the panel is the rating condition (STC).
  return Math.min(1, Math.max(0, beam * Math.max(0, cosIncidence) + diffuse))
}

/** 0 in mid-July, 1 in mid-January: drives how often winter days are overcast. */
function winterness(time: Date): number {
  const dayOfYear = (time.getTime() - Date.UTC(time.getUTCFullYear(), 0, 1)) / 86_400_000
  return (1 + Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365.25)) / 2
}

const strata = new Map<string, Map<string, number>>()
/**
 * The weather draw of UTC day `day` ("YYYY-MM-DD") in [0, 1), stratified over its month:
 * the seed shuffles the month's days and day k of the shuffle gets (k + ½) / days, so every month has its
 * climate's share of clear, mixed and overcast days whatever the seed, and a simulated month stays near
 * the published one (a plain draw per day made single months 30–50 % off).
 */
function weatherDraw(seed: number, day: string): number {
  const month = day.slice(0, 7)
  const key = `${seed}|${month}`
  let ranks = strata.get(key)
  if (!ranks) {
    if (strata.size > 500) strata.clear()
    const [y, m] = month.split('-').map(Number)
    const days = new Date(Date.UTC(y, m, 0)).getUTCDate()
    const order = Array.from({ length: days }, (_, i) => `${month}-${String(i + 1).padStart(2, '0')}`).sort((a, b) => hash01(seed, 'weather', a) - hash01(seed, 'weather', b))
    ranks = new Map(order.map((d, k) => [d, (k + 0.5) / days]))
    strata.set(key, ranks)
  }
  return ranks.get(day) ?? hash01(seed, 'weather', day)
}

/**
 * Fraction of clear-sky output that gets through the clouds, in [0.1, 1].
 * Each UTC calendar day draws a weather type from `seed` (stratified per month, weatherDraw): clear
 * (≈ 0.93–1), overcast (≈ 0.12–0.35, slowly varying) or mixed (passing clouds on a ~15-minute scale).
 * Overcast days are about three times as likely in winter as in summer.
 */
export function cloudFactor(time: Date, seed: number): number {
  const day = time.toISOString().slice(0, 10)
  const hours = time.getTime() / 3_600_000
  const w = winterness(time)
  const pOvercast = 0.15 + 0.35 * w
  const pClear = 0.45 - 0.25 * w
  const draw = weatherDraw(seed, day)
  let factor: number
  if (draw < pClear) {
    factor = 0.93 + 0.07 * noise1d(seed, 'haze', hours / 3)
  } else if (draw < pClear + pOvercast) {
    factor = 0.12 + 0.23 * noise1d(seed, 'overcast', hours)
  } else {
    // Quarter-hour lattice: clouds drift over in minutes, sunny spells last a while.
    const sky = 0.7 * noise1d(seed, 'cumulus', hours * 4) + 0.3 * noise1d(seed, 'cirrus', hours * 1.3)
    const coverage = 0.3 + 0.4 * hash01(seed, 'coverage', day)
    factor = 0.25 + 0.75 * smoothstep(coverage - 0.12, coverage + 0.12, sky)
  }
  return Math.min(1, Math.max(0.1, factor))
}

/**
 * AC power in kW of a PV array of `peakKw` (kWp) at `time` and `lat`/`lon` (degrees),
 * with weather drawn from `seed`: peakKw × clearSky × cloud × 0.85 system losses × the month's fit to
 * the published Zürich series (ZURICH_MONTHLY_KWH_PER_KWP).
 * Always in [0, peakKw], rounded to 3 decimals (watts). Production is positive.
 */
export function pvPowerKw(input: { time: Date; lat: number; lon: number; peakKw: number; seed: number }): number {
  const { time, lat, lon, peakKw, seed } = input
  const clear = clearSkyFactor(time, lat, lon)
  if (clear === 0 || peakKw <= 0) return 0
  const kw = peakKw * clear * cloudFactor(time, seed) * SYSTEM_LOSSES * MONTH_SCALE[time.getUTCMonth()]
  return Math.round(Math.min(peakKw, Math.max(0, kw)) * 1000) / 1000
}
