/**
 * A throttle kept in memory, so a restart forgets it (reset mails per address; sign-in failures use
 * db-throttle.ts). A key is blocked once it has `max` failures within `windowMs`; the answer says when to
 * retry. `now` answers the current instant in ms (the process clock's, ARCHITECTURE §1 "Time").
 */
export function createThrottle({ max, windowMs, now }: { max: number; windowMs: number; now: () => number }) {
  const failures = new Map<string, number[]>()
  const recent = (key: string) => {
    const since = now() - windowMs
    const list = (failures.get(key) ?? []).filter((t) => t > since)
    if (list.length) failures.set(key, list)
    else failures.delete(key)
    return list
  }
  return {
    /** Seconds until `key` may try again, or 0 when it may now. */
    retryAfter(key: string): number {
      const list = recent(key)
      return list.length >= max ? Math.max(1, Math.ceil((list[0] + windowMs - now()) / 1000)) : 0
    },
    fail(key: string) {
      failures.set(key, [...recent(key), now()])
    },
    reset(key: string) {
      failures.delete(key)
    },
  }
}
