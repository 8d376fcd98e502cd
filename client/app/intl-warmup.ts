/** What the warm-up worker is asked to build: the UI language, its Intl locale, a time zone. */
export interface IntlWarmup {
  /** The UI language ("de"): the collator of useFormats' compareNames. */
  language: string
  /** The Intl locale of numbers and amounts ("de-CH", shared/rules/formats.ts intlLocale). */
  locale: string
  /** An IANA zone: the zone's wall-clock formatter of shared/rules/formats.ts. */
  timezone: string
}

/**
 * The request for `language` (one of LANGUAGES) before the user's region and the installation's zone
 * are known: the default region CH, as shared/rules/formats.ts intlLocale gives it (not imported: it
 * would bring dayjs into the entry chunk; intl-warmup.test.ts keeps the two the same).
 */
export function intlWarmupFor(language: string, timezone: string): IntlWarmup {
  return { language, locale: `${language}-CH`, timezone }
}

/**
 * Build, in a worker, the Intl objects Power's tiles build first (Power's blocking time):
 * the first Intl.Collator, Intl.NumberFormat and zoned Intl.DateTimeFormat of a page each cost 3–16 ms
 * on a fast CPU (×4 on Lighthouse's phone), nearly all of it ICU loading its locale and zone data.
 * ICU keeps that data for the whole renderer process, so once a worker has built them the main
 * thread's own copies cost well under 1 ms (Chromium, measured). The options are those of
 * shared/rules/formats.ts and client/components/use-formats.ts; a warm-up that has not finished, or a
 * browser without workers, only means the main thread pays as before.
 */
export function warmIntl({ language, locale, timezone }: IntlWarmup): void {
  new Intl.Collator(language, { numeric: true }).compare('a 2', 'a 10')
  new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1234.5)
  new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(0.5)
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'CHF', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1)
  new Intl.DateTimeFormat('en-US', { timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' }).formatToParts(0)
}
