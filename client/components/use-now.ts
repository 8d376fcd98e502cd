import { useEffect, useState } from 'react'
import { clientNow } from '../api/clock.ts'

// One shared 1-second clock for every "updated … ago" label, so they tick together.
const listeners = new Set<() => void>()
let now = clientNow()
let timer: ReturnType<typeof setInterval> | null = null

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (timer === null) {
    now = clientNow()
    timer = setInterval(() => {
      now = clientNow()
      for (const l of listeners) l()
    }, 1000)
  }
  return () => {
    listeners.delete(listener)
    if (listeners.size === 0 && timer !== null) {
      clearInterval(timer)
      timer = null
    }
  }
}

/**
 * The current time in ms, re-rendering the caller every second. A state set by the shared clock, not
 * useSyncExternalStore: a store that changes while React renders a transition in slices (Power's tiles,
 * client/live/use-live.ts) makes React throw the slices away and render it all again in one long task;
 * a label a few milliseconds behind the clock is harmless.
 */
export function useNow(): number {
  const [value, setValue] = useState(() => (timer === null ? clientNow() : now))
  useEffect(() => {
    const update = () => setValue(now)
    const unsubscribe = subscribe(update)
    update()
    return unsubscribe
  }, [])
  return value
}
