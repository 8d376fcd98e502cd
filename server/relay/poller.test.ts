import { describe, expect, it } from 'vitest'
import { createPollers } from './poller.ts'
import type { Hub } from './hub.ts'
import type { Upstream } from './upstream.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

function fixture() {
  const published: string[] = []
  const statuses: string[] = []
  const hub = { publish: (_i: number, topic: string) => published.push(topic), setStatus: (_i: number, _t: string, s: string) => statuses.push(s) } as unknown as Hub
  let fail = false
  const upstream = { get: async () => { if (fail) throw new Error('down'); return { results: [] } } } as unknown as Upstream
  const intervals = { metrics: 40, stations: 40, sessions: 40, info: 40, energy_return: 40 }
  const pollers = createPollers({ hub: () => hub, upstream, intervals, idleStopMs: 100 })
  return { pollers, published, statuses, setFail: (v: boolean) => (fail = v) }
}

describe('pollers', () => {
  it('poll at once, then every interval, and stop after the idle delay once nobody watches', async () => {
    const f = fixture()
    f.pollers.watch(1, 'metrics', true)
    await sleep(210)
    const whileWatched = f.published.length
    expect(whileWatched).toBeGreaterThanOrEqual(3)
    f.pollers.watch(1, 'metrics', false)
    await sleep(250)
    const afterStop = f.published.length
    await sleep(200)
    expect(f.published.length).toBe(afterStop)
    expect(f.pollers.stats.active).toBe(0)
    f.pollers.stopAll()
  })
  it('keep a loop alive when someone comes back within the idle delay', async () => {
    const f = fixture()
    f.pollers.watch(1, 'stations', true)
    f.pollers.watch(1, 'stations', false)
    await sleep(50)
    f.pollers.watch(1, 'stations', true)
    await sleep(200)
    const n = f.published.length
    await sleep(100)
    expect(f.published.length).toBeGreaterThan(n)
    f.pollers.stopAll()
  })
  it('back off while failing: stale, then down', async () => {
    const f = fixture()
    f.setFail(true)
    f.pollers.watch(1, 'info', true)
    await sleep(400)
    expect(f.statuses.slice(0, 3)).toEqual(['stale', 'stale', 'down'])
    // 40, 80, 160 ms back-off: far fewer than the 10 polls a fixed 40 ms interval would make.
    expect(f.pollers.stats.errors.info).toBeLessThanOrEqual(5)
    f.pollers.stopAll()
  })
})
