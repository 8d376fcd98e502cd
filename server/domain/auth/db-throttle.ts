import { sql } from 'kysely'
import type { Db } from '../../db/connection.ts'

/**
 * How a scope's failures within the window turn into a wait:
 * - `limit`: blocked once `max` failures are in the window, until the oldest of them leaves it;
 * - `backoff`: from `free` failures on, each attempt waits `baseMs · 2^(failures − free)` (at most
 *   `capMs`) after the latest failure, so the wait grows but never becomes a lockout.
 */
export type ThrottlePolicy = { kind: 'limit'; max: number } | { kind: 'backoff'; free: number; baseMs: number; capMs: number }

/**
 * Failed sign-in throttling kept in the database (table auth_failures), so
 * a restart or a second process sharing the database does not reset it. `scope` names the kind of key
 * ('account', 'pair' = account and IP, 'ip'); failures older than `windowMs` no longer count. `now`
 * answers the current instant in ms (the process clock's, ARCHITECTURE §1 "Time").
 */
export function createDbThrottle({ db, scope, windowMs, policy, now }: { db: Db; scope: string; windowMs: number; policy: ThrottlePolicy; now: () => number }) {
  const recent = (key: string) => db.selectFrom('auth_failures').where('scope', '=', scope).where('key', '=', key).where('at', '>', new Date(now() - windowMs))
  return {
    /** Seconds until `key` may try again, or 0 when it may now. */
    async retryAfter(key: string): Promise<number> {
      let until: number
      if (policy.kind === 'limit') {
        const rows = await recent(key).select('at').orderBy('at', 'desc').limit(policy.max).execute()
        if (rows.length < policy.max) return 0
        until = rows[rows.length - 1].at.getTime() + windowMs
      } else {
        const row = await recent(key).select([sql<string>`count(*)`.as('n'), sql<Date | null>`max(at)`.as('last')]).executeTakeFirstOrThrow()
        const n = Number(row.n)
        if (n < policy.free || !row.last) return 0
        until = new Date(row.last).getTime() + Math.min(policy.capMs, policy.baseMs * 2 ** (n - policy.free))
      }
      const ms = until - now()
      return ms > 0 ? Math.ceil(ms / 1000) : 0
    },
    /** Record a failure of `key` (and drop this scope's failures older than the window); returns its id. */
    async fail(key: string): Promise<string> {
      const row = await db.insertInto('auth_failures').values({ scope, key, at: new Date(now()) }).returning('id').executeTakeFirstOrThrow()
      await db.deleteFrom('auth_failures').where('scope', '=', scope).where('at', '<=', new Date(now() - windowMs)).execute()
      return String(row.id)
    },
    /** Forget `key`'s failures (after a successful sign-in). */
    async reset(key: string): Promise<void> {
      await db.deleteFrom('auth_failures').where('scope', '=', scope).where('key', '=', key).execute()
    },
  }
}

/** Withdraw failures recorded ahead of a password check that then succeeded (ids from `fail`). */
export async function withdrawFailures(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.deleteFrom('auth_failures').where('id', 'in', ids).execute()
}
