import vm from 'node:vm'
import { describe, expect, it } from 'vitest'
import { PRELOAD_BOOT_SCRIPT, PRELOAD_MAP_ID } from '../config/preload-boot.ts'
import type { PreloadMap } from '../config/preload-boot.ts'

// The inline boot script of index.html and the prerendered login page (config/preload-boot.ts), run in
// a minimal page: what it adds to <head>, and when. On the login page the form's code must follow the
// first paint (Login's LCP) and must load in every case, or the form never works.

const MAP: PreloadMap = {
  routes: [{ pattern: '^/login/?$', chunks: ['/assets/login-page.js'], ns: ['login'] }],
  initial: ['common'],
  locales: { en: { common: '/assets/common-en.js', login: '/assets/login-en.js' }, de: { common: '/assets/common-de.js', login: '/assets/login-de.js' } },
}
const BOOT = { entry: '/assets/index.js', preload: ['/assets/vendor.js'] }

interface PageOptions {
  map: PreloadMap
  hidden?: boolean
  /** Entry types PerformanceObserver knows; null: no PerformanceObserver at all. */
  entryTypes?: string[] | null
}

function page({ map, hidden = false, entryTypes = ['paint', 'largest-contentful-paint'] }: PageOptions) {
  const added: string[] = []
  const listeners: Record<string, () => void> = {}
  const observers: Array<(list: { getEntriesByName: (n: string) => unknown[] }, o: { disconnect: () => void }) => void> = []
  const frames: Array<() => void> = []
  const timers: Array<{ ms: number; fn: () => void }> = []
  const document = {
    readyState: 'loading',
    visibilityState: hidden ? 'hidden' : 'visible',
    getElementById: (id: string) => (id === PRELOAD_MAP_ID ? { textContent: JSON.stringify(map) } : null),
    createElement: (tag: string) => ({ tag }) as Record<string, string>,
    head: { appendChild: (el: Record<string, string>) => added.push(el.tag === 'script' ? `script ${el.type} ${el.src}` : `${el.rel} ${el.href}`) },
    addEventListener: (type: string, fn: () => void) => (listeners[type] = fn),
  }
  const context: Record<string, unknown> = {
    document,
    location: { pathname: '/login' },
    navigator: { language: 'en-GB' },
    localStorage: { getItem: () => null },
    setTimeout: (fn: () => void, ms: number) => timers.push({ ms, fn }),
    requestAnimationFrame: (fn: () => void) => frames.push(fn),
  }
  if (entryTypes) {
    const Observer = function (this: unknown, fn: (typeof observers)[number]) {
      observers.push(fn)
      return { observe: () => undefined }
    } as unknown as { supportedEntryTypes: string[] }
    Observer.supportedEntryTypes = entryTypes
    context.PerformanceObserver = Observer
  }
  vm.runInNewContext(PRELOAD_BOOT_SCRIPT, context)
  return {
    added,
    parsed() {
      document.readyState = 'interactive'
      listeners.DOMContentLoaded?.()
    },
    painted(name = 'first-contentful-paint') {
      for (const o of observers) o({ getEntriesByName: (n) => (n === name ? [{}] : []) }, { disconnect: () => undefined })
    },
    frame() {
      for (const fn of frames.splice(0)) fn()
    },
    /** Runs the queued 0 ms timers, one task at a time: what each task added. */
    tasks() {
      const perTask: string[][] = []
      for (let t = timers.findIndex((x) => x.ms === 0); t >= 0; t = timers.findIndex((x) => x.ms === 0)) {
        const before = added.length
        timers.splice(t, 1)[0].fn()
        perTask.push(added.slice(before))
      }
      return perTask
    },
    timers,
  }
}

const loginFiles = ['modulepreload /assets/vendor.js', 'modulepreload /assets/common-en.js', 'modulepreload /assets/login-page.js', 'modulepreload /assets/login-en.js']

describe('the boot script', () => {
  it('on index.html preloads the route and language files at once; the entry is the page\'s own tag', () => {
    const p = page({ map: MAP })
    expect(p.added).toEqual(['modulepreload /assets/common-en.js', 'modulepreload /assets/login-page.js', 'modulepreload /assets/login-en.js'])
  })

  it('on the prerendered login page adds nothing until the page is parsed and has painted, then the entry and the preloads', () => {
    const p = page({ map: { ...MAP, boot: BOOT } })
    expect(p.added).toEqual([])
    p.parsed()
    p.painted('first-paint') // the background alone: no content yet
    expect(p.added).toEqual([])
    p.painted()
    p.tasks()
    expect(p.added).toEqual(['script module /assets/index.js', ...loginFiles])
    p.painted()
    p.tasks()
    expect(p.added).toHaveLength(loginFiles.length + 1)
  })

  it('after a paint of part of the page, waits two frames after parsing for the rest to be on screen', () => {
    const p = page({ map: { ...MAP, boot: BOOT } })
    p.painted()
    p.parsed()
    p.frame()
    expect(p.added).toEqual([])
    p.frame()
    p.tasks()
    expect(p.added).toEqual(['script module /assets/index.js', ...loginFiles])
  })

  it('loads at once on a hidden page, which paints nothing', () => {
    expect(page({ map: { ...MAP, boot: BOOT }, hidden: true }).added).toContain('script module /assets/index.js')
  })

  it('without paint timing, loads two frames after parsing (the page has painted by then); without PerformanceObserver, at once', () => {
    const p = page({ map: { ...MAP, boot: BOOT }, entryTypes: [] })
    p.parsed()
    p.frame()
    expect(p.added).toEqual([])
    p.frame()
    expect(p.added).toContain('script module /assets/index.js')
    expect(page({ map: { ...MAP, boot: BOOT }, entryTypes: null }).added).toContain('script module /assets/index.js')
  })

  it('loads after 3 s if no paint is ever reported', () => {
    const p = page({ map: { ...MAP, boot: BOOT } })
    expect(p.timers.map((t) => t.ms)).toEqual([3000])
    p.timers[0].fn()
    p.tasks()
    expect(p.added).toEqual(['script module /assets/index.js', ...loginFiles])
  })

  // Login's score: every tag starts its request synchronously (about 1 ms each); the eleven
  // tags of the login page in one task after the paint were 35–60 ms on Lighthouse's 4× slower CPU.
  it('after the paint adds the entry at once, then one preload per task', () => {
    const p = page({ map: { ...MAP, boot: BOOT } })
    p.parsed()
    p.painted()
    expect(p.added).toEqual(['script module /assets/index.js'])
    expect(p.tasks()).toEqual(loginFiles.map((f) => [f]))
  })
})
