import type { Topic } from '../../../shared/live-protocol.ts'
import type { InstallationLive } from '../../live/store.ts'
import { confirmedAt, STALL_MS } from '../../live/freshness.ts'

/** What a tile shows about its data: live, stale (not updating) or offline. */
export type TileStatus = 'live' | 'stale' | 'offline'

type LiveView = Pick<InstallationLive, 'connection'> & Partial<Pick<InstallationLive, 'lastSeen'>> & {
  topics: { [K in Topic]: Pick<InstallationLive['topics'][K], 'state' | 'loaded'> & Partial<Pick<InstallationLive['topics'][K], 'updatedAt'>> } & {
    info: { data: { online: boolean } | null }
  }
}

/**
 * A tile's status (SPEC §2/§8, ARCHITECTURE §5): offline when the relay reports the topic down or
 * the facility is offline; stale when the relay reports it stale, our stream is not open, or (given the
 * client time `now`, ms) the data's last confirmation (client/live/freshness.ts confirmedAt: a change,
 * an event or a heartbeat) is older than STALL_MS: the state follows the data's age, not only the socket,
 * so figures that stopped moving on a stalled stream are never shown as live.
 */
export function tileStatus(inst: LiveView, topic: Topic, now?: number): TileStatus {
  const slot = inst.topics[topic]
  if (slot.state === 'down' || inst.topics.info.data?.online === false) return 'offline'
  if (slot.state === 'stale') return 'stale'
  if (slot.loaded && inst.connection !== 'open') return 'stale'
  if (slot.loaded && now !== undefined) {
    const at = confirmedAt({ connection: inst.connection, lastSeen: inst.lastSeen ?? null, topics: inst.topics as Parameters<typeof confirmedAt>[0]['topics'] }, topic)
    if (at !== null && now - at > STALL_MS) return 'stale'
  }
  return 'live'
}
