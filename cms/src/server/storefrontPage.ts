import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

import type { RequestHandler } from 'express'
import type { Payload } from 'payload'

import { getLandingHero } from '../operations/content/siteContent'
import type { Catalogue } from '../operations/products/catalogue'
import type { Logger } from './logger'

/** Vite's build manifest (storefront/dist/.vite/manifest.json), the parts read here. */
type Manifest = Record<
  string,
  { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }
>

type Hints = {
  /** Source module of the screen, as the manifest names it. */
  module: string
  /** Answers the screen asks for first, as the API's JSON text, keyed by API path (SWR keys). */
  answers: Record<string, string>
  /** An image the screen shows large at once (the product's cover). */
  image?: string
}

type PageSettings = { payload: Payload; catalogue: Catalogue }

/**
 * The public pages (spec section 2): the information site, the store and its products. They
 * show only what the shop publishes, and they open without Cross-Origin-Opener-Policy, so a
 * phone does not start a new renderer process for a visitor's first page (decision 017). Every
 * other page (checkout, pay, an order, the admin area, the CMS) keeps `same-origin`.
 */
const PUBLIC_PAGE = /^\/(?:papers|proofs|updates|legal|wallet-info|store|product\/[^/]+)?$/

/**
 * The query a public page is asked for again with when another site opened its window
 * (storefront/src/lib/opener.ts): that answer carries the policy, which closes the other
 * site's hold on the window.
 */
export const ISOLATE_PARAM = 'isolate'

/**
 * The shopper's three first screens and what each needs for its first paint. Without hints a
 * phone fetches the entry, then the screen's chunk, then its data, one after the other: the
 * landing's largest text paints at 2.6 s in Lighthouse's mobile run.
 */
async function hintsFor(
  pathname: string,
  { payload, catalogue }: PageSettings,
): Promise<Hints | null> {
  if (pathname === '/')
    return {
      module: 'src/features/landing/routes/Landing.tsx',
      answers: { '/api/content/landing-hero': JSON.stringify(await getLandingHero({ payload })) },
    } satisfies Hints
  if (pathname === '/store')
    return {
      module: 'src/features/store/routes/Store.tsx',
      // The catalogue's cached bytes as they are: no parse and no stringify per page.
      answers: { '/api/products': (await catalogue.list()).body.toString('utf8') },
    } satisfies Hints
  const product = /^\/product\/([^/]+)$/.exec(pathname)
  if (product) {
    let id: string
    try {
      id = decodeURIComponent(product[1]!)
    } catch {
      return null
    }
    const cached = (await catalogue.product(id))?.body.toString('utf8')
    const cover = cached
      ? (JSON.parse(cached) as { coverImageUrl?: string | null }).coverImageUrl
      : null
    return {
      module: 'src/features/store/routes/Product.tsx',
      answers: cached ? { [`/api/products/${encodeURIComponent(id)}`]: cached } : {},
      ...(cover?.startsWith('/') ? { image: cover } : {}),
    } satisfies Hints
  }
  return null
}

/** The storefront's renderer (storefront/src/entry-server.tsx, built into dist-server/). */
type Renderer = {
  render: (
    url: string,
    answers: Record<string, unknown>,
  ) => Promise<{ html: string; title: string | null; head: string }>
}
type Drawn = Awaited<ReturnType<Renderer['render']>>

/** Pages drawn, by path and answers: a page is drawn again only when its answers change. */
const DRAWN_PAGES_KEPT = 200
/** The type of an inlined stylesheet's link: not CSS, so no browser fetches it. */
const INLINED_TYPE = 'text/x-inlined-css'

const attr = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;')

