import { describe, expect, it } from 'vitest'
import { displayStatus, isSeriousAlert } from './status.ts'

describe('displayStatus (SPEC §4)', () => {
  it.each([
    ['noCar', 'ready'],
    ['carPluggedIn', 'ready'],
    ['charging', 'running'],
    ['failure', 'error'],
    ['unknown', 'error'],
    [null, 'error'],
    [undefined, 'error'],
    ['off', 'disabled'],
    ['notBadgedIn', 'disabled'],
    ['', null],
    ['someFutureFirmwareState', 'error'],
  ] as const)('%s → %s', (status, shown) => {
    expect(displayStatus(status)).toBe(shown)
  })
})

describe('isSeriousAlert', () => {
  it('marks offline, meterFailure and mainMeasurementFailure only', () => {
    expect(['offline', 'meterFailure', 'mainMeasurementFailure'].every(isSeriousAlert)).toBe(true)
    expect(['voltageLow', 'gridLock', 'stopped'].some(isSeriousAlert)).toBe(false)
  })
})
