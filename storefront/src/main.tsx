import { startTransition, StrictMode } from 'react'
import { createRoot, hydrateRoot } from 'react-dom/client'

import { App } from './app/App'
import { isolateFromOpener } from './lib/opener'
import './styles/global.css'

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element.')
const app = (
  <StrictMode>
    <App />
  </StrictMode>
)
// The landing page, the store and a product page arrive drawn by the web process
// (entry-server.tsx, decision 015): React takes that HTML over, as a transition, so it works in
// short pieces and the phone answers a tap or a scroll between them instead of waiting for the
// whole page. Every other page is drawn here. A public page another site opened is first asked for
// again in a window of its own (lib/opener.ts, decision 017).
if (!isolateFromOpener()) {
  if (root.firstElementChild)
    startTransition(() => {
      hydrateRoot(root, app)
    })
  else createRoot(root).render(app)
}
