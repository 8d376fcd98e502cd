import { startTransition, useEffect, useState } from 'react'
import { snapshot, subscribe } from 'valtio/vanilla'
import { live } from './store.ts'
import type { InstallationLive } from './store.ts'

function read(key: string): InstallationLive | undefined {
  return snapshot(live).installations[key] as InstallationLive | undefined
}

/**
 * An installation's live state (a frozen valtio snapshot; undefined before the store knows it) for
 * pages that render most of it, re-rendered on each change as a React transition.
 *
 * Why not `useSnapshot(live)`: valtio reads the store through useSyncExternalStore, whose updates React
 * always renders synchronously, so every live event (five snapshots as the stream opens, then a patch
 * per poll) re-rendered the whole Power page in one blocking task: on a phone these were the long tasks
 * of Lighthouse's blocking time (issue 11 §6, docs/performance.md). A transition renders in slices that
 * yield to input and paint. An unchanged installation keeps its snapshot object, so other
 * installations' events render nothing.
 */
export function useLiveInstallation(installationId: number): InstallationLive | undefined {
  const key = String(installationId)
  const [state, setState] = useState(() => ({ key, inst: read(key) }))
  useEffect(() => {
    // The store may have changed between the first render and this effect (restoreLive, an event).
    setState({ key, inst: read(key) })
    return subscribe(live, () => {
      const inst = read(key)
      startTransition(() => setState((prev) => (prev.key === key && prev.inst === inst ? prev : { key, inst })))
    })
  }, [key])
  // Another installation's page: never show the previous one's state for a render.
  return state.key === key ? state.inst : read(key)
}
