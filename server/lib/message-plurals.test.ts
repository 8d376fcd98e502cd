import { describe, expect, it } from 'vitest'
import { message } from './messages.ts'

// Counts in server messages take the language's plural form (CLDR rules through Intl.PluralRules).
describe('message plurals', () => {
  it('says "1 sub-object" and "2 sub-objects", in each language', () => {
    expect(message('objectNotEmpty', 'en', { objects: 1, meters: 2, stations: 0 })).toBe('The object is not empty (1 sub-object, 2 meters, 0 charging stations). Remove or move them first.')
    expect(message('objectNotEmpty', 'de', { objects: 1, meters: 1, stations: 2 })).toContain('(1 Unterobjekt, 1 Zähler, 2 Ladestationen)')
    // French counts 0 and 1 as singular.
    expect(message('objectNotEmpty', 'fr', { objects: 0, meters: 1, stations: 3 })).toContain('(0 sous-objet, 1 compteur, 3 bornes de recharge)')
    expect(message('objectNotEmpty', 'it', { objects: 1, meters: 5, stations: 1 })).toContain('(1 sotto-oggetto, 5 contatori, 1 stazione di ricarica)')
  })
})
