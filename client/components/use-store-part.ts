import { startTransition, useEffect, useRef, useState } from 'react'
import { snapshot, subscribe } from 'valtio/vanilla'
import type { Snapshot } from 'valtio/vanilla'

/**
 * Call `onChange(next)` whenever the part of valtio store `store` that `select` picks changes
 * (compared with Object.is), and only then: a change elsewhere in the store reaches no watcher of this
 * part (a live metrics patch re-rendered the station list, the user's arrival the whole
 * shell). Changes made in one task come as one call (valtio batches them). `select` must return a
 * primitive or a part of the snapshot (valtio shares unchanged parts between snapshots), never a new
 * object. Returns the stop function.
 */
export function watchStorePart<S extends object, T>(store: S, select: (s: Snapshot<S>) => T, onChange: (next: T) => void): () => void {
  let current = select(snapshot(store))
  return subscribe(store, () => {
    const next = select(snapshot(store))
    if (Object.is(next, current)) return
    current = next
    onChange(next)
  })
}

/**
 * A component's narrow view of a valtio store: re-renders its caller only when what `select` picks
 * changes ({@link watchStorePart}). Unlike valtio's useSnapshot (useSyncExternalStore, whose updates
 * React always renders synchronously, in one task) the update is a transition, rendered in slices
 * between other work (Power's blocking time); until it commits the caller shows the previous
 * value. `select` may be a new function on every render; when `key` changes (another installation in
 * the same component) the caller gets the new key's part at once, not the previous one's.
 */
export function useStorePart<S extends object, T>(store: S, select: (s: Snapshot<S>) => T, key: unknown = null): T {
  const selectRef = useRef(select)
  selectRef.current = select
  const [state, setState] = useState(() => ({ key, value: select(snapshot(store)) }))
  useEffect(() => {
    const pick = (s: Snapshot<S>) => selectRef.current(s)
    const apply = (value: T) => startTransition(() => setState((s) => (Object.is(s.key, key) && Object.is(s.value, value) ? s : { key, value })))
    // A change between this render and the subscription is not lost.
    apply(pick(snapshot(store)))
    return watchStorePart(store, pick, apply)
  }, [store, key])
  return Object.is(state.key, key) ? state.value : select(snapshot(store))
}
