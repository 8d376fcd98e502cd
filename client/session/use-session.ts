import { startTransition, useEffect, useRef, useState } from 'react'
import { snapshot, subscribe } from 'valtio/vanilla'
import type { Snapshot } from 'valtio/vanilla'
import { session } from './session.ts'
import type { SessionState } from './session.ts'

/** A read-only view of the session store, as a selector of {@link useSession} gets it. */
export type SessionView = Snapshot<SessionState>

/**
 * Call `onChange(next)` whenever the part of the session that `select` picks changes (compared with
 * Object.is), and only then: the user's arrival does not reach a watcher of the installation list.
 * Changes made in one task come as one call (valtio batches them). `select` must return a primitive
 * or a part of the snapshot (valtio shares unchanged parts between snapshots), never a new object.
 * Returns the stop function.
 */
export function watchSession<T>(select: (s: SessionView) => T, onChange: (next: T) => void): () => void {
  let current = select(snapshot(session))
  return subscribe(session, () => {
    const next = select(snapshot(session))
    if (Object.is(next, current)) return
    current = next
    onChange(next)
  })
}

/**
 * A component's view of one part of the session store (issue 11: Power's blocking time). valtio's
 * useSnapshot is useSyncExternalStore, whose updates React always renders synchronously, in one
 * task: the installation list's arrival rendered the shell, the sidebar and the whole page at once
 * (100–450 ms on a throttled phone). Here the update is a transition, rendered in slices between
 * other work, and only a caller whose part changed renders again. Until that render commits the
 * caller shows the previous value (one frame, at most a few). `select` as for {@link watchSession}.
 */
export function useSession<T>(select: (s: SessionView) => T): T {
  const selectRef = useRef(select)
  selectRef.current = select
  const [value, setValue] = useState(() => select(snapshot(session)))
  useEffect(() => {
    const pick = (s: SessionView) => selectRef.current(s)
    const apply = (next: T) => startTransition(() => setValue((prev) => (Object.is(prev, next) ? prev : next)))
    // A change between the first render and this subscription is not lost.
    apply(pick(snapshot(session)))
    return watchSession(pick, apply)
  }, [])
  return value
}
