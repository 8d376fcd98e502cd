import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { defaultRegion, formatDate, formatDateTime, formatMoney, formatNumber, formatPercent, formatTime, formatUnit, intlLocale, regionOfTag } from '../../shared/rules/formats.ts'
import type { Region } from '../../shared/rules/formats.ts'
import { DEFAULT_TIMEZONE } from '../../config/defaults.ts'
import { useSession } from '../session/use-session.ts'

/** The region of a "de-CH" style tag (the user's language and region setting), or null. */

export interface Formats {
  language: string
  region: Region
  /** The Intl locale of language and region ("de-CH"): every number below is formatted in it. */
  locale: string
  timezone: string
  /** Number with `digits` decimals (2 by default, SPEC §3). */
  number: (value: number, digits?: number) => string
  /** "CHF 12.50" (Intl currency CHF, never wrapping); `digits` 4 for prices per kWh. */
  money: (value: number, digits?: number) => string
  /** A value in percent: 12.5 → "12.5%" (`digits` decimals at most, 0 by default). */
  percent: (value: number, digits?: number) => string
  /** "3.25 m3": a number and its unit, never wrapping. */
  unit: (value: number, unit: string, digits?: number) => string
  /** "3.25 kW" */
  kw: (value: number) => string
  /** "12.50 kWh" */
  kwh: (value: number) => string
  /** SPEC §9 display date-time in the installation's time zone. */
  dateTime: (value: string | number | Date) => string
  date: (value: string | number | Date) => string
  time: (value: string | number | Date) => string
  /**
   * Names in natural order for the UI language ("Station 2" before "Station 10"), for sort(). One
   * Intl.Collator: `localeCompare` with options builds a new one for every comparison.
   */
  compareNames: (a: string, b: string) => number
}

// One collator per language for the whole client: every screen and tile calls useFormats, and building
// an Intl object costs far more than using one (the first one on Power, 13 ms on a fast CPU).
const collators = new Map<string, Intl.Collator>()
function collatorFor(language: string): Intl.Collator {
  let collator = collators.get(language)
  if (!collator) collators.set(language, (collator = new Intl.Collator(language, { numeric: true })))
  return collator
}

/**
 * The one formatting source of the client: numbers, amounts and percentages by Intl in
 * the UI language and the region of Settings (de-CH, fr-CH, it-CH, en-CH until one is chosen), dates in
 * that region's SPEC §9 pattern in the installation's time zone.
 */
export function useFormats(timezone: string = DEFAULT_TIMEZONE): Formats {
  const { i18n } = useTranslation()
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  // The user's region format (Settings) drives dates everywhere; until it is known, the language's default.
  const userRegion = regionOfTag(useSession((s) => s.user?.ietf_lang_tag))
  return useMemo(() => {
    const region = userRegion ?? defaultRegion(language)
    const locale = intlLocale(language, region)
    const number = (value: number, digits = 2) => formatNumber(value, locale, digits)
    return {
      language,
      region,
      locale,
      timezone,
      number,
      money: (value, digits = 2) => formatMoney(value, locale, digits),
      percent: (value, digits = 0) => formatPercent(value, locale, digits),
      unit: (value, unit, digits = 2) => formatUnit(value, unit, locale, digits),
      kw: (value) => formatUnit(value, 'kW', locale),
      kwh: (value) => formatUnit(value, 'kWh', locale),
      dateTime: (value) => formatDateTime(value, region, timezone),
      date: (value) => formatDate(value, region, timezone),
      time: (value) => formatTime(value, region, timezone),
      // Built on the first comparison, not with the formats: most screens never sort.
      compareNames: (a, b) => collatorFor(language).compare(a, b),
    }
  }, [language, timezone, userRegion])
}
