import './zod-csp.ts'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import './styles.css'
import { firstPaintNamespaces, initI18n } from './i18n/index.ts'
import { watchOtherTabs } from './session/session.ts'
import { App } from './app/app.tsx'
import { QueryClientProvider } from '@tanstack/react-query'
import { queryClient } from './api/query.ts'

// Render once the active language is loaded, so the first paint is already translated (with the
// route's own texts where it paints before its chunk: Power, issue 11).
await initI18n(firstPaintNamespaces(location.pathname))
watchOtherTabs()

const root = document.getElementById('root')
if (!root) throw new Error('#root missing in index.html')
const app = (
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>
)
const reactRoot = createRoot(root)
// The prerendered login page (config/vite.config.ts loginShells) is already on screen: its first render
// runs as a transition, in slices that yield to the browser, instead of one task (issue 11: Login's
// blocking time; docs/decisions.md). The screen stays until React commits. Other routes paint from
// React itself and keep the default (blocking) render.
if (root.hasChildNodes()) startTransition(() => reactRoot.render(app))
else reactRoot.render(app)

// The service worker (issue 15 §3, config/vite.config.ts pwa()): app shell cache and offline screen.
// Registered after the page has loaded so its precaching never competes with the first paint.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined)
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
