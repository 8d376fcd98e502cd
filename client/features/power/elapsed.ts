/**
 * How long a charging session has run, in whole minutes, as hours and minutes once it reaches an hour:
 * `{key: 'elapsedMinutes', minutes}` or `{key: 'elapsedHours', hours, minutes}` for the power namespace's
 * texts. `startMs` and `nowMs` are epoch ms (now from the server-corrected clock, client/api/clock.ts);
 * null for a start in the future (a clock off by more than a minute), so nothing wrong is shown.
 */
export function elapsed(startMs: number, nowMs: number): { key: 'elapsedMinutes'; minutes: number } | { key: 'elapsedHours'; hours: number; minutes: number } | null {
  const total = Math.floor((nowMs - startMs) / 60_000)
  if (!Number.isFinite(total) || total < 0) return null
  return total < 60 ? { key: 'elapsedMinutes', minutes: total } : { key: 'elapsedHours', hours: Math.floor(total / 60), minutes: total % 60 }
}
