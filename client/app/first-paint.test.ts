import { afterEach, describe, expect, it, vi } from 'vitest'

/** A browser with paint timing whose first contentful paint is reported when `paint()` is called. */
function browser(visibility: 'visible' | 'hidden' = 'visible') {
  let report: ((list: { getEntriesByName: (n: string) => unknown[] }) => void) | null = null
  const entries: unknown[] = []
  class Observer {
    static supportedEntryTypes = ['paint', 'mark']
    constructor(cb: (list: { getEntriesByName: (n: string) => unknown[] }) => void) {
      report = cb
    }
    observe() {}
    disconnect() {}
  }
  vi.stubGlobal('PerformanceObserver', Observer)
  vi.stubGlobal('performance', { getEntriesByName: (n: string) => (n === 'first-contentful-paint' ? entries : []) })
  vi.stubGlobal('document', { visibilityState: visibility, addEventListener: () => undefined })
  return {
    paint() {
      entries.push({ name: 'first-contentful-paint' })
      report?.({ getEntriesByName: (n: string) => (n === 'first-contentful-paint' ? entries : []) })
    },
  }
}

const state = (p: Promise<void>) => Promise.race([p.then(() => 'painted'), new Promise((r) => setTimeout(() => r('waiting'), 20))])

describe('afterFirstPaint (no API request before the first paint)', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.resetModules()
  })

  it('waits for the first contentful paint, then resolves', async () => {
    const page = browser()
    const { afterFirstPaint } = await import('./first-paint.ts')
    const painted = afterFirstPaint()
    expect(await state(painted)).toBe('waiting')
    page.paint()
    expect(await state(painted)).toBe('painted')
  })

  it('does not wait in a hidden page, which paints nothing', async () => {
    browser('hidden')
    const { afterFirstPaint } = await import('./first-paint.ts')
    expect(await state(afterFirstPaint())).toBe('painted')
  })

  it('gives up waiting after FIRST_PAINT_WAIT_MS', async () => {
    browser()
    vi.useFakeTimers()
    const { afterFirstPaint, FIRST_PAINT_WAIT_MS } = await import('./first-paint.ts')
    let done = false
    void afterFirstPaint().then(() => (done = true))
    await vi.advanceTimersByTimeAsync(FIRST_PAINT_WAIT_MS - 10)
    expect(done).toBe(false)
    await vi.advanceTimersByTimeAsync(20)
    expect(done).toBe(true)
    vi.useRealTimers()
  })
})
