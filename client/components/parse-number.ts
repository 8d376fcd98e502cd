import { NumberParser } from '@internationalized/number'

const parsers = new Map<string, NumberParser>()

/**
 * Parse a number typed in the user's locale (SPEC §5 locale aware) with
 * @internationalized/number, which knows each locale's decimal and group signs from Intl: in en-CH and
 * de-CH "1'234.50" is 1234.5 and "1,234" is not a number (it was read as 1.234 before); in fr-CH
 * "0,275" and "0.275" are both 0.275. `locale` is a BCP 47 tag such as Formats.locale ("de-CH").
 * Empty text, junk and anything after a number ("12a") give NaN.
 */
export function parseLocaleNumber(text: string, locale: string = 'en-CH'): number {
  const s = text.trim()
  if (!s) return NaN
  let parser = parsers.get(locale)
  if (!parser) parsers.set(locale, (parser = new NumberParser(locale, { maximumFractionDigits: 20 })))
  return parser.parse(s)
}
