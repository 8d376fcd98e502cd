import { startTransition, useEffect, useState } from 'react'

let painted: Promise<void> | null = null

/** Latest wait for the first paint, should the browser never report one (ms). */
export const FIRST_PAINT_WAIT_MS = 1500

/**
 * Resolves once the page has painted its first content: a `first-contentful-paint` entry (reported
 * with the frame's presentation), at once for a hidden page or a browser without paint timing, after
 * {@link FIRST_PAINT_WAIT_MS} at the latest. One promise for the page's life.
 *
 * Why (Power's LCP): the API reads and the live ticket started in the effects of the first
 * render, before that frame was shown, and Lighthouse's simulation counts every request begun before
 * the first paint into it (FCP 2.0 s, LCP 2.1–2.6 s on a phone). Started after it, they cost the page
 * one frame.
 */
export function afterFirstPaint(): Promise<void> {
  painted ??= new Promise<void>((resolve) => {
    try {
      if (document.visibilityState === 'hidden') return resolve()
      if (!(PerformanceObserver.supportedEntryTypes ?? []).includes('paint')) return resolve()
      if (performance.getEntriesByName('first-contentful-paint').length > 0) return resolve()
      const observer = new PerformanceObserver((list) => {
        if (list.getEntriesByName('first-contentful-paint').length === 0) return
        observer.disconnect()
        resolve()
      })
      observer.observe({ type: 'paint', buffered: true })
      setTimeout(resolve, FIRST_PAINT_WAIT_MS)
      document.addEventListener('visibilitychange', () => resolve(), { once: true })
    } catch {
      resolve()
    }
  })
  return painted
}

/** False until {@link afterFirstPaint} has resolved (then true, set in a transition). */
export function useAfterFirstPaint(): boolean {
  const [done, setDone] = useState(false)
  useEffect(() => {
    let mounted = true
    void afterFirstPaint().then(() => {
      if (mounted) startTransition(() => setDone(true))
    })
    return () => {
      mounted = false
    }
  }, [])
  return done
}
