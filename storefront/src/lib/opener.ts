/**
 * The query the web process answers a public page with Cross-Origin-Opener-Policy for
 * (cms/src/server/storefrontPage.ts, `ISOLATE_PARAM`).
 */
export const ISOLATE_PARAM = 'isolate'

/** Whether another site opened this window with `window.open` and still holds it. */
export function hasForeignOpener(win: Window = window): boolean {
  if (!win.opener) return false
  try {
    return (win.opener as Window).location.origin !== win.location.origin
  } catch {
    // Reading a cross-origin window's location throws.
    return true
  }
}

/**
 * Public pages open without Cross-Origin-Opener-Policy (decision 017). A site that opened one
 * with `window.open` could later send that window elsewhere, say to a look-alike pay page, so
 * the page asks for itself again with `?isolate`: that answer carries the policy, the browser
 * gives the window a browsing context group of its own, and the other site's handle closes.
 * Returns true when the page is being replaced. Back with the marker, the page drops it from
 * the address (and never asks twice: a browser without the policy keeps its opener).
 */
export function isolateFromOpener(win: Window = window): boolean {
  const url = new URL(win.location.href)
  if (url.searchParams.has(ISOLATE_PARAM)) {
    url.searchParams.delete(ISOLATE_PARAM)
    win.history.replaceState(win.history.state, '', url)
    return false
  }
  if (!hasForeignOpener(win)) return false
  url.searchParams.set(ISOLATE_PARAM, '')
  win.location.replace(url)
  return true
}
