import { describe, expect, it } from 'vitest'
import { mergedState, type StoredLimit } from './station-reason.ts'

const limit = (over: Partial<StoredLimit>): StoredLimit => ({ limit_a: 16, reason: 'shared_connection', params: {}, until: null, status_code: null, alerts: [], ...over })

describe('a station\'s status code and alerts (SPEC §4)', () => {
  it('names the condition a waiting car\'s alert gives instead of 0, Everything OK', () => {
    expect(mergedState({ status_code: 0, alerts: ['noSolarPower'] }, null)).toEqual({ status_code: 10, alerts: ['noSolarPower'] })
    expect(mergedState({ status_code: 0, alerts: ['noOptimizedPower'] }, null)).toEqual({ status_code: 11, alerts: ['noOptimizedPower'] })
    expect(mergedState({ status_code: 0, alerts: [] }, null)).toEqual({ status_code: 0, alerts: [] })
  })

  it('keeps a device\'s own code, and the load controller\'s before an alert\'s', () => {
    expect(mergedState({ status_code: 17, alerts: ['offline', 'noSolarPower'] }, null).status_code).toBe(17)
    expect(mergedState({ status_code: 0, alerts: ['noSolarPower'] }, limit({ status_code: 15, alerts: ['gridThrottle'] }))).toEqual({ status_code: 15, alerts: ['noSolarPower', 'gridThrottle'] })
    expect(mergedState({ status_code: 0, alerts: ['gridThrottle'] }, limit({ status_code: null, alerts: ['gridThrottle', 'peakManagement'] }))).toEqual({ status_code: 0, alerts: ['gridThrottle', 'peakManagement'] })
  })
})
