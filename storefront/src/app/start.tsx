import { StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'

import { App } from './App'

/**
 * Starts React on the page's root: takes over the HTML the server drew (the landing page, the
 * store, a product page: entry-server.tsx) or draws the page itself.
 */
export function start(root: HTMLElement) {
  const app = (
    <StrictMode>
      <App />
    </StrictMode>
  )
  if (root.firstElementChild) hydrateRoot(root, app)
  else createRoot(root).render(app)
}
