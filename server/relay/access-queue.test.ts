import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { AccessQueueAbandoned, AccessQueueTimeout, createAccessQueue } from './access-queue.ts'

const later = <T>(ms: number, value: T) => new Promise<T>((r) => setTimeout(() => r(value), ms))

describe('access queue', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('runs at most `concurrency` at once, the rest in arrival order, and refuses past the bound without running them', async () => {
    const q = createAccessQueue({ concurrency: 2, maxWaitMs: 1000, random: () => 0 })
    const started: number[] = []
    let running = 0
    let most = 0
    const results = Array.from({ length: 8 }, (_, i) => q.run(`k${i}`, async () => {
      started.push(i)
      most = Math.max(most, ++running)
      await later(400, null)
      running--
      return i
    }).catch((e: unknown) => e))
    await vi.advanceTimersByTimeAsync(0)
    expect(q.stats).toMatchObject({ waiting: 6, running: 2 })
    await vi.advanceTimersByTimeAsync(5000)
    const settled = await Promise.all(results)
    // Slots free at 0, 400 and 800 ms: six start within the 1 s bound, the last two are refused at 1 s.
    expect(started).toEqual([0, 1, 2, 3, 4, 5])
    expect(most).toBe(2)
    expect(settled.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5])
    for (const e of settled.slice(6)) expect(e).toBeInstanceOf(AccessQueueTimeout)
    expect(q.stats).toMatchObject({ waiting: 0, running: 0, started: 6, refused: 2 })
    // Waits 0, 0, 400, 400, 800, 800 ms.
    expect(q.stats.waitSecondsTotal).toBeCloseTo(2.4, 5)
    expect(q.waitP95Seconds()).toBeCloseTo(0.8, 5)
  })

  it('spreads a refused herd: Retry-After grows with its size, at least the bound, at most the cap, jittered', async () => {
    let k = 0
    const q = createAccessQueue({ concurrency: 1, maxWaitMs: 1000, retryAfterMaxS: 60, random: () => (k++ % 10) / 10 })
    void q.run('hang', () => new Promise(() => {}))
    const refused = await (async () => {
      const all = Array.from({ length: 1000 }, (_, i) => q.run(`k${i}`, async () => i).catch((e: AccessQueueTimeout) => e.retryAfterS))
      await vi.advanceTimersByTimeAsync(1000)
      return Promise.all(all)
    })()
    // 1,000 refused at once at 100 ms a check, one at a time: 100 s to serve, capped at 30 s, × 1–2.
    expect(Math.min(...refused)).toBeGreaterThanOrEqual(30)
    expect(Math.max(...refused)).toBeLessThanOrEqual(60)
    expect(new Set(refused).size).toBeGreaterThanOrEqual(8)

    // A lone refusal: the bound (1 s) × 1–2.
    await vi.advanceTimersByTimeAsync(60_000)
    const one = q.run('alone', async () => 1).catch((e: AccessQueueTimeout) => e.retryAfterS)
    await vi.advanceTimersByTimeAsync(1000)
    expect(await one).toBeLessThanOrEqual(2)
  })

  it('shares one check among identical keys in flight, and asks again once it has ended', async () => {
    const q = createAccessQueue({ concurrency: 1, maxWaitMs: 1000 })
    let calls = 0
    const check = async () => {
      calls++
      return later(100, { calls })
    }
    const shared = Promise.all([q.run('a', check), q.run('a', check), q.run('a', check)])
    await vi.advanceTimersByTimeAsync(100)
    expect(await shared).toEqual([{ calls: 1 }, { calls: 1 }, { calls: 1 }])
    expect(q.stats.coalesced).toBe(2)
    const next = q.run('a', check)
    await vi.advanceTimersByTimeAsync(100)
    expect(await next).toEqual({ calls: 2 })
    // A failure is shared too, and not kept.
    const failing = Promise.all([q.run('b', async () => Promise.reject(new Error('403'))), q.run('b', check)].map((p) => p.catch((e: Error) => e.message)))
    await vi.advanceTimersByTimeAsync(0)
    expect(await failing).toEqual(['403', '403'])
    const again = q.run('b', check)
    await vi.advanceTimersByTimeAsync(100)
    expect(await again).toEqual({ calls: 3 })
  })

  it('drops a queued check once all its callers have hung up, before calling upstream', async () => {
    const q = createAccessQueue({ concurrency: 1, maxWaitMs: 5000 })
    const calls: string[] = []
    const check = (k: string) => async () => {
      calls.push(k)
      return later(100, k)
    }
    void q.run('busy', check('busy'))
    const a1 = new AbortController()
    const a2 = new AbortController()
    const shared = [q.run('x', check('x'), a1.signal), q.run('x', check('x'), a2.signal)].map((p) => p.catch((e: unknown) => e))
    const b = new AbortController()
    const kept = q.run('y', check('y'), b.signal)
    a1.abort()
    await vi.advanceTimersByTimeAsync(0)
    // One of two callers left: the check stays queued for the other.
    expect(q.stats.waiting).toBe(2)
    a2.abort()
    await vi.advanceTimersByTimeAsync(0)
    for (const e of await Promise.all(shared)) expect(e).toBeInstanceOf(AccessQueueAbandoned)
    await vi.advanceTimersByTimeAsync(300)
    expect(await kept).toBe('y')
    // Hanging up after the check started changes nothing.
    b.abort()
    expect(calls).toEqual(['busy', 'y'])
    expect(q.stats).toMatchObject({ abandoned: 1, refused: 0, started: 2 })
  })
})
