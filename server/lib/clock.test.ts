import { describe, expect, it } from 'vitest'
import { createClock, createTestClock } from './clock.ts'

describe('createClock', () => {
  it('starts at CLOCK_START and runs at CLOCK_SPEED', () => {
    let wall = 1_000_000
    const clock = createClock({ start: new Date('2026-03-02T17:30:00Z'), speed: 60, wall: () => wall })
    expect(clock.now().toISOString()).toBe('2026-03-02T17:30:00.000Z')
    wall += 1000 // one real second is a clock minute
    expect(clock.now().toISOString()).toBe('2026-03-02T17:31:00.000Z')
    expect(clock.ms()).toBe(Date.parse('2026-03-02T17:31:00Z'))
  })

  it('without a start it is the wall clock', () => {
    let wall = Date.parse('2026-11-27T08:00:00Z')
    const clock = createClock({ wall: () => wall })
    wall += 5000
    expect(clock.now().toISOString()).toBe('2026-11-27T08:00:05.000Z')
  })

  it('refuses a speed that is not positive', () => {
    expect(() => createClock({ speed: 0 })).toThrow(RangeError)
    expect(() => createClock({ speed: Number.NaN })).toThrow(RangeError)
  })

  it('waits clock time: at speed 100 a 2 s clock timer fires after about 20 real ms', async () => {
    const clock = createClock({ start: new Date('2026-01-01T00:00:00Z'), speed: 100 })
    const t0 = performance.now()
    await clock.sleep(2000)
    const real = performance.now() - t0
    expect(real).toBeGreaterThanOrEqual(15)
    expect(real).toBeLessThan(1500)
  })
})

describe('createTestClock', () => {
  it('stands still until advanced, and fires timers at their due time in order', async () => {
    const clock = createTestClock('2026-03-29T00:30:00Z')
    const fired: string[] = []
    clock.setTimeout(() => fired.push(`b@${clock.now().toISOString()}`), 2000)
    clock.setTimeout(() => fired.push(`a@${clock.now().toISOString()}`), 1000)
    const every = clock.setInterval(() => fired.push(`i@${clock.now().toISOString()}`), 1500)
    expect(clock.now().toISOString()).toBe('2026-03-29T00:30:00.000Z')
    await clock.advance(3000)
    expect(fired).toEqual([
      'a@2026-03-29T00:30:01.000Z',
      'i@2026-03-29T00:30:01.500Z',
      'b@2026-03-29T00:30:02.000Z',
      'i@2026-03-29T00:30:03.000Z',
    ])
    expect(clock.now().toISOString()).toBe('2026-03-29T00:30:03.000Z')
    clock.clearInterval(every)
    expect(clock.pending()).toBe(0)
  })

  it('lets async work a timer starts finish before the next timer', async () => {
    const clock = createTestClock('2026-01-01T00:00:00Z')
    const log: string[] = []
    clock.setTimeout(async () => {
      await new Promise((r) => setImmediate(r))
      log.push('first done')
    }, 10)
    clock.setTimeout(() => log.push('second'), 20)
    await clock.advance(20)
    expect(log).toEqual(['first done', 'second'])
  })

  it('sleep resolves on advance; set jumps and refuses a non-date', async () => {
    const clock = createTestClock('2026-01-01T00:00:00Z')
    let woke = false
    void clock.sleep(60_000).then(() => (woke = true))
    await clock.advance(59_999)
    expect(woke).toBe(false)
    await clock.advance(1)
    expect(woke).toBe(true)
    await clock.set('2026-06-01T12:00:00Z')
    expect(clock.now().toISOString()).toBe('2026-06-01T12:00:00.000Z')
    await expect(clock.set('not a date')).rejects.toThrow(RangeError)
  })
})