/** The screen's chunk and everything it imports (not the entry, which the page loads anyway). */
function filesOf(manifest: Manifest, key: string) {
  const scripts: string[] = []
  const styles: string[] = []
  const seen = new Set<string>()
  const visit = (name: string) => {
    const chunk = manifest[name]
    if (!chunk || seen.has(name) || chunk.isEntry) return
    seen.add(name)
    scripts.push(chunk.file)
    styles.push(...(chunk.css ?? []))
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  visit(key)
  return { scripts, styles }
}

/**
 * The storefront's page (index.html) for any path the SPA draws, with, for the landing page, the
 * store and a product page, what their first paint needs named in the page itself: the screen's
 * chunk and stylesheet (modulepreload, stylesheet), a product's cover (preload), the first
 * answers inline as JSON (`#shop-data`, read by the storefront's SWR as fallback data), and the
 * screen itself drawn from those answers by the storefront's renderer (decision 015), which the
 * browser's React then takes over. Anything missing (no build in development, a failing read or
 * render) leaves the plain page, which the browser draws.
 */
export function storefrontPage({
  storefrontDir,
  payload,
  catalogue,
  logger,
}: PageSettings & { storefrontDir: string; logger: Logger }): RequestHandler {
  const indexHtml = path.join(storefrontDir, 'index.html')
  const manifestFile = path.join(storefrontDir, '.vite/manifest.json')
  const rendererFile = path.join(storefrontDir, '../dist-server/entry-server.js')
  type Loaded = {
    at: number
    html: string
    manifest: Manifest | null
    files: Map<string, ReturnType<typeof filesOf>>
    renderer: Promise<Renderer | null>
    drawn: Map<string, Promise<Drawn>>
    /** Built stylesheets' text by file, or null for one that cannot go inline. */
    css: Map<string, string | null>
  }
  let loaded: Loaded | null = null
  /** The page and manifest, read again only when a build replaced them (one stat a request). */
  const load = (): Loaded | null => {
    const at = fs.statSync(indexHtml, { throwIfNoEntry: false })?.mtimeMs
    if (at === undefined) return null
    if (loaded?.at !== at) {
      const manifest = fs.existsSync(manifestFile)
        ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest)
        : null
      loaded = {
        at,
        html: fs.readFileSync(indexHtml, 'utf8'),
        manifest,
        files: new Map(),
        renderer: loadRenderer(),
        drawn: new Map(),
        css: new Map(),
      }
    }
    return loaded
  }
  /** Loaded on the first page that needs it, again after a build (a new page, a new renderer). */
  const loadRenderer = async (): Promise<Renderer | null> => {
    if (!fs.existsSync(rendererFile)) return null
    const url = pathToFileURL(rendererFile)
    url.search = `?at=${fs.statSync(rendererFile).mtimeMs}`
    try {
      return (await import(/* @vite-ignore */ url.href)) as Renderer
    } catch (error) {
      logger.warn(
        { err: error },
        'the storefront renderer did not load; pages are drawn by browsers',
      )
      return null
    }
  }
  /** The screen drawn once per path and answers; past the limit the oldest drawing goes. */
  const draw = async (page: Loaded, url: string, answersText: string): Promise<Drawn | null> => {
    const renderer = await page.renderer
    if (!renderer) return null
    const key = `${url}\n${answersText}`
    let drawn = page.drawn.get(key)
    if (!drawn) {
      drawn = renderer.render(url, JSON.parse(answersText) as Record<string, unknown>)
      page.drawn.set(key, drawn)
      drawn.catch(() => page.drawn.delete(key))
      if (page.drawn.size > DRAWN_PAGES_KEPT) page.drawn.delete(page.drawn.keys().next().value!)
    }
    return drawn
  }

  /**
   * A drawn page's stylesheet, inline: the phone paints without asking for it first. The link
   * stays, never fetched, because the storefront's loader skips a screen's stylesheet that the
   * page already links and would otherwise fetch it again and wait for it: `disabled`, and a
   * type that is not CSS (Chromium 150 fetches a disabled stylesheet; no browser fetches one of
   * a styling language it does not know).
   * A sheet with relative `url()`s stays a plain link (they would resolve against the page).
   */
  const styleOf = (page: Loaded, file: string, inline: boolean) => {
    const link = `<link rel="stylesheet" href="/${attr(file)}"`
    if (!inline) return `${link}>`
    if (!page.css.has(file)) {
      const text = fs.readFileSync(path.join(storefrontDir, file), 'utf8')
      const safe = !/<\/style/i.test(text) && !/url\((?!\s*["']?data:)/i.test(text)
      page.css.set(file, safe ? text : null)
    }
    const text = page.css.get(file)
    return text === null
      ? `${link}>`
      : `<style>${text}</style>${link} type="${INLINED_TYPE}" disabled>`
  }

  return async (req, res) => {
    if (PUBLIC_PAGE.test(req.path) && req.query[ISOLATE_PARAM] === undefined)
      res.removeHeader('Cross-Origin-Opener-Policy')
    const page = load()
    if (!page) {
      res
        .status(503)
        .type('text/plain')
        .send('The storefront is not built yet: run `npm run build`.')
      return
    }
    const { html, manifest, files } = page
    let head = ''
    let styles: string[] = []
    let drawn: Drawn | null = null
    try {
      const hints = manifest ? await hintsFor(req.path, { payload, catalogue }) : null
      if (hints && manifest) {
        if (!files.has(hints.module)) files.set(hints.module, filesOf(manifest, hints.module))
        const screen = files.get(hints.module)!
        styles = screen.styles
        head += screen.scripts
          .map((file) => `<link rel="modulepreload" href="/${attr(file)}">`)
          .join('')
        const answers = Object.entries(hints.answers)
        if (answers.length > 0) {
          const answersText = `{${answers
            .map(([key, text]) => `${JSON.stringify(key)}:${text}`)
            .join(',')
            .replace(/</g, '\\u003c')}}`
          head += `<script id="shop-data" type="application/json">${answersText}</script>`
          drawn = await draw(page, req.path, answersText)
        }
        // A drawn page names its cover itself (drawn.head); a page left to the browser here.
        if (drawn) head += drawn.head
        else if (hints.image)
          head += `<link rel="preload" as="image" href="${attr(hints.image)}" fetchpriority="high">`
      }
    } catch (error) {
      logger.warn({ err: error, path: req.path }, 'page hints failed; serving the plain page')
      head = ''
      styles = []
      drawn = null
    }
    let body = html
    let sheets: string
    try {
      sheets = styles.map((file) => styleOf(page, file, !!drawn)).join('')
      if (drawn)
        body = html.replace(
          /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g,
          (_, file: string) => styleOf(page, file, true),
        )
    } catch (error) {
      // A stylesheet that cannot be read: the page links them all.
      logger.warn({ err: error, path: req.path }, 'inline styles failed; linking them')
      body = html
      sheets = styles.map((file) => styleOf(page, file, false)).join('')
    }
    head = sheets + head
    // Replaced by functions: a `$&` in a book's text is text, not a replacement pattern.
    if (head) body = body.replace('</head>', () => `${head}</head>`)
    if (drawn) {
      const { html: markup, title } = drawn
      body = body.replace('<div id="root"></div>', () => `<div id="root">${markup}</div>`)
      if (title) body = body.replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
    }
    res.setHeader('Cache-Control', 'no-cache')
    res.type('html').send(body)
  }
}
