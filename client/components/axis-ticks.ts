/**
 * Value-axis ticks for a bar chart whose values lie in [0, max]: `count` + 1 or fewer evenly spaced
 * round values from 0 up to the first tick at or above `max` (steps of 1, 2, 2.5 or 5 × 10^k), so an
 * axis reads "0, 5, 10, 15 kWh" rather than "0, 3.7, 7.4". A max of 0 or less (no data) gives [0, 1].
 */
export function axisTicks(max: number, count = 4): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0, 1]
  const raw = max / count
  const magnitude = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw - 1e-12) ?? 10 * magnitude
  const ticks: number[] = []
  // Rounding each tick to the step's decimals keeps 0.1 + 0.2 from printing as 0.30000000000000004.
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 2)
  for (let i = 0; ; i++) {
    const v = Number((i * step).toFixed(digits))
    ticks.push(v)
    if (v >= max - 1e-12) break
  }
  return ticks
}

/**
 * Which of `n` bucket labels to print under a bar chart so that at most `room` are shown: every k-th
 * bucket from the first (a day of 24 hours with room 8 → every 3rd: 00:00, 03:00, …).
 */
export function labelStride(n: number, room: number): number {
  return Math.max(1, Math.ceil(n / Math.max(1, room)))
}
