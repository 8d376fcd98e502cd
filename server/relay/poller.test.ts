import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createPollers } from './poller.ts'
import type { Hub } from './hub.ts'
import type { Upstream } from './upstream.ts'
import { RELAY } from '../../config/defaults.ts'

// The poll timers and their monotonic clock are faked (vitest's timers also fake performance.now()):
// rounds happen at exact times however busy the machine is (ARCHITECTURE §1 "Time": no test decides
// on the wall clock).
const sleep = (ms: number) => vi.advanceTimersByTimeAsync(ms)
const until = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms
  while (!check() && Date.now() < end) await sleep(5)
}
beforeEach(() => { vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] }) })
afterEach(() => { vi.useRealTimers() })

function fixture(intervals = { metrics: 40, stations: 40, sessions: 40, info: 40, energy_return: 40 }, now?: () => number, idleStopMs = 100) {
  const published: string[] = []
  const statuses: string[] = []
  /** Topics published per hub batch (one batch = one poll round). */
  const batches: string[][] = []
  let current: string[] | null = null
  const hub = {
    publish: (_i: number, topic: string) => (published.push(topic), current?.push(topic)),
    setStatus: (_i: number, _t: string, s: string) => statuses.push(s),
    batch: (fn: () => void) => { current = []; fn(); batches.push(current); current = null },
  } as unknown as Hub
  let fail = false
  const upstream = { get: async () => { if (fail) throw new Error('down'); return { results: [] } } } as unknown as Upstream
  const pollers = createPollers({ hub: () => hub, upstream, intervals, idleStopMs, now, today: () => new Date() })
  return { pollers, published, statuses, batches, setFail: (v: boolean) => (fail = v) }
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

  it('poll once per interval when a timer fires a little before the round is due by the wall clock', async () => {
    // Timers run on the monotonic clock, Date.now() on the wall clock: a round often starts 1 ms "early"
    // (within ROUND_SLACK_MS). A clock running 1 % slow makes every round start early; the next one must
    // still be an interval later, not at once (found behind two relays: pairs of polls 3 ms apart).
    const t0 = Date.now()
    const f = fixture({ metrics: 100, stations: 100, sessions: 100, info: 100, energy_return: 100 }, () => t0 + (Date.now() - t0) * 0.99)
    f.pollers.watch(1, 'metrics', true)
    await sleep(1050)
    f.pollers.stopAll()
    expect(f.published.length).toBeLessThanOrEqual(12)
    expect(f.published.length).toBeGreaterThanOrEqual(8)
  })

  it('poll topics on a shared grid: same intervals in one round, a later topic joins it', async () => {
    const f = fixture({ metrics: 60, stations: 60, sessions: 120, info: 60, energy_return: 60 })
    f.pollers.watch(1, 'metrics', true)
    f.pollers.watch(1, 'stations', true)
    f.pollers.watch(1, 'sessions', true)
    await sleep(20)
    f.pollers.watch(1, 'info', true)
    await sleep(280)
    f.pollers.stopAll()
    const rounds = f.batches.map((b) => [...b].sort().join(','))
    // First round: the three topics watched together; then info alone at once (newly watched);
    // afterwards info rides along with metrics and stations, and sessions every second round.
    expect(rounds[0]).toBe('metrics,sessions,stations')
    expect(rounds[1]).toBe('info')
    expect(rounds[2]).toBe('info,metrics,stations')
    expect(rounds[3]).toBe('info,metrics,sessions,stations')
    for (const r of rounds.slice(2)) expect(r).toMatch(/^info,metrics,(sessions,)?stations$/)
  })

  it('poll a poked topic soon instead of at its next interval, at most once per poke gap, and ignore pokes nobody watches', async () => {
    const f = fixture({ metrics: 10_000, stations: 10_000, sessions: 10_000, info: 10_000, energy_return: 10_000 })
    f.pollers.poke(1, 'stations')
    f.pollers.watch(1, 'stations', true)
    await sleep(50)
    expect(f.published).toEqual(['stations'])
    // A burst of pokes (500 charge points' meter values) costs one extra round per gap, not one each.
    const t0 = Date.now()
    for (let i = 0; i < 50; i++) f.pollers.poke(1, 'stations')
    await until(() => f.published.length === 2, 2000)
    expect(Date.now() - t0).toBeLessThan(RELAY.pokeMinGapMs + 200)
    await sleep(RELAY.pokeMinGapMs + 100)
    expect(f.published).toHaveLength(2)
    f.pollers.poke(1, 'metrics')
    await sleep(50)
    expect(f.published).toHaveLength(2)
    f.pollers.stopAll()
  })

  it('poll a poked topic kept during the idle delay, so a page opened again gets the change, not the cached state', async () => {
    // A reload closes the stream, the facility goes offline meanwhile, the new stream gets the topic's
    // last data: without this it said "online" until the next interval (2 minutes for info).
    const f = fixture({ metrics: 120_000, stations: 120_000, sessions: 120_000, info: 120_000, energy_return: 120_000 }, undefined, 60_000)
    f.pollers.watch(1, 'info', true)
    await sleep(50)
    expect(f.published).toEqual(['info'])
    f.pollers.watch(1, 'info', false)
    f.pollers.poke(1, 'info')
    await sleep(RELAY.pokeMinGapMs + 100)
    expect(f.published).toEqual(['info', 'info'])
    f.pollers.stopAll()
  })
})
