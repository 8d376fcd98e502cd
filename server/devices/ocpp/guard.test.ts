import { describe, expect, it } from 'vitest'
import { createAuthGuard } from './guard.ts'
import { OCPP_AUTH } from '../../../config/defaults.ts'

// docs/decisions.md "OCPP: password guesses slowed": per id and per IP, on the clock given.
describe('the OCPP password guard', () => {
  it('lets the free failures through, then doubles the wait up to the maximum, and forgets after a quiet while', () => {
    let t = 0
    const g = createAuthGuard(() => t)
    for (let i = 0; i < OCPP_AUTH.freeFailuresPerId; i++) g.failed('CP-1', '10.0.0.1')
    expect(g.wait('CP-1', '10.0.0.1')).toBe(0)
    g.failed('CP-1', '10.0.0.1')
    expect(g.wait('CP-1', '10.0.0.2')).toBe(1000)
    g.failed('CP-1', '10.0.0.1')
    expect(g.wait('cp-1', '10.0.0.3')).toBe(2000)
    for (let i = 0; i < 20; i++) g.failed('CP-1', '10.0.0.1')
    expect(g.wait('CP-1', '10.0.0.4')).toBe(OCPP_AUTH.maxDelayMs)
    t += OCPP_AUTH.forgetMs + 1
    expect(g.wait('CP-1', '10.0.0.1')).toBe(0)
  })

  it('slows an IP guessing many ids, but not a charger from where it connected before', () => {
    let t = 0
    const g = createAuthGuard(() => t)
    g.succeeded('REAL', '192.0.2.7')
    for (let i = 0; i <= OCPP_AUTH.freeFailuresPerIp; i++) g.failed(`GUESS-${i}`, '192.0.2.7')
    expect(g.wait('OTHER', '192.0.2.7')).toBeGreaterThan(0)
    expect(g.wait('REAL', '192.0.2.7')).toBe(0)
    expect(g.wait('OTHER', '198.51.100.1')).toBe(0)
  })
})
