import { sql } from 'kysely'
import { LRUCache } from 'lru-cache'
import type { Db } from '../../db/connection.ts'

/** Values (buckets × series) kept at most over all answers: a year at 15 minutes is ~600,000. */
export const MAX_CACHED_VALUES = 1_000_000

/**
 * The statistics revision of [from, to) of an installation (migration 0166): the highest revision of its
 * local days that overlap the period (a day starts at most 26 hours before an instant in it) and of its
 * whole-installation changes; 0 before any write.
 */
async function revisionOf(db: Db, installationId: number, from: Date, to: Date): Promise<number> {
  const { rows } = await sql<{ r: string | number | null }>`
    select max(revision) as r from statistics_changes
    where installation_id = ${installationId}
      and (day = '-infinity' or (day >= ${from}::timestamptz - interval '26 hours' and day < ${to}::timestamptz))`.execute(db)
  return Number(rows[0]?.r ?? 0)
}

/**
 * Statistics answers kept while the data they were computed from stand (10 clients repeating
 * month and year statistics queued on the embedded database's one connection; a year at 15 minutes
 * read 950,000 rows per call). Each lookup reads the period's revision (one primary-key range read) before
 * anything else, so an answer is reused only while no write to its installation's 15-minute aggregates
 * of those days, its meters, tariffs, rates or time zone happened since, whichever process wrote
 * (several API processes may share one Postgres). An answer computed after that read reflects at least
 * that revision; a later one drops it. Identical requests that arrive while one is computed share it.
 * Answers are shared between requests: callers must not modify them. Least recently used answers go
 * first past {@link MAX_CACHED_VALUES} values (lru-cache's size bound; an answer larger than that is not
 * kept); failures are not kept.
 */
export function createAnswerCache<T>(db: Db, size: (answer: T) => number, maxValues = MAX_CACHED_VALUES) {
  const entries = new LRUCache<string, { revision: number; answer: T }>({
    maxSize: maxValues,
    // lru-cache wants a positive integer; an empty answer still takes a slot.
    sizeCalculation: (e) => Math.max(1, Math.ceil(size(e.answer))),
  })
  const pending = new Map<string, Promise<T>>()

  return {
    /** The answer of `key` for the installation's period [from, to), computed by `compute` unless kept. */
    async get(key: string, installationId: number, from: Date, to: Date, compute: () => Promise<T>): Promise<T> {
      const revision = await revisionOf(db, installationId, from, to)
      const kept = entries.get(key)
      if (kept && kept.revision === revision) return kept.answer
      const flight = `${revision}|${key}`
      const running = pending.get(flight)
      if (running) return running
      const computing = compute()
      pending.set(flight, computing)
      try {
        const answer = await computing
        const now = entries.peek(key)
        if (!now || now.revision < revision) entries.set(key, { revision, answer })
        return answer
      } finally {
        pending.delete(flight)
      }
    },
  }
}
