import type { Topic } from '../../../shared/live-protocol.ts'
import type { InstallationLive } from '../../live/store.ts'

/** What a tile shows about its data: live, stale (not updating) or offline. */
export type TileStatus = 'live' | 'stale' | 'offline'

type LiveView = Pick<InstallationLive, 'connection'> & {
  topics: { [K in Topic]: Pick<InstallationLive['topics'][K], 'state' | 'loaded'> } & {
    info: { data: { online: boolean } | null }
  }
}

/**
 * A tile's status (SPEC §2/§8, ARCHITECTURE §5): offline when the relay reports the topic down or
 * the facility is offline; stale when the relay reports it stale or our stream is not open.
 */
export function tileStatus(inst: LiveView, topic: Topic): TileStatus {
  const slot = inst.topics[topic]
  if (slot.state === 'down' || inst.topics.info.data?.online === false) return 'offline'
  if (slot.state === 'stale') return 'stale'
  if (slot.loaded && inst.connection !== 'open') return 'stale'
  return 'live'
}
