import fs from 'node:fs'
import path from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'

// Each test takes a fresh module: the learnt offset is module state, as in a page.
async function fresh() {
  vi.resetModules()
  return import('./clock.ts')
}

describe('the server clock in the browser', () => {
  beforeEach(() => vi.useRealTimers())

  it('is the browser clock until it learns otherwise', async () => {
    const c = await fresh()
    expect(Math.abs(c.clientNow() - Date.now())).toBeLessThan(50)
  })

  it('follows a server started at CLOCK_START (health: middle of the round trip)', async () => {
    const c = await fresh()
    const server = Date.parse('2026-03-04T20:00:00Z')
    const fetcher = vi.fn(async () => {
      await new Promise((r) => setTimeout(r, 20))
      return new Response(JSON.stringify({ status: 'ok', now: new Date(server).toISOString() }), { status: 200 })
    })
    await c.syncServerClock(fetcher as unknown as typeof fetch)
    expect(fetcher).toHaveBeenCalledWith('/api/health', { cache: 'no-store' })
    expect(Math.abs(c.clientNow() - server)).toBeLessThan(200)
    expect(c.clientDate().toISOString().slice(0, 13)).toBe('2026-03-04T20')
  })

  it('learns from a fresh token\'s iat within a second, and a health sample then wins', async () => {
    const c = await fresh()
    const iat = Math.floor(Date.parse('2031-05-04T10:00:00Z') / 1000)
    c.learnFromToken(iat)
    expect(Math.abs(c.clientNow() - (iat * 1000 + 500))).toBeLessThan(600)
    // A more exact sample replaces it; a later, coarser token sample does not move it back.
    c.learnServerTime(Date.parse('2031-05-04T10:00:00.250Z'), Date.now(), Date.now())
    c.learnFromToken(iat)
    expect(Math.abs(c.clientNow() - Date.parse('2031-05-04T10:00:00.250Z'))).toBeLessThan(100)
  })

  it('takes a coarse sample that moves the clock more than both errors (the server clock was set anew)', async () => {
    const c = await fresh()
    c.learnServerTime(Date.parse('2026-01-01T00:00:00Z'), Date.now(), Date.now())
    c.learnFromToken(Math.floor(Date.parse('2027-01-01T00:00:00Z') / 1000))
    expect(c.clientDate().getUTCFullYear()).toBe(2027)
  })

  it('keeps its offset when the server cannot be reached or answers nonsense', async () => {
    const c = await fresh()
    c.learnServerTime(Date.parse('2026-03-04T20:00:00Z'), Date.now(), Date.now())
    await c.syncServerClock((async () => { throw new TypeError('offline') }) as unknown as typeof fetch)
    await c.syncServerClock((async () => new Response('{"now":"soon"}', { status: 200 })) as unknown as typeof fetch)
    await c.syncServerClock((async () => new Response('', { status: 503 })) as unknown as typeof fetch)
    expect(c.clientDate().toISOString().slice(0, 13)).toBe('2026-03-04T20')
  })
})

describe('the learnt offset across reloads', () => {
  it('is kept in localStorage, so the next page knows the server\'s time before its first render', async () => {
    const items = new Map<string, string>()
    vi.stubGlobal('localStorage', { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) })
    try {
      const first = await fresh()
      first.learnServerTime(Date.parse('2026-03-04T20:00:00Z'), Date.now(), Date.now())
      const reloaded = await fresh()
      expect(reloaded.clientDate().toISOString().slice(0, 13)).toBe('2026-03-04T20')
      // Any fresh sample replaces the stored starting point, even a coarse one.
      reloaded.learnFromToken(Math.floor(Date.parse('2026-03-04T20:30:00Z') / 1000))
      expect(reloaded.clientDate().toISOString().slice(0, 16)).toBe('2026-03-04T20:30')
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('one clock in the client', () => {
  it('no client module reads the wall clock but client/api/clock.ts', () => {
    const root = path.resolve(import.meta.dirname, '..')
    const reads: string[] = []
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name)
        if (e.isDirectory()) walk(p)
        else if (/\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) && p !== path.join(root, 'api', 'clock.ts')) {
          fs.readFileSync(p, 'utf8').split('\n').forEach((line, i) => {
            if (/\bDate\.now\(\)|\bnew Date\(\s*\)/.test(line.replace(/\/\/.*$/, ''))) reads.push(`${path.relative(root, p)}:${i + 1}`)
          })
        }
      }
    }
    walk(root)
    expect(reads).toEqual([])
  })
})
