import { describe, expect, it } from 'vitest'
import i18next from 'i18next'
import fs from 'node:fs'
import path from 'node:path'

const dir = path.join(import.meta.dirname, 'locales')
const LANGUAGES = ['en', 'de', 'fr', 'it'] as const

/** The permissions namespace of `language` in an i18next instance of its own, as the client loads it. */
async function permissions(language: string) {
  const instance = i18next.createInstance()
  const resources = JSON.parse(fs.readFileSync(path.join(dir, language, 'permissions.json'), 'utf8')) as Record<string, unknown>
  await instance.init({ lng: language, ns: ['permissions'], defaultNS: 'permissions', resources: { [language]: { permissions: resources } } })
  return instance.t.bind(instance)
}

describe('counted texts', () => {
  // A hand check of the screens found "1 changes" (and "1 Änderungen", "1 modifications", "1 modifiche")
  // in the confirmation of a user's rights: a count takes i18next's plural forms.
  const singular = { en: '1 change for', de: '1 Änderung für', fr: '1 modification pour', it: '1 modifica per' }
  const plural = { en: '2 changes for', de: '2 Änderungen für', fr: '2 modifications pour', it: '2 modifiche per' }
  for (const language of LANGUAGES) {
    it(`say one change and two changes in ${language}`, async () => {
      const t = await permissions(language)
      expect(t('confirmText', { count: 1, name: 'Anna' })).toContain(singular[language])
      expect(t('confirmText', { count: 2, name: 'Anna' })).toContain(plural[language])
    })
  }
})
