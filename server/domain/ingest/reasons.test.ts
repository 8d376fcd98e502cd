import { describe, expect, it } from 'vitest'
import { encodeReason, reason, reasonText } from './reasons.ts'

describe('kept ingestion reasons', () => {
  it('are given in the reader\'s language, with the figures as the device sent them', () => {
    const kept = encodeReason(reason('ingestPowerBeyondMax', { value: 41, max: 40 }))
    expect(reasonText(kept, 'en')).toBe("value: 41 kW is beyond the meter's maximum power of 40 kW")
    expect(reasonText(kept, 'de')).toBe('value: 41 kW liegt über der Höchstleistung des Zählers von 40 kW')
    expect(reasonText(kept, 'fr')).toBe('value : 41 kW dépasse la puissance maximale du compteur de 40 kW')
    expect(reasonText(kept, 'it')).toBe('value: 41 kW supera la potenza massima del contatore di 40 kW')
  })
  it('shows English text kept before reasons were keyed, and anything unknown, as it is', () => {
    expect(reasonText('register went down from 5 to 2 kWh', 'de')).toBe('register went down from 5 to 2 kWh')
    expect(reasonText('{"key":"noSuchMessage","params":{}}', 'fr')).toBe('{"key":"noSuchMessage","params":{}}')
    expect(reasonText('{not json', 'it')).toBe('{not json')
  })
})
