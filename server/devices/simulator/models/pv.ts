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

/**
 * Fraction of clear-sky output that gets through the clouds, in [0.1, 1].
 * Each UTC calendar day draws a weather type from `seed`: clear (≈ 0.93–1), overcast
 * (≈ 0.12–0.35, slowly varying) or mixed (passing clouds on a ~15-minute scale).
 * Overcast days are about three times as likely in winter as in summer.
 */
export function cloudFactor(time: Date, seed: number): number {
  const day = time.toISOString().slice(0, 10)
  const hours = time.getTime() / 3_600_000
  const w = winterness(time)
  const pOvercast = 0.15 + 0.35 * w
  const pClear = 0.45 - 0.25 * w
  const draw = hash01(seed, 'weather', day)
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
 * with weather drawn from `seed`: peakKw × clearSky × cloud × 0.85 system losses.
 * Always in [0, peakKw], rounded to 3 decimals (watts). Production is positive.
 */
export function pvPowerKw(input: { time: Date; lat: number; lon: number; peakKw: number; seed: number }): number {
  const { time, lat, lon, peakKw, seed } = input
  const clear = clearSkyFactor(time, lat, lon)
  if (clear === 0 || peakKw <= 0) return 0
  const kw = peakKw * clear * cloudFactor(time, seed) * SYSTEM_LOSSES
  return Math.round(Math.min(peakKw, Math.max(0, kw)) * 1000) / 1000
}
