/**
 * The relay protocol's plain parts (ARCHITECTURE §5): topics, the upstream call behind each, live states
 * and event ids. No zod here on purpose: the browser's live client (client/live/) imports these, and a
 * module that builds zod schemas at top level drags zod (about 60 KB sent) into Power's first load.
 * The event schemas stay in shared/live.ts, which re-exports everything below.
 */
export const TOPICS = ['metrics', 'stations', 'sessions', 'info', 'energy_return'] as const
export type Topic = (typeof TOPICS)[number]

/** A topic's health as the relay reports it in `status` events. */
export const LIVE_STATES = ['live', 'stale', 'down'] as const
export type LiveState = (typeof LIVE_STATES)[number]

/**
 * Upstream path (relative to the API base) polled for a topic of an installation. `now` is the server
 * clock's instant (ARCHITECTURE §1 "Time"): the sessions topic asks for sessions active in the 24 h
 * before it.
 */
export function topicPath(topic: Topic, installationId: number, now: Date): string {
  const base = `/cockpit/installations/${installationId}`
  switch (topic) {
    case 'metrics':
      return `/metrics/?installation=${installationId}`
    case 'stations':
      return `${base}/charging_stations/?limit=1000`
    case 'sessions': {
      // Today's and open sessions: everything that ended in the last 24 h or has not ended.
      const since = new Date(now.getTime() - 24 * 3600_000).toISOString()
      return `/rfids-charge/?installation=${installationId}&limit=1000&active_since=${encodeURIComponent(since)}`
    }
    case 'info':
      return `${base}/info`
    case 'energy_return':
      return `${base}/energy_return`
  }
}

/** Parse an event id `<epoch>.<seq>`; null when malformed. */
export function parseEventId(id: string | undefined | null): { epoch: string; seq: number } | null {
  if (!id) return null
  const m = /^([0-9a-z]+)\.(\d+)$/.exec(id)
  return m ? { epoch: m[1], seq: Number(m[2]) } : null
}
