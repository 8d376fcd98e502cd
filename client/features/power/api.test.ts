import { describe, expect, it } from 'vitest'
import { flowSamples } from './api.ts'

const Q = 15 * 60_000
const NOW = Date.parse('2026-03-02T10:20:00Z')
const at = (ms: number) => new Date(ms).toISOString()
const quarters = [NOW - 80 * 60_000, NOW - 65 * 60_000, NOW - 50 * 60_000, NOW - 35 * 60_000, NOW - 20 * 60_000].map((t) => Math.floor(t / Q) * Q).concat(Date.parse('2026-03-02T10:15:00Z'))

describe('flowSamples (the stored hour the Power chart starts from)', () => {
  const series = (value: (i: number) => number) => quarters.map((q, i) => ({ start: at(q), value: value(i) }))
  const answer = {
    series: {
      grid_flow: series((i) => i),
      pv_flow: series(() => 2),
      battery_charge_flow: series(() => 1),
      battery_discharge_flow: series(() => 0.5),
      charging_stations_flow: series(() => 3),
    },
  }

  it('spans the last hour at the live rate with each quarter\'s average power', () => {
    const s = flowSamples(answer, NOW, 5000)
    expect(s.length).toBe(720)
    expect(s[0].t).toBe(NOW - 3600_000)
    expect(s[s.length - 1].t).toBe(NOW - 5000)
    const last = s[s.length - 1]
    // Quarter 10:15: grid 5, PV 2, battery +0.5 (charging), stations 3 → building 5 + 2 − 0.5 − 3.
    expect(last).toMatchObject({ grid: 5, pv: 2, battery: 0.5, charging: 3, building: 3.5 })
    expect(s[0].grid).toBe(1) // 09:20 lies in the 09:15 quarter
  })

  it('leaves the overview series empty for a caller who sees only the stations', () => {
    const s = flowSamples({ series: { charging_stations_flow: answer.series.charging_stations_flow } }, NOW, 5000)
    expect(s[0]).toMatchObject({ grid: null, pv: null, battery: null, building: null, charging: 3 })
  })
})
