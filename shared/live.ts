import { z } from 'zod'
import { LIVE_STATES, TOPICS } from './live-protocol.ts'

/**
 * The relay protocol (ARCHITECTURE §5): event payloads as zod schemas (server side). Collections travel as
 * objects keyed by record id so that a JSON Patch path names a record. The plain parts (topics, paths,
 * event ids) live in the zod-free shared/live-protocol.ts for the browser and are re-exported here.
 */
export { LIVE_STATES, TOPICS, parseEventId, topicPath } from './live-protocol.ts'
export type { Topic } from './live-protocol.ts'

export const LiveState = z.enum(LIVE_STATES)
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

