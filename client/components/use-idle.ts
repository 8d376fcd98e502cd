import { useEffect, useState } from 'react'

/**
 * False until the browser has had an idle moment after the component mounted (requestIdleCallback,
 * at most `timeoutMs` later; a plain timeout where the browser lacks it), true from then on. For work
 * that must not compete with the figures just painted (Power's chart library, 165 KB, and
 * its first drawing waited for nothing but the tile nearing the viewport, at once on a phone).
 */
export function useIdle(timeoutMs = 2000): boolean {
  const [idle, setIdle] = useState(false)
  useEffect(() => {
    if (idle) return
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(() => setIdle(true), { timeout: timeoutMs })
      return () => cancelIdleCallback(handle)
    }
    const handle = setTimeout(() => setIdle(true), Math.min(timeoutMs, 200))
    return () => clearTimeout(handle)
  }, [idle, timeoutMs])
  return idle
}
