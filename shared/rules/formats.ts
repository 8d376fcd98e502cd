import dayjs from 'dayjs'
import utc from 'dayjs/plugin/utc.js'
import timezone from 'dayjs/plugin/timezone.js'

dayjs.extend(utc)
dayjs.extend(timezone)

/** Regions that drive date formats (SPEC §9 countries). */
export type Region = 'CH' | 'DE' | 'AT' | 'IT' | 'FR' | 'GB' | 'US'

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

/** The region a language implies until the user picks one (issue 3 adds the setting). */
export function defaultRegion(lang: string): Region {
  return lang.startsWith('en') ? 'GB' : lang === 'it' ? 'IT' : 'CH'
}

/** Format an instant as display date-time in a time zone (SPEC §9), e.g. CH "22.11.26, 14:05". */
export function formatDateTime(value: string | number | Date, region: Region, tz: string): string {
  return dayjs(value).tz(tz).format(datePatterns(region).dateTime)
}

/** Format an instant as a display date in a time zone (SPEC §9), e.g. IT "22/11/2026". */
export function formatDate(value: string | number | Date, region: Region, tz: string): string {
  return dayjs(value).tz(tz).format(datePatterns(region).date)
}

/** Format an instant as a time of day in a time zone, 24 h or 12 h per region. */
export function formatTime(value: string | number | Date, region: Region, tz: string): string {
  return dayjs(value).tz(tz).format(datePatterns(region).time)
}

/** A number with fixed decimals in the language's notation (2 decimals by default, SPEC §3). */
export function formatNumber(value: number, lang: string, digits = 2): string {
  const locale = lang === 'de' ? 'de-CH' : lang === 'fr' ? 'fr-CH' : lang === 'it' ? 'it-CH' : 'en-GB'
  // One formatter per locale and precision: building one costs far more than formatting (charts
  // format every axis label on every redraw).
  const key = `${locale}/${digits}`
  let format = numberFormats.get(key)
  if (!format) numberFormats.set(key, (format = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits })))
  return format.format(value)
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
