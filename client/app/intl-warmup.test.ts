import { describe, expect, it } from 'vitest'
import { LANGUAGES } from '../../config/defaults.ts'
import { intlLocale } from '../../shared/rules/formats.ts'
import { intlWarmupFor, warmIntl } from './intl-warmup.ts'

describe('Intl warm-up (Power blocking time)', () => {
  it('warms the locale that formats numbers before the user’s region is known', () => {
    for (const lng of LANGUAGES) expect(intlWarmupFor(lng, 'Europe/Zurich').locale).toBe(intlLocale(lng))
  })

  it('builds every formatter for each language without throwing', () => {
    for (const lng of LANGUAGES) expect(() => warmIntl(intlWarmupFor(lng, 'Europe/Zurich'))).not.toThrow()
  })
})
