import { StrictMode } from 'react'
import { prerenderToNodeStream } from 'react-dom/static'
import { StaticRouter } from 'react-router-dom'

import { AppProvider } from './app/provider'
import { AppRoutes } from './app/router'

/**
 * The storefront drawn by the web process (cms/src/server/storefrontPage.ts) for the first
 * screens a shopper lands on, from the same answers the page carries for the browser: the
 * phone paints the page as soon as its HTML and stylesheet arrive, before any JavaScript, and
 * React takes the HTML over (`hydrateRoot` in main.tsx). Built with `vite build --ssr` into
 * dist-server/, which the web process loads; never sent to browsers.
 *
 * `prerender` waits for the lazily loaded screen, so the HTML holds the screen itself, not the
 * loading placeholder. Returns the markup for #root apart from what React writes before it for
 * the page's head: the screen's <title>, and the preloads of what it shows first (a product's
 * cover).
 */
export async function render(
  url: string,
  answers: Record<string, unknown>,
): Promise<{ html: string; title: string | null; head: string }> {
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <AppProvider answers={answers}>
        <StaticRouter location={url}>
          <AppRoutes />
        </StaticRouter>
      </AppProvider>
    </StrictMode>,
  )
  let markup = ''
  for await (const chunk of prelude) markup += String(chunk)
  const hoisted = /^(?:<title>[^<]*<\/title>|<link [^>]*\/>|<meta [^>]*\/>)*/.exec(markup)![0]
  const title = /<title>([^<]*)<\/title>/.exec(hoisted)
  return {
    html: markup.slice(hoisted.length),
    title: title ? title[1]! : null,
    head: title ? hoisted.replace(title[0], '') : hoisted,
  }
}
