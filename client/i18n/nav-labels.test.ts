import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import path from 'node:path'

const dir = path.join(import.meta.dirname, 'locales')

describe('navigation labels', () => {
  // Found in a hand check of the screens: in French and Italian, Rates and Pricing were both "Tarifs" /
  // "Tariffe", two menu entries a user could not tell apart.
  for (const language of ['en', 'de', 'fr', 'it']) {
    it(`are all different in ${language}`, () => {
      const nav = JSON.parse(fs.readFileSync(path.join(dir, language, 'common.json'), 'utf8')).nav as Record<string, string>
      const labels = Object.values(nav).map((l) => l.toLowerCase())
      const twice = labels.filter((l, i) => labels.indexOf(l) !== i)
      expect(twice).toEqual([])
    })
  }
})
