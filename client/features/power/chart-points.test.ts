import { describe, expect, it } from 'vitest'
import type { MetricsSample } from '../../live/store.ts'
import { seriesPoints } from './chart-points.ts'

const t0 = Date.parse('2026-03-04T14:00:00Z')
const sample = (sec: number, grid: number | null): MetricsSample => ({ t: t0 + sec * 1000, grid, pv: null, battery: null, building: null, charging: 0 })
/** Every 5 s from `from` to `to` seconds (inclusive). */
const every5 = (from: number, to: number, grid: number | null = 3) => Array.from({ length: (to - from) / 5 + 1 }, (_, i) => sample(from + i * 5, grid))
const gaps = (points: ReturnType<typeof seriesPoints>) => points.filter((p) => !('value' in p)).map((p) => (p.time as number) * 1000 - t0)

describe('the live chart\'s points: a gap shows as a gap', () => {
  it('breaks the line where no data came for ten minutes (a gateway outage)', () => {
    const history = [...every5(0, 600), ...every5(1200, 1800)]
    const points = seriesPoints(history, 'grid')
    // One whitespace point inside the silence: lightweight-charts draws no line across it.
    expect(gaps(points)).toHaveLength(1)
    expect(gaps(points)[0]).toBeGreaterThan(600_000)
    expect(gaps(points)[0]).toBeLessThan(1_200_000)
    // The figures themselves are all there, in time order.
    expect(points.filter((p) => 'value' in p)).toHaveLength(history.length)
  })

  it('draws one line through samples at the meters\' own rhythm (a meter read once a minute)', () => {
    const history = Array.from({ length: 60 }, (_, i) => sample(i * 60, 2))
    expect(gaps(seriesPoints(history, 'grid'))).toEqual([])
    expect(gaps(seriesPoints(every5(0, 3595), 'grid'))).toEqual([])
  })

  it('breaks the line where the figure is missing (null), instead of joining its neighbours', () => {
    const history = [...every5(0, 100), ...every5(105, 200, null), ...every5(205, 300)]
    const points = seriesPoints(history, 'grid')
    expect(gaps(points).length).toBeGreaterThan(0)
    expect(points.filter((p) => 'value' in p)).toHaveLength(every5(0, 100).length + every5(205, 300).length)
  })

  it('keeps one point per second (the chart needs strictly rising times)', () => {
    const points = seriesPoints([sample(0, 1), { ...sample(0, 2), t: t0 + 400 }, sample(5, 3)], 'grid')
    expect(points).toEqual([{ time: t0 / 1000, value: 2 }, { time: t0 / 1000 + 5, value: 3 }])
  })
})
