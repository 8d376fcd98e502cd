import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './styles.css'
import { initI18n } from './i18n/index.ts'
import { watchOtherTabs } from './session/session.ts'
import { App } from './app/app.tsx'

// Render once the active language is loaded, so the first paint is already translated.
await initI18n()
watchOtherTabs()

const root = document.getElementById('root')
if (!root) throw new Error('#root missing in index.html')
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
