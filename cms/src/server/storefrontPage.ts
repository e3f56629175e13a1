import fs from 'node:fs'
import path from 'node:path'

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
  /** Answers the screen asks for first, keyed by their API path (its SWR keys). */
  answers: Record<string, unknown>
  /** An image the screen shows large at once (the product's cover). */
  image?: string
}

type PageSettings = { payload: Payload; catalogue: Catalogue }

const json = (body: Buffer) => JSON.parse(body.toString('utf8')) as unknown

/**
 * The shopper's three first screens and what each needs for its first paint. Without hints a
 * phone fetched the entry, then the screen's chunk, then its data, one after the other: the
 * landing's largest text painted at 2.6 s in Lighthouse's mobile run (issue 18).
 */
async function hintsFor(
  pathname: string,
  { payload, catalogue }: PageSettings,
): Promise<Hints | null> {
  if (pathname === '/')
    return {
      module: 'src/features/landing/routes/Landing.tsx',
      answers: { '/api/content/landing-hero': await getLandingHero({ payload }) },
    } satisfies Hints
  if (pathname === '/store')
    return {
      module: 'src/features/store/routes/Store.tsx',
      answers: { '/api/products': json((await catalogue.list()).body) },
    } satisfies Hints
  const product = /^\/product\/([^/]+)$/.exec(pathname)
  if (product) {
    let id: string
    try {
      id = decodeURIComponent(product[1]!)
    } catch {
      return null
    }
    const cached = await catalogue.product(id)
    const found = cached ? (json(cached.body) as { coverImageUrl?: string | null }) : null
    return {
      module: 'src/features/store/routes/Product.tsx',
      answers: found ? { [`/api/products/${encodeURIComponent(id)}`]: found } : {},
      ...(found?.coverImageUrl?.startsWith('/') ? { image: found.coverImageUrl } : {}),
    } satisfies Hints
  }
  return null
}

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
 * chunk and stylesheet (modulepreload, stylesheet), a product's cover (preload), and the first
 * answers inline as JSON (`#shop-data`, read by the storefront's SWR as fallback data). Anything
 * missing (no manifest in development, a failing read) leaves the plain page.
 */
export function storefrontPage({
  storefrontDir,
  payload,
  catalogue,
  logger,
}: PageSettings & { storefrontDir: string; logger: Logger }): RequestHandler {
  const indexHtml = path.join(storefrontDir, 'index.html')
  const manifestFile = path.join(storefrontDir, '.vite/manifest.json')
  let loaded: { at: number; html: string; manifest: Manifest | null } | null = null
  const load = () => {
    const at = fs.statSync(indexHtml).mtimeMs
    if (loaded?.at !== at) {
      const manifest = fs.existsSync(manifestFile)
        ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest)
        : null
      loaded = { at, html: fs.readFileSync(indexHtml, 'utf8'), manifest }
    }
    return loaded
  }

  return async (req, res) => {
    if (!fs.existsSync(indexHtml)) {
      res
        .status(503)
        .type('text/plain')
        .send('The storefront is not built yet: run `npm run build`.')
      return
    }
    const { html, manifest } = load()
    let head = ''
    try {
      const hints = manifest ? await hintsFor(req.path, { payload, catalogue }) : null
      if (hints && manifest) {
        const { scripts, styles } = filesOf(manifest, hints.module)
        head += styles.map((file) => `<link rel="stylesheet" href="/${attr(file)}">`).join('')
        head += scripts.map((file) => `<link rel="modulepreload" href="/${attr(file)}">`).join('')
        if (hints.image)
          head += `<link rel="preload" as="image" href="${attr(hints.image)}" fetchpriority="high">`
        if (Object.keys(hints.answers).length > 0)
          head += `<script id="shop-data" type="application/json">${JSON.stringify(
            hints.answers,
          ).replace(/</g, '\\u003c')}</script>`
      }
    } catch (error) {
      logger.warn({ err: error, path: req.path }, 'page hints failed; serving the plain page')
      head = ''
    }
    res.setHeader('Cache-Control', 'no-cache')
    res.type('html').send(head ? html.replace('</head>', `${head}</head>`) : html)
  }
}
