import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc.js'
import timezone from 'dayjs/plugin/timezone.js'
import { COUNTRIES } from './regions.ts'

dayjs.extend(utc)
dayjs.extend(timezone)

/** Regions that drive date formats: the SPEC §9 countries. */
export type Region = (typeof COUNTRIES)[number]
const REGIONS: readonly string[] = COUNTRIES

/**
 * The region of a user's "de-CH" style language and region setting (users.ietf_lang_tag, Settings), or
 * null when it names none or one outside SPEC §9. Used by the client and by what the server formats for
 * a person (invoices, mails: PDFs and mails follow the same settings; docs/decisions.md "Client: one
 * formatting source").
 */
export function regionOfTag(tag: string | null | undefined): Region | null {
  const region = (tag ?? '').split('-')[1]?.toUpperCase()
  return region && REGIONS.includes(region) ? (region as Region) : null
}

/** Display patterns per region (SPEC §9), in dayjs tokens. */
export function datePatterns(region: Region): { dateTime: string; date: string; time: string } {
  switch (region) {
    case 'IT':
      return { dateTime: 'DD/MM/YY, HH:mm', date: 'DD/MM/YYYY', time: 'HH:mm' }
    case 'GB':
    case 'US':
      return { dateTime: 'MM/DD/YY, hh:mm A', date: 'MM/DD/YYYY', time: 'hh:mm A' }
    default:
      return { dateTime: 'DD.MM.YY, HH:mm', date: 'DD.MM.YYYY', time: 'HH:mm' }
  }
}

/**
 * The region in force until the user picks one in Settings: Switzerland for every language (
 * Settings showed "English / Switzerland" while English used US dates and Italian Italian ones).
 */
export function defaultRegion(_lang: string): Region {
  return 'CH'
}

const LANGUAGES = ['de', 'fr', 'it', 'en'] as const

/**
 * The BCP 47 locale every number, percentage and amount is formatted with (one source):
 * the UI language and the region of Settings, "de-CH", "fr-CH", "it-CH", "en-CH" by default; an
 * unknown language falls back to English, a missing region to CH. A full tag ("it-CH") passes through.
 */
export function intlLocale(lang: string, region: Region = 'CH'): string {
  const [base, tagRegion] = lang.split('-')
  const language = (LANGUAGES as readonly string[]).includes(base) ? base : 'en'
  return `${language}-${tagRegion && /^[A-Z]{2}$/.test(tagRegion) ? tagRegion : region}`
}

// One Intl.DateTimeFormat per time zone. dayjs's tz() calls Date#toLocaleString with a timeZone on
// every use, and the engine builds a new ICU formatter for each such call: on Power (station cards,
// the chart's axis) that was most of the cost of formatting a date.
const zoneFormats = new Map<string, Intl.DateTimeFormat>()
function zoneFormat(tz: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(tz)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: tz, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
    zoneFormats.set(tz, format)
  }
  return format
}

/**
 * The UTC offset of time zone `tz` (IANA name) at instant `ms` (epoch ms), in whole minutes east of
 * UTC (Zurich: 60 in winter, 120 in summer). Reads the zone's wall clock from a cached
 * Intl.DateTimeFormat. Throws RangeError for an unknown zone or a non-finite instant, as Intl does.
 */
export function zoneOffsetMinutes(ms: number, tz: string): number {
  let year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0
  for (const part of zoneFormat(tz).formatToParts(ms)) {
    const n = Number(part.value)
    if (part.type === 'year') year = n
    else if (part.type === 'month') month = n
    else if (part.type === 'day') day = n
    else if (part.type === 'hour') hour = n % 24
    else if (part.type === 'minute') minute = n
    else if (part.type === 'second') second = n
  }
  const wall = Date.UTC(year, month - 1, day, hour, minute, second)
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000)
}

/**
 * `value` as a dayjs in zone `tz`, like dayjs's `.tz(tz)` (same wall clock, same `format` output) but
 * through {@link zoneOffsetMinutes}' cached formatter. An invalid date stays invalid ("Invalid Date").
 */
function inZone(value: string | number | Date, tz: string): dayjs.Dayjs {
  const d = dayjs(value)
  if (!d.isValid()) return d
  // dayjs reads an offset below 16 in magnitude as hours; only 0 occurs among real zones since 1970.
  const offset = zoneOffsetMinutes(d.valueOf(), tz)
  return offset === 0 ? d.utc() : d.utcOffset(offset)
}

/** Format an instant as display date-time in a time zone (SPEC §9), e.g. CH "22.11.26, 14:05". */
export function formatDateTime(value: string | number | Date, region: Region, tz: string): string {
  return inZone(value, tz).format(datePatterns(region).dateTime)
}

/** Format an instant as a display date in a time zone (SPEC §9), e.g. IT "22/11/2026". */
export function formatDate(value: string | number | Date, region: Region, tz: string): string {
  return inZone(value, tz).format(datePatterns(region).date)
}

/** Format an instant as a time of day in a time zone, 24 h or 12 h per region. */
export function formatTime(value: string | number | Date, region: Region, tz: string): string {
  return inZone(value, tz).format(datePatterns(region).time)
}

/** Format an instant in a time zone with any dayjs pattern ("HH:mm:ss"), through the cached zone formatter. */
export function formatInZone(value: string | number | Date, pattern: string, tz: string): string {
  return inZone(value, tz).format(pattern)
}

/**
 * A number with fixed decimals (2 by default, SPEC §3) by Intl in `locale`: a full tag ("fr-CH") or a
 * bare language, which gets the default region CH (intlLocale).
 */
export function formatNumber(value: number, locale: string, digits = 2): string {
  return numberFormat(intlLocale(locale), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value)
}

/**
 * An amount in Swiss francs by Intl.NumberFormat currency CHF (SPEC §9): "CHF 1'234.50" in de-CH,
 * "1 234.50 CHF" in fr-CH; `digits` decimals (2, or 4 for prices per kWh). Intl joins the code and the
 * digits with a no-break space, so an amount never wraps.
 */
export function formatMoney(value: number, locale: string, digits = 2): string {
  return numberFormat(intlLocale(locale), { style: 'currency', currency: 'CHF', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value)
}

/** A percentage given in percent (12.5 → "12.5%" in de-CH, "12,5 %" in fr-CH) by Intl, `digits` decimals at most. */
export function formatPercent(percent: number, locale: string, digits = 0): string {
  return numberFormat(intlLocale(locale), { style: 'percent', maximumFractionDigits: digits }).format(percent / 100)
}

/** A number with its unit ("3.25 kW"), joined by a no-break space so the two never part. */
export function formatUnit(value: number, unit: string, locale: string, digits = 2): string {
  return `${formatNumber(value, locale, digits)}\u00a0${unit}`
}

// One formatter per locale and options: building one costs far more than formatting (charts format
// every axis label on every redraw).
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}/${JSON.stringify(options)}`
  let format = numberFormats.get(key)
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, options)))
  return format
}
const numberFormats = new Map<string, Intl.NumberFormat>()

/** Local calendar facts of an instant in a zone: weekday 0 = Monday, minute of day, ISO date. */
export function localParts(value: Date, tz: string): { weekday: number; minute: number; date: string } {
  const d = dayjs(value).tz(tz)
  return { weekday: (d.day() + 6) % 7, minute: d.hour() * 60 + d.minute(), date: d.format('YYYY-MM-DD') }
}

/** Start of the local day containing `value`, as a Date (23/24/25-hour days handled by the zone). */
export function startOfLocalDay(value: Date, tz: string): Date {
  return dayjs(value).tz(tz).startOf('day').toDate()
}

export { dayjs }
