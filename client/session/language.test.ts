import { describe, expect, it } from 'vitest'
import { languageOfTag, tagWithLanguage } from './language.ts'

describe('the account language tag (SPEC §9 language and region)', () => {
  it('reads the UI language of a saved tag, or none', () => {
    expect(languageOfTag('en-GB')).toBe('en')
    expect(languageOfTag('de')).toBe('de')
    expect(languageOfTag('tlh-KX')).toBeNull()
    expect(languageOfTag(undefined)).toBeNull()
  })

  it('a language chosen in the header keeps the region of Settings, Switzerland when there is none', () => {
    expect(tagWithLanguage('en-GB', 'de')).toBe('de-GB')
    expect(tagWithLanguage('fr', 'it')).toBe('it-CH')
    expect(tagWithLanguage('de-XX', 'en')).toBe('en-CH')
  })
})
