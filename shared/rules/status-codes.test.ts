import { describe, expect, it } from 'vitest'
import { isSeriousStatusCode, STATUS_CODES, statusCodeName } from './status-codes.ts'

describe('status codes 0–31', () => {
  it('names 31 distinct conditions with 21 unused', () => {
    expect(STATUS_CODES).toHaveLength(32)
    expect(STATUS_CODES[21]).toBeNull()
    const names = STATUS_CODES.filter((n) => n !== null)
    expect(new Set(names).size).toBe(31)
    expect(statusCodeName(0)).toBe('EVERYTHING_OK')
    expect(statusCodeName(21)).toBeNull()
    expect(statusCodeName(32)).toBeNull()
    expect(statusCodeName(-1)).toBeNull()
  })
  it('marks exactly the main grid meter error and the offline EVSE serious; 17 is what the simulator reports', () => {
    expect(STATUS_CODES.map((_, i) => i).filter(isSeriousStatusCode)).toEqual([2, 17])
    expect(statusCodeName(17)).toBe('EVSE_OFFLINE')
  })
})
