/**
 * Deterministic randomness for the simulator: every value is a pure function of a numeric
 * seed and some keys, so the same seed and clock always rebuild the same facility.
 */

/**
 * Uniform pseudo-random number in [0, 1) from a seed and any number of keys.
 * Same arguments → same value; changing any key or the seed gives an unrelated value.
 * Keys are compared by their string form, so `1` and `'1'` are the same key.
 */
export function hash01(seed: number, ...keys: (number | string)[]): number {
  // xmur3-style string hash over all parts, then one mulberry32 step for avalanche.
  const text = `${seed}\u0001${keys.join('\u0001')}`
  let h = 1779033703 ^ text.length
  for (let i = 0; i < text.length; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 3432918353)
    h = (h << 13) | (h >>> 19)
  }
  h = Math.imul(h ^ (h >>> 16), 2246822507)
  h = Math.imul(h ^ (h >>> 13), 3266489909)
  let t = ((h ^ (h >>> 16)) + 0x6d2b79f5) | 0
  t = Math.imul(t ^ (t >>> 15), t | 1)
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296
}

/** Hermite smoothstep: 0 below `edge0`, 1 above `edge1`, an S-curve in between. */
export function smoothstep(edge0: number, edge1: number, x: number): number {
  const u = Math.min(1, Math.max(0, (x - edge0) / (edge1 - edge0)))
  return u * u * (3 - 2 * u)
}

/**
 * Smooth 1-D value noise in [0, 1) along `t` (any unit, e.g. hours): hash01 values at the
 * integers of `t`, blended with smoothstep in between, so one unit of `t` is one "feature".
 * `key` separates independent noise streams under the same seed.
 */
export function noise1d(seed: number, key: string, t: number): number {
  const i = Math.floor(t)
  const a = hash01(seed, key, i)
  const b = hash01(seed, key, i + 1)
  return a + (b - a) * smoothstep(0, 1, t - i)
}
