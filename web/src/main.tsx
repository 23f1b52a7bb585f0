import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import './index.css'
import '@/i18n'
import { applyTheme } from '@/lib/theme'
import { isSupportedBrowser } from '@/lib/browser'
import { reloadForChunkError } from '@/app/error-screens'
import { App, makeApp } from '@/app/app'

applyTheme()

// Unsupported browsers see /unsupported (spec 000 §2.1).
if (!isSupportedBrowser(navigator.userAgent) && location.pathname !== '/unsupported') {
  history.replaceState(null, '', '/unsupported')
}

// A lazily loaded chunk that fails to load (a new deployment replaced it)
// reloads the page (spec 000 §8).
window.addEventListener('vite:preloadError', (e) => {
  if (reloadForChunkError()) e.preventDefault()
})

const app = makeApp()
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App app={app} />
  </StrictMode>,
)
