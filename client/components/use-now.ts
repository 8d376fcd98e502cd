import { useSyncExternalStore } from 'react'

// One shared 1-second clock for every "updated … ago" label, so they tick together.
const listeners = new Set<() => void>()
let now = Date.now()
let timer: ReturnType<typeof setInterval> | null = null

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  if (timer === null) {
    now = Date.now()
    timer = setInterval(() => {
      now = Date.now()
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

/** The current time in ms, re-rendering the caller every second. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now)
}
