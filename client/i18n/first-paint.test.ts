import { describe, expect, it } from 'vitest'
import { firstPaintNamespaces } from './index.ts'
import { PRELOAD_INITIAL_NS, PRELOAD_ROUTES } from '../../config/preload-boot.ts'

describe('firstPaintNamespaces (Power paints its frame before its chunk)', () => {
  it('loads the power texts before the first render on Power only', () => {
    expect(firstPaintNamespaces('/facility/12/power')).toEqual(['power'])
    expect(firstPaintNamespaces('/facility/12/power/')).toEqual(['power'])
    expect(firstPaintNamespaces('/facility/12/power/stations/3')).toEqual([])
    expect(firstPaintNamespaces('/facility/12/sessions')).toEqual([])
    expect(firstPaintNamespaces('/login')).toEqual([])
  })

  it('waits only for texts index.html already preloads with the entry (no extra round trip)', () => {
    for (const path of ['/facility/1/power', '/facility/42/power/', '/login', '/facility/1/sessions']) {
      const preloaded = new Set([...PRELOAD_INITIAL_NS, ...PRELOAD_ROUTES.filter((r) => new RegExp(r.pattern).test(path)).flatMap((r) => r.ns)])
      for (const ns of firstPaintNamespaces(path)) expect(preloaded.has(ns), `${path}: ${ns}`).toBe(true)
    }
  })
})
