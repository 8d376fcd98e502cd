/**
 * Card expiry (SPEC §5): a card counts as about to expire when its expiry month is reached or passed.
 * Two-digit years are prefixed with 20 ("27" → 2027). Months are 1–12; `now` is a calendar month (see
 * monthOf), so the installation time zone decides when a month begins.
 */
export function fullYear(year: number): number {
  return year < 100 ? 2000 + year : year
}

/** True when the card expiring in `expMonth`/`expYear` is in or past its expiry month at `now` (SPEC §5). */
export function isAboutToExpire(expMonth: number | null, expYear: number | null, now: { year: number; month: number }): boolean {
  if (expMonth == null || expYear == null) return false
  const exp = fullYear(expYear) * 12 + (expMonth - 1)
  const cur = now.year * 12 + (now.month - 1)
  return cur >= exp
}

/** True when the card's expiry month has passed (it can no longer be charged). */
export function isExpired(expMonth: number | null, expYear: number | null, now: { year: number; month: number }): boolean {
  if (expMonth == null || expYear == null) return false
  return now.year * 12 + (now.month - 1) > fullYear(expYear) * 12 + (expMonth - 1)
}

/** The calendar month of `date` in `timeZone` (default Europe/Zurich, SPEC §1). */
export function monthOf(date: Date, timeZone = 'Europe/Zurich'): { year: number; month: number } {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit' }).formatToParts(date)
  return { year: Number(parts.find((p) => p.type === 'year')!.value), month: Number(parts.find((p) => p.type === 'month')!.value) }
}
