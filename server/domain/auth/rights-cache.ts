import { AsyncLocalStorage } from 'node:async_hooks'
import type { Db } from '../../db/connection.ts'

/** Entries kept at most; past that the cache starts over (a bound on memory, not a policy). */
const MAX_ENTRIES = 20_000

/** One request's view of the rights revision: read at its first rights lookup, then used for the rest of it. */
const requestScope = new AsyncLocalStorage<{ revision?: Promise<number> }>()

/**
 * Run `next` (the rest of a request) in its own rights scope: the request reads the rights revision
 * once, at its first sign-in or rights lookup, instead of before each of them. Register as an
 * onRequest hook before sign-in (server/api/index.ts).
 */
export function rightsRequestScope(_req: unknown, _reply: unknown, next: () => void): void {
  requestScope.run({}, next)
}

/**
 * Sign-in and rights facts kept between requests (every request read ~8 small statements for
 * the token's user, the role, the permission entries, the object tree, stations and cards before its own
 * work, all on the embedded database's single connection).
 *
 * Validity rests on the rights revision (migration 0004, extended by 0150): database triggers bump it in
 * the same transaction as every write that changes what a user may do or see (users' active state,
 * superuser flag and ended sessions; memberships and roles; permission entries; the object tree; station
 * placement; card ownership; installations added, removed or moved to another time zone). Each
 * request reads that one number once (a primary-key read, shared by the requests that arrive in the same
 * turn of the event loop; {@link rightsRequestScope}) and everything is dropped when it moved. So a change
 * is in force for the next request, whichever process made it (several API processes may share one Postgres), with
 * no time-to-live and no invalidation call that a new write path could forget. Refresh tokens (logout)
 * are not cached: they are read on every refresh.
 *
 * A value is stored only after it loaded under a revision read before the load began: it reflects at least
 * that revision, and is dropped as soon as a later one is seen. Errors are not kept.
 */
export function createRightsCache(db: Db) {
  let revision: number | null = null
  const entries = new Map<string, Promise<unknown>>()
  let batch: Promise<number> | null = null

  /** The current revision; callers of the same event-loop turn share one read issued after they arrived. */
  function currentRevision(): Promise<number> {
    batch ??= new Promise<number>((resolve, reject) => {
      setImmediate(() => {
        batch = null
        db.selectFrom('rights_revision').select('revision').where('id', '=', 1).executeTakeFirstOrThrow()
          .then((r) => resolve(Number(r.revision)), reject)
      })
    })
    return batch
  }

  return {
    /**
     * The value of `key`, loaded by `load` unless it is known for the current rights revision. Keys name
     * what they hold (e.g. `user:12`, `access:12:1`); a value must depend only on rows whose changes bump
     * the revision.
     */
    async get<T>(key: string, load: () => Promise<T>): Promise<T> {
      const scope = requestScope.getStore()
      const now = await (scope ? (scope.revision ??= currentRevision()) : currentRevision())
      if (now !== revision || entries.size >= MAX_ENTRIES) {
        entries.clear()
        revision = now
      }
      const known = entries.get(key) as Promise<T> | undefined
      if (known) return known
      const loading = load()
      entries.set(key, loading)
      loading.catch(() => {
        if (entries.get(key) === loading) entries.delete(key)
      })
      return loading
    },
  }
}
export type RightsCache = ReturnType<typeof createRightsCache>
