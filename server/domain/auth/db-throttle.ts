import type { Db } from '../../db/connection.ts'

/**
 * Failed sign-in throttling kept in the database (issue 3 §8; table auth_failures), so a restart or a
 * second process sharing the database does not reset it. A key is blocked once it has `max` failures
 * within `windowMs`; `retryAfter` says in how many seconds the oldest of those leaves the window.
 */
export function createDbThrottle({ db, scope, max, windowMs, now = Date.now }: { db: Db; scope: string; max: number; windowMs: number; now?: () => number }) {
  return {
    /** Seconds until `key` may try again, or 0 when it may now. */
    async retryAfter(key: string): Promise<number> {
      const since = new Date(now() - windowMs)
      const rows = await db.selectFrom('auth_failures').select('at').where('scope', '=', scope).where('key', '=', key).where('at', '>', since)
        .orderBy('at', 'desc').limit(max).execute()
      if (rows.length < max) return 0
      const oldest = rows[rows.length - 1].at.getTime()
      return Math.max(1, Math.ceil((oldest + windowMs - now()) / 1000))
    },
    /** Record a failure of `key` (and drop this scope's failures older than the window). */
    async fail(key: string): Promise<void> {
      await db.insertInto('auth_failures').values({ scope, key, at: new Date(now()) }).execute()
      await db.deleteFrom('auth_failures').where('scope', '=', scope).where('at', '<=', new Date(now() - windowMs)).execute()
    },
    /** Forget `key`'s failures (after a successful sign-in of the account). */
    async reset(key: string): Promise<void> {
      await db.deleteFrom('auth_failures').where('scope', '=', scope).where('key', '=', key).execute()
    },
  }
}
