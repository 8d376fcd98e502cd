import type { Snapshot } from 'valtio/vanilla'
import { session } from './session.ts'
import type { SessionState } from './session.ts'
import { useStorePart, watchStorePart } from '../components/use-store-part.ts'

/** A read-only view of the session store, as a selector of {@link useSession} gets it. */
export type SessionView = Snapshot<SessionState>

/**
 * Call `onChange(next)` whenever the part of the session that `select` picks changes, and only then
 * (client/components/use-store-part.ts): the user's arrival does not reach a watcher of the
 * installation list. Returns the stop function.
 */
export function watchSession<T>(select: (s: SessionView) => T, onChange: (next: T) => void): () => void {
  return watchStorePart(session, select, onChange)
}

/**
 * A component's view of one part of the session store (Power's blocking time), instead of
 * valtio's useSnapshot: the installation list's arrival rendered the shell, the sidebar and the whole
 * page in one synchronous task (100–450 ms on a throttled phone). Here only a caller whose part changed
 * renders again, as a transition (client/components/use-store-part.ts).
 */
export function useSession<T>(select: (s: SessionView) => T): T {
  return useStorePart(session, select)
}
