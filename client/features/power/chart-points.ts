import type { LineData, UTCTimestamp, WhitespaceData } from 'lightweight-charts'
import type { MetricsSample } from '../../live/store.ts'

export type SeriesKey = 'grid' | 'pv' | 'battery' | 'building' | 'charging'

/** The shortest silence drawn as a gap: twelve of the relay's 5 s metrics polls (ARCHITECTURE §5). */
export const MIN_GAP_MS = 60_000

/**
 * How long a silence must last to be drawn as a gap (ms): 2.5 times the usual spacing of the samples
 * (their median), at least {@link MIN_GAP_MS}, so meters read once a minute or every 5 minutes still draw
 * one line, while a gateway or meter that stopped reporting shows as a break (docs/decisions.md
 * "Charts: gaps show as gaps").
 */
export function gapAfterMs(history: readonly MetricsSample[]): number {
  const steps: number[] = []
  for (let i = 1; i < history.length; i++) steps.push(history[i].t - history[i - 1].t)
  if (steps.length === 0) return MIN_GAP_MS
  steps.sort((a, b) => a - b)
  return Math.max(MIN_GAP_MS, 2.5 * steps[Math.floor(steps.length / 2)])
}

/**
 * Chart points of one series: one per second at most (the chart needs strictly rising times). Where
 * no sample came for `gapMs` or the series' figure is missing (null), a whitespace point (a time without
 * a value) goes between, so lightweight-charts breaks the line instead of joining the two sides.
 */
export function seriesPoints(history: readonly MetricsSample[], key: SeriesKey, gapMs: number = gapAfterMs(history)): Array<LineData<UTCTimestamp> | WhitespaceData<UTCTimestamp>> {
  const out: Array<LineData<UTCTimestamp> | WhitespaceData<UTCTimestamp>> = []
  let prevT: number | null = null
  for (const s of history) {
    const value = s[key]
    const time = Math.floor(s.t / 1000) as UTCTimestamp
    const last = out[out.length - 1]
    if (prevT !== null && s.t - prevT > gapMs && last && 'value' in last && time > last.time + 1) {
      out.push({ time: (last.time + 1) as UTCTimestamp })
    }
    prevT = s.t
    const point = value === null ? { time } : { time, value }
    const prev = out[out.length - 1]
    if (prev && prev.time === time) out[out.length - 1] = point
    // One whitespace point is enough for a run of missing figures.
    else if (value !== null || (prev && 'value' in prev)) out.push(point)
  }
  return out
}
