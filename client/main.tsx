import './zod-csp.ts'
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './styles.css'
import { firstPaintNamespaces, initI18n, initialLanguage } from './i18n/index.ts'
import { intlWarmupFor } from './app/intl-warmup.ts'
import { afterFirstPaint } from './app/first-paint.ts'
import { DEFAULT_TIMEZONE } from '../config/defaults.ts'
import { watchOtherTabs } from './session/session.ts'
import { followUserLanguage } from './session/language.ts'
import { App } from './app/app.tsx'
import { QueryClientProvider } from '@tanstack/react-query'
import { queryClient } from './api/query.ts'
import { syncServerClock } from './api/clock.ts'

// ICU's locale and zone data, loaded in a worker while the page starts (client/app/intl-warmup.ts):
// Power's first figures then build their Intl formatters in well under a millisecond.
// After the first paint, which no request should precede (client/app/first-paint.ts).
if (typeof Worker !== 'undefined') {
  void afterFirstPaint().then(() => {
    try {
      const worker = new Worker(new URL('./app/intl-worker.ts', import.meta.url), { type: 'module' })
      worker.onmessage = () => worker.terminate()
      worker.onerror = () => worker.terminate()
      worker.postMessage(intlWarmupFor(initialLanguage(), DEFAULT_TIMEZONE))
    } catch {
      // no worker: the formatters cost what they cost
    }
  })
}

// The server's clock (client/api/clock.ts): a server started at CLOCK_START shows its facility at that
// time, and a device whose clock is off still labels data's age right. After the first paint, as above.
void afterFirstPaint().then(() => syncServerClock())

// Render once the active language is loaded, so the first paint is already translated (with the
// route's own texts where it paints before its chunk: Power).
await initI18n(firstPaintNamespaces(location.pathname))
watchOtherTabs()
// Signed in, the account's saved language is the UI's (client/session/language.ts).
followUserLanguage()

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
// Every first render is a transition (docs/decisions.md): React renders it in slices that
// yield to the browser, instead of one long task (a default-priority render is never sliced). On the
// prerendered login page (config/vite.config.ts loginShells) the screen stays until React commits;
// on Power the first screen was a 300–700 ms task on a throttled phone, and its first paint did not
// come later in slices (docs/performance.md, webperf4).
startTransition(() => reactRoot.render(app))

// The service worker (config/vite.config.ts pwa()): app shell cache and offline screen.
// Registered after the page has loaded so its precaching never competes with the first paint.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined)
  if (document.readyState === 'complete') register()
  else window.addEventListener('load', register, { once: true })
}
