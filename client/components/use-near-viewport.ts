import { useEffect, useState } from 'react'
import type { RefObject } from 'react'

/**
 * True once the element has come within `margin` (CSS length, e.g. "400px") of the viewport, and from
 * then on. For work below the fold that a phone should not do while the page loads (Power's
 * "last hour" chart, its library and its first drawing). Without IntersectionObserver: true at once.
 */
export function useNearViewport(ref: RefObject<Element | null>, margin = '400px'): boolean {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined')
  useEffect(() => {
    const el = ref.current
    if (near || !el) return
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setNear(true)
          observer.disconnect()
        }
      },
      { rootMargin: `${margin} 0px ${margin} 0px` },
    )
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref, margin, near])
  return near
}
