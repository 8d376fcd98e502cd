import { describe, expect, it } from 'vitest'
import { readFileSync } from 'node:fs'
import { STATUS_CODES } from '../../../shared/rules/status-codes.ts'

const LANGS = ['en', 'de', 'fr', 'it'] as const
const texts = (lang: string) => JSON.parse(readFileSync(new URL(`../../i18n/locales/${lang}/charging.json`, import.meta.url), 'utf8')) as { station: { codes?: Record<string, string> } }

// The station page showed the raw name "(EVERYTHING_OK)"; every SPEC §4 code has words.
describe('station status code texts', () => {
  for (const lang of LANGS) {
    it(`names every status code in ${lang}, never as the raw constant`, () => {
      const codes = texts(lang).station.codes ?? {}
      for (const name of STATUS_CODES) {
        if (name === null) continue
        expect(codes[name], `${lang} ${name}`).toBeTruthy()
        expect(codes[name]).not.toMatch(/^[A-Z0-9_]+$/)
      }
    })
  }
})
