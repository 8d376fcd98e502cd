import { hash01 } from './models/random.ts'

/**
 * The unknown card a driver presents at a station in learning mode (SPEC §4): a 14-hex-digit tag like
 * the demo cards', a pure function of seed, station and minute, so a run is reproducible.
 */
export function unknownBadge(seed: number, stationId: number, t: Date): string {
  const minute = Math.floor(t.getTime() / 60_000)
  let tag = ''
  for (let i = 0; i < 14; i++) tag += Math.floor(hash01(seed, 'learn', stationId, minute, i) * 16).toString(16).toUpperCase()
  return tag
}
