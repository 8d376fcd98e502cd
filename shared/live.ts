import { z } from 'zod'

/**
 * The relay protocol (ARCHITECTURE §5): topics, the upstream call behind each, and event payloads.
 * Collections travel as objects keyed by record id so that a JSON Patch path names a record.
 */
export const TOPICS = ['metrics', 'stations', 'sessions', 'info', 'energy_return'] as const
export type Topic = (typeof TOPICS)[number]

/** Upstream path (relative to the API base) polled for a topic of an installation. */
export function topicPath(topic: Topic, installationId: number, now = new Date()): string {
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

export const LiveState = z.enum(['live', 'stale', 'down'])
export type LiveState = z.infer<typeof LiveState>

export const SnapshotEvent = z.object({ topic: z.enum(TOPICS), seq: z.number().int(), data: z.unknown() })
export const PatchEvent = z.object({
  topic: z.enum(TOPICS),
  seq: z.number().int(),
  ops: z.array(z.object({ op: z.string(), path: z.string(), value: z.unknown().optional(), from: z.string().optional() })),
})
/** RFC 7396 merge patch of a topic's data (docs/decisions.md): sent when smaller than the RFC 6902 ops. */
export const MergeEvent = z.object({ topic: z.enum(TOPICS), seq: z.number().int(), merge: z.record(z.string(), z.unknown()) })
export const StatusEvent = z.object({ topic: z.enum(TOPICS), state: LiveState, since: z.string() })
export type SnapshotEvent = z.infer<typeof SnapshotEvent>
export type PatchEvent = z.infer<typeof PatchEvent>
export type MergeEvent = z.infer<typeof MergeEvent>
export type StatusEvent = z.infer<typeof StatusEvent>

/** POST /live/tickets answer. */
export const TicketResponse = z.object({ ticket: z.string(), expires_in: z.number() })

/** Parse an event id `<epoch>.<seq>`; null when malformed. */
export function parseEventId(id: string | undefined | null): { epoch: string; seq: number } | null {
  if (!id) return null
  const m = /^([0-9a-z]+)\.(\d+)$/.exec(id)
  return m ? { epoch: m[1], seq: Number(m[2]) } : null
}
