import type { Topic } from '../../shared/live-protocol.ts'
import type { ConnectionState, TopicSlot } from './store.ts'

/**
 * The relay writes a heartbeat after this much silence (ARCHITECTURE §5 "heartbeat after 15 s of
 * silence"; config/defaults.ts RELAY.heartbeatMs), checked every RELAY.sweepMs (5 s): an open stream
 * is never silent for more than about 20 s.
 */
export const HEARTBEAT_MS = 15_000

/**
 * A stream silent this long (no event, no heartbeat) is stalled: three heartbeat intervals, so a
 * slow network or a throttled tab is not taken for a dead relay, and a wall display says so within
 * a minute rather than showing frozen figures as "Live".
 */
export const STALL_MS = 3 * HEARTBEAT_MS

type Seen = { connection: ConnectionState; lastSeen: number | null }

/**
 * Whether something last heard at client time `lastHeard` (ms: an event, a heartbeat, the stream's
 * opening) is too long ago at `now`: more than {@link STALL_MS}. False before anything was heard.
 */
export function isStalled(lastHeard: number | null, now: number): boolean {
  return lastHeard !== null && now - lastHeard > STALL_MS
}

/**
 * When a topic's data was last confirmed current (client ms), for "updated N s ago" (ARCHITECTURE §5
 * "every tile shows its data age"): the relay polls each topic and sends only changes, so while the
 * stream is open and the relay reports the topic live, every event or heartbeat confirms the data as
 * of its arrival, changed or not. Otherwise the data is as old as its last change. Null before any data.
 */
export function confirmedAt(inst: Seen & { topics: Record<Topic, Pick<TopicSlot<unknown>, 'loaded' | 'updatedAt' | 'state'>> }, topic: Topic): number | null {
  const slot = inst.topics[topic]
  if (!slot.loaded || slot.updatedAt === null) return null
  if (inst.connection !== 'open' || slot.state !== 'live' || inst.lastSeen === null) return slot.updatedAt
  return Math.max(slot.updatedAt, inst.lastSeen)
}
