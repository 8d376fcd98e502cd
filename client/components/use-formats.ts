import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { defaultRegion, formatDate, formatDateTime, formatNumber, formatTime } from '../../shared/rules/formats.ts'
import type { Region } from '../../shared/rules/formats.ts'
import { DEFAULT_TIMEZONE } from '../../config/defaults.ts'
import { useSnapshot } from 'valtio'
import { session } from '../session/session.ts'

const REGIONS: readonly string[] = ['CH', 'DE', 'AT', 'IT', 'FR', 'GB', 'US']

/** The region of a "de-CH" style tag (the user's language and region setting, issue 3), or null. */
export function regionOfTag(tag: string | null | undefined): Region | null {
  const region = (tag ?? '').split('-')[1]?.toUpperCase()
  return region && REGIONS.includes(region) ? (region as Region) : null
}

export interface Formats {
  language: string
  region: Region
  timezone: string
  /** Number with `digits` decimals (2 by default, SPEC §3) in the UI language. */
  number: (value: number, digits?: number) => string
  /** "3.25 kW" */
  kw: (value: number) => string
  /** "12.50 kWh" */
  kwh: (value: number) => string
  /** SPEC §9 display date-time in the installation's time zone. */
  dateTime: (value: string | number | Date) => string
  date: (value: string | number | Date) => string
  time: (value: string | number | Date) => string
}

/**
 * Number and date formatting for the UI language (region from the user's region format setting, else
 * defaultRegion, SPEC §9) in the
 * installation's time zone.
 */
export function useFormats(timezone: string = DEFAULT_TIMEZONE): Formats {
  const { i18n } = useTranslation()
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en'
  // The user's region format (Settings) drives dates everywhere; until it is known, the language's default.
  const userRegion = regionOfTag(useSnapshot(session).user?.ietf_lang_tag)
  return useMemo(() => {
    const region = userRegion ?? defaultRegion(language)
    const number = (value: number, digits = 2) => formatNumber(value, language, digits)
    return {
      language,
      region,
      timezone,
      number,
      kw: (value) => `${number(value)} kW`,
      kwh: (value) => `${number(value)} kWh`,
      dateTime: (value) => formatDateTime(value, region, timezone),
      date: (value) => formatDate(value, region, timezone),
      time: (value) => formatTime(value, region, timezone),
    }
  }, [language, timezone, userRegion])
}
