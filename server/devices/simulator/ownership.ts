import pg from 'pg'
import type { Clock } from '../../lib/clock.ts'

/**
 * Which installations this process simulates. On the embedded database there is one
 * process: it owns them all. On Postgres several processes may run the simulator role; each
 * installation is owned by the one holding a session-level advisory lock (key pair SIM_LOCK_SPACE,
 * installation id) on a connection of its own. Postgres frees the lock when that connection ends, so
 * when the owner dies another process takes the installation over at its next try (every
 * `retryMs` of `clock`, 10 s by default: well inside the 30 s). The retry spacing is the process
 * clock's (ARCHITECTURE §1 "Time"), like the simulator's steps that ask.
 */
export interface Ownership {
  /** True when this is the only process (embedded database): it owns everything, always. */
  sole: boolean
  /** The installations of `ids` this process owns now (tries to take free ones, at most every retryMs). */
  owned(ids: number[]): Promise<number[]>
  close(): Promise<void>
}

/** First half of the advisory lock key: the simulator's owner locks ("sim" in ASCII). */
export const SIM_LOCK_SPACE = 0x73696d

export function createOwnership(databaseUrl: string | undefined, { clock, retryMs = 10_000 }: { clock: Clock; retryMs?: number }): Ownership {
  if (!databaseUrl) return { sole: true, owned: async (ids) => ids, close: async () => {} }
  let client: pg.Client | null = null
  const mine = new Set<number>()
  const triedAt = new Map<number, number>()
  const connect = async () => {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'cockpit-simulator-owner' })
    // A broken connection loses every lock it held: forget them and connect again at the next call.
    c.on('error', () => drop(c))
    c.on('end', () => drop(c))
    await c.connect()
    return c
  }
  const drop = (c: pg.Client) => {
    if (client !== c) return
    client = null
    mine.clear()
    triedAt.clear()
  }
  return {
    sole: false,
    async owned(ids) {
      try {
        client ??= await connect()
        const now = clock.ms()
        for (const id of ids) {
          if (mine.has(id) || now - (triedAt.get(id) ?? -Infinity) < retryMs) continue
          triedAt.set(id, now)
          const r = await client.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) as ok', [SIM_LOCK_SPACE, id])
          if (r.rows[0].ok) mine.add(id)
        }
      } catch {
        if (client) drop(client)
      }
      return ids.filter((id) => mine.has(id))
    },
    async close() {
      const c = client
      client = null
      mine.clear()
      // A closed ownership starts afresh: the next call tries every installation at once.
      triedAt.clear()
      await c?.end().catch(() => {})
    },
  }
}
