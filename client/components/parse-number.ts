import { NumberParser } from '@internationalized/number'

const parsers = new Map<string, NumberParser>()
const signs = new Map<string, { decimal: string; group: string }>()

/** The result of reading typed text as a number: the value, or why it is refused. */
export type NumberReading = { ok: true; value: number } | { ok: false; reason: 'empty' | 'invalid' | 'ambiguous' }

/**
 * The decimal and grouping signs of `locale` as Intl formats numbers there ("de-DE": "," and ".";
 * "de-CH": "." and "’"; "fr-CH": "," and a narrow space), from the browser's own locale data.
 */
export function localeSigns(locale: string): { decimal: string; group: string } {
  let s = signs.get(locale)
  if (!s) {
    const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12345.6)
    s = { decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? ',' }
    signs.set(locale, s)
  }
  return s
}

// Marks that only ever group thousands: apostrophes and spaces (Swiss, French, Austrian grouping).
const SOFT_GROUP = /['’ʼ\u0020\u00a0\u202f\u2009]/g
const MINUS = /^[-\u2212]/

/** Whether `whole` is digits grouped by `marks` as thousands: 1–3 digits, then groups of exactly 3. */
function groupedDigits(whole: string, marks: RegExp): string | null {
  const groups = whole.split(marks)
  if (groups.length === 1) return /^\d*$/.test(whole) ? whole : null
  if (!/^\d{1,3}$/.test(groups[0]) || !groups.slice(1).every((g) => /^\d{3}$/.test(g))) return null
  return groups.join('')
}

/**
 * Read a number typed by a person of `locale` (a BCP 47 tag such as Formats.locale, "de-DE"; SPEC §5
 * "number parsing is locale aware"). Both "." and "," are taken as the decimal sign when the text can
 * mean only that: "0.12" and "0,12" are 0.12 in every locale (in de-DE, it-IT or en-AT Intl alone
 * read "0.12" as 12). Text that a person of the region could mean either way is refused as
 * `ambiguous`: a whole part of 1–999 and exactly three digits after the one sign that is not the
 * locale's decimal sign ("1.234" in de-DE: 1234 or 1.234? "1,234" in en-GB or de-CH). The locale's own
 * decimal sign is always a decimal sign ("1,234" in de-DE is 1.234); with both signs the last one is the
 * decimal ("1.234,5", "1,234.5"); apostrophes and spaces group thousands ("1'234.50", "1 234,5").
 * Empty text is `empty`; junk, letters and misplaced groups ("12a", "1.2.3") are `invalid`. The
 * canonical text is then parsed by @internationalized/number's NumberParser in the locale.
 */
export function readLocaleNumber(text: string, locale: string = 'en-CH'): NumberReading {
  const s = text.trim()
  if (!s) return { ok: false, reason: 'empty' }
  const negative = MINUS.test(s)
  const body = negative ? s.slice(1) : s
  if (!/^[\d.,'’ʼ\u0020\u00a0\u202f\u2009]+$/.test(body) || !/\d/.test(body)) return { ok: false, reason: 'invalid' }
  const { decimal } = localeSigns(locale)
  const dots = body.split('.').length - 1
  const commas = body.split(',').length - 1
  let whole = body
  let fraction = ''
  let grouping: RegExp = SOFT_GROUP
  if (dots && commas) {
    // Both signs: the last is the decimal sign, the other groups thousands.
    const sign = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ','
    const other = sign === '.' ? ',' : '.'
    if (body.split(sign).length !== 2) return { ok: false, reason: 'invalid' }
    ;[whole, fraction] = body.split(sign)
    grouping = new RegExp(`[${other === '.' ? '.' : ','}'’ʼ\\u0020\\u00a0\\u202f\\u2009]`, 'g')
    if (fraction === '') return { ok: false, reason: 'invalid' }
  } else if (dots + commas === 1) {
    const sign = dots ? '.' : ','
    ;[whole, fraction] = body.split(sign)
    if (fraction === '' || !/^\d+$/.test(fraction)) return { ok: false, reason: 'invalid' }
    const digits = groupedDigits(whole, SOFT_GROUP)
    // "1.234" could group thousands unless the sign is the locale's decimal sign or the whole part is 0.
    if (digits !== null && fraction.length === 3 && /[1-9]/.test(digits) && digits.length <= 3 && !/\D/.test(whole) && sign !== decimal) {
      return { ok: false, reason: 'ambiguous' }
    }
  } else if (dots + commas > 1) {
    // One sign several times groups thousands ("1.234.567"), never when it is the locale's decimal sign.
    const sign = dots ? '.' : ','
    if (sign === decimal) return { ok: false, reason: 'invalid' }
    grouping = new RegExp(`[${sign}'’ʼ\\u0020\\u00a0\\u202f\\u2009]`, 'g')
  }
  if (!/^\d*$/.test(fraction)) return { ok: false, reason: 'invalid' }
  const digits = groupedDigits(whole, grouping)
  if (digits === null || (digits === '' && fraction === '')) return { ok: false, reason: 'invalid' }
  let parser = parsers.get(locale)
  if (!parser) parsers.set(locale, (parser = new NumberParser(locale, { maximumFractionDigits: 20 })))
  const canonical = `${negative ? '-' : ''}${digits || '0'}${fraction ? `${decimal}${fraction}` : ''}`
  const value = parser.parse(canonical)
  return Number.isFinite(value) ? { ok: true, value } : { ok: false, reason: 'invalid' }
}

/**
 * Parse a number typed in the user's locale (see {@link readLocaleNumber}): the value, or NaN for
 * empty, junk or ambiguous text. `locale` is a BCP 47 tag such as Formats.locale ("de-CH").
 */
export function parseLocaleNumber(text: string, locale: string = 'en-CH'): number {
  const r = readLocaleNumber(text, locale)
  return r.ok ? r.value : NaN
}

/**
 * Read a form's number fields (`texts` by field name) in `locale`: `values` has each field's number,
 * null for an empty field named in `optional`; `invalid` names every field that is empty (not
 * optional), junk or ambiguous, which a form marks with SPEC §5's "Please enter a valid rate" instead
 * of sending anything.
 */
export function readNumberFields(texts: Record<string, string>, locale: string, optional: readonly string[] = []): { values: Record<string, number | null>; invalid: string[] } {
  const values: Record<string, number | null> = {}
  const invalid: string[] = []
  for (const [field, text] of Object.entries(texts)) {
    const r = readLocaleNumber(text, locale)
    if (r.ok) values[field] = r.value
    else if (r.reason === 'empty' && optional.includes(field)) values[field] = null
    else invalid.push(field)
  }
  return { values, invalid }
}
