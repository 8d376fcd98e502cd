import { readFileSync } from 'node:fs'
import { runInNewContext } from 'node:vm'
import { describe, expect, it, vi } from 'vitest'

// The offline screen (client/public/offline.js) runs as a plain script in the browser; here it runs
// in a sandbox whose window, timers and fetch the test controls.
const source = readFileSync(new URL('./offline.js', import.meta.url), 'utf8')

function start(server: { up: boolean }) {
  const reload = vi.fn()
  const probes: string[] = []
  const timers: Array<{ at: number; fn: () => void }> = []
  let now = 0
  const sandbox = {
    localStorage: { getItem: () => 'en' },
    navigator: { language: 'en-GB', onLine: true },
    document: {
      documentElement: {},
      title: '',
      querySelector: () => null,
      querySelectorAll: () => [],
    },
    location: { reload },
    window: { addEventListener: vi.fn() },
    setTimeout: (fn: () => void, ms: number) => timers.push({ at: now + ms, fn }),
    fetch: (url: string) => {
      probes.push(url)
      return server.up ? Promise.resolve({ ok: true }) : Promise.reject(new TypeError('connection refused'))
    },
  }
  runInNewContext(source, sandbox)
  /** Let `ms` of time pass, running due timers and the probes' promise callbacks. */
  const advance = async (ms: number) => {
    const until = now + ms
    for (;;) {
      timers.sort((a, b) => a.at - b.at)
      const next = timers[0]
      if (!next || next.at > until) break
      timers.shift()
      now = next.at
      next.fn()
      for (let i = 0; i < 5; i++) await Promise.resolve()
    }
    now = until
  }
  return { reload, probes, advance }
}

describe('the offline screen', () => {
  it('comes back by itself when the server answers again, though the network never went away (no online event)', async () => {
    const server = { up: false }
    const screen = start(server)
    // The server is away for 10 minutes: asked every 5 s at first, then less often, never more than 30 s apart.
    await screen.advance(10 * 60_000)
    expect(screen.reload).not.toHaveBeenCalled()
    expect(screen.probes.every((u) => u === '/api/health')).toBe(true)
    expect(screen.probes.length).toBeGreaterThanOrEqual(20)
    expect(screen.probes.length).toBeLessThanOrEqual(10 * 60 / 5)
    server.up = true
    await screen.advance(30_000)
    expect(screen.reload).toHaveBeenCalledTimes(1)
  })
})
