import { useEffect, useRef, useState } from 'react'

/**
 * Focus and announcement after an in-app link (WCAG 2.4.3 Focus Order, 4.1.3 Status Messages): a link
 * the user followed (sidebar or page, not a tab of a tab list) moves focus to the new page's `main`, so
 * the next Tab continues in the page and not back in the menu, and the page's heading is announced
 * politely once it is shown. Navigation the user did not start (a redirect, the browser's Back) keeps
 * the browser's own focus.
 *
 * `location` is the router's path; `mainId` the id of the focusable (tabIndex -1) `main`.
 * Returns the text for a polite live region: the new page's first h1.
 */
export function usePageFocus(location: string, mainId: string): string {
  const [announced, setAnnounced] = useState('')
  const followedRef = useRef<{ from: string; heading: Element | null } | null>(null)

  useEffect(() => {
    const onClick = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest?.('a[href^="/"]')
      if (link && !link.closest('[role="tablist"]')) followedRef.current = { from: window.location.pathname, heading: document.querySelector(`#${mainId} h1`) }
    }
    document.addEventListener('click', onClick, true)
    return () => document.removeEventListener('click', onClick, true)
  }, [mainId])

  useEffect(() => {
    const followed = followedRef.current
    if (!followed || followed.from === location) return
    followedRef.current = null
    const main = document.getElementById(mainId)
    if (!main) return
    main.focus({ preventScroll: true })
    // The page's chunk and data may come after the route (the old page stays until then): announce
    // the new page's heading when it is there.
    const announce = () => {
      const heading = main.querySelector('h1')
      if (!heading?.textContent || heading === followed.heading) return false
      setAnnounced(heading.textContent)
      return true
    }
    if (announce()) return
    const observer = new MutationObserver(() => announce() && observer.disconnect())
    observer.observe(main, { childList: true, subtree: true, characterData: true })
    const stop = window.setTimeout(() => observer.disconnect(), 10_000)
    return () => {
      observer.disconnect()
      window.clearTimeout(stop)
    }
  }, [location, mainId])

  return announced
}
