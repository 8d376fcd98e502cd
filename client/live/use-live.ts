import { snapshot } from 'valtio/vanilla'
import type { Snapshot } from 'valtio/vanilla'
import type { Topic } from '../../shared/live-protocol.ts'
import { live } from './store.ts'
import type { InstallationLive, LiveStore, TopicSlot, TopicData } from './store.ts'
import { useStorePart, watchStorePart } from '../components/use-store-part.ts'

/** A read-only view of one installation's live state, as a selector of {@link useLive} gets it. */
export type LiveView = Snapshot<InstallationLive>

const installationOf = (s: Snapshot<LiveStore>, installationId: number) => s.installations[String(installationId)] as LiveView | undefined

/**
 * The part of one installation's live state that `select` picks, read from the store's current
 * snapshot. valtio shares unchanged parts between snapshots, so a part that did not change is the
 * same object as before: what {@link watchLive} compares.
 */
export function readLive<T>(installationId: number, select: (inst: LiveView | undefined) => T): T {
  return select(installationOf(snapshot(live), installationId))
}

/**
 * Call `onChange(next)` whenever the part of an installation's live state that `select` picks
 * changes, and only then (client/components/use-store-part.ts): a metrics patch does not reach a
 * watcher of the stations (every live event re-rendered the whole Power page). `select` must
 * return a primitive or a part of the snapshot, never a new object. Returns the stop function.
 */
export function watchLive<T>(installationId: number, select: (inst: LiveView | undefined) => T, onChange: (next: T) => void): () => void {
  return watchStorePart(live, (s) => select(installationOf(s, installationId)), onChange)
}

/**
 * A component's narrow view of an installation's live state: re-renders its caller
 * only when what `select` picks changes, each tile on its own topic, as a transition
 * (client/components/use-store-part.ts). `select` as for {@link watchLive}; it may be a new function
 * on every render.
 */
export function useLive<T>(installationId: number, select: (inst: LiveView | undefined) => T): T {
  return useStorePart(live, (s) => select(installationOf(s, installationId)), installationId)
}

/** One topic's slot (data, loaded, state, updatedAt) of an installation, or undefined before it exists. */
export function useTopic<K extends Topic>(installationId: number, topic: K): Snapshot<TopicSlot<TopicData[K]>> | undefined {
  return useLive(installationId, (inst) => inst?.topics[topic] as Snapshot<TopicSlot<TopicData[K]>> | undefined)
}
