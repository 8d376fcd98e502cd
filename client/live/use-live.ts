import { startTransition, useEffect, useRef, useState } from 'react'
import { snapshot, subscribe } from 'valtio/vanilla'
import type { Snapshot } from 'valtio/vanilla'
import type { Topic } from '../../shared/live-protocol.ts'
import { live } from './store.ts'
import type { InstallationLive, TopicSlot, TopicData } from './store.ts'

/** A read-only view of one installation's live state, as a selector of {@link useLive} gets it. */
export type LiveView = Snapshot<InstallationLive>

/**
 * The part of one installation's live state that `select` picks, read from the store's current
 * snapshot. valtio shares unchanged parts between snapshots, so a part that did not change is the
 * same object as before: what {@link watchLive} compares.
 */
export function readLive<T>(installationId: number, select: (inst: LiveView | undefined) => T): T {
  return select(snapshot(live).installations[String(installationId)] as LiveView | undefined)
}

/**
 * Call `onChange(next)` whenever the part of an installation's live state that `select` picks
 * changes (compared with Object.is), and only then: a metrics patch does not reach a watcher of the
 * stations (issue 11: every live event re-rendered the whole Power page). Changes that arrive in one
 * task come as one call (valtio batches them). `select` must return a primitive or a part of the
 * snapshot, never a new object. Returns the stop function.
 */
export function watchLive<T>(installationId: number, select: (inst: LiveView | undefined) => T, onChange: (next: T) => void): () => void {
  let current = readLive(installationId, select)
  return subscribe(live, () => {
    const next = readLive(installationId, select)
    if (Object.is(next, current)) return
    current = next
    onChange(next)
  })
}

/**
 * A component's narrow view of an installation's live state (issue 11 §1): re-renders its caller
 * only when what `select` picks changes, each tile on its own topic. Unlike valtio's useSnapshot
 * (useSyncExternalStore, always a synchronous render), the update is a transition: React renders it
 * in slices between other work, so a burst of live events never blocks the page for long.
 * `select` as for {@link watchLive}; it may be a new function on every render.
 */
export function useLive<T>(installationId: number, select: (inst: LiveView | undefined) => T): T {
  const selectRef = useRef(select)
  selectRef.current = select
  const [state, setState] = useState(() => ({ installationId, value: readLive(installationId, select) }))
  useEffect(() => {
    const pick = (inst: LiveView | undefined) => selectRef.current(inst)
    const apply = (value: T) => startTransition(() => setState((s) => (s.installationId === installationId && Object.is(s.value, value) ? s : { installationId, value })))
    // A change between this render and the subscription is not lost.
    apply(readLive(installationId, pick))
    return watchLive(installationId, pick, apply)
  }, [installationId])
  // Another installation in the same component: its state at once, not the previous one's.
  return state.installationId === installationId ? state.value : readLive(installationId, select)
}

/** One topic's slot (data, loaded, state, updatedAt) of an installation, or undefined before it exists. */
export function useTopic<K extends Topic>(installationId: number, topic: K): Snapshot<TopicSlot<TopicData[K]>> | undefined {
  return useLive(installationId, (inst) => inst?.topics[topic] as Snapshot<TopicSlot<TopicData[K]>> | undefined)
}
