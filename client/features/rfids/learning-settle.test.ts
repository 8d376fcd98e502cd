import { describe, expect, it } from 'vitest'
import { learningSettled } from './learning-settle.ts'

describe('learningSettled: a learning row stays busy until the live data shows what its action did', () => {
  it('after ignoring or registering a tag, until that tag is no longer pending', () => {
    const awaiting = { handledTag: 'C0FFEE01' }
    expect(learningSettled(awaiting, { rfid_lernmodus: 1, pending_rfid: { tag: 'C0FFEE01' } })).toBe(false)
    expect(learningSettled(awaiting, { rfid_lernmodus: 1, pending_rfid: null })).toBe(true)
    // Another card detected meanwhile is a new offer.
    expect(learningSettled(awaiting, { rfid_lernmodus: 1, pending_rfid: { tag: 'C0FFEE02' } })).toBe(true)
  })

  it('after starting or stopping learning, until the station shows that state', () => {
    expect(learningSettled({ learning: true }, { rfid_lernmodus: 0 })).toBe(false)
    expect(learningSettled({ learning: true }, { rfid_lernmodus: 1 })).toBe(true)
    expect(learningSettled({ learning: false }, { rfid_lernmodus: 1, pending_rfid: null })).toBe(false)
    expect(learningSettled(undefined, { rfid_lernmodus: 1 })).toBe(true)
  })
})
