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
  /** Answers the screen asks for first, as the API's JSON text, keyed by API path (SWR keys). */
  answers: Record<string, string>
  /** An image the screen shows large at once (the product's cover). */
  image?: string
}

type PageSettings = { payload: Payload; catalogue: Catalogue }

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
  type Loaded = {
    at: number
    html: string
    manifest: Manifest | null
    files: Map<string, ReturnType<typeof filesOf>>
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
      loaded = { at, html: fs.readFileSync(indexHtml, 'utf8'), manifest, files: new Map() }
    }
    return loaded
  }

  return async (req, res) => {
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
    try {
      const hints = manifest ? await hintsFor(req.path, { payload, catalogue }) : null
      if (hints && manifest) {
        if (!files.has(hints.module)) files.set(hints.module, filesOf(manifest, hints.module))
        const { scripts, styles } = files.get(hints.module)!
        head += styles.map((file) => `<link rel="stylesheet" href="/${attr(file)}">`).join('')
        head += scripts.map((file) => `<link rel="modulepreload" href="/${attr(file)}">`).join('')
        if (hints.image)
          head += `<link rel="preload" as="image" href="${attr(hints.image)}" fetchpriority="high">`
        const answers = Object.entries(hints.answers)
        if (answers.length > 0)
          head += `<script id="shop-data" type="application/json">{${answers
            .map(([key, text]) => `${JSON.stringify(key)}:${text}`)
            .join(',')
            .replace(/</g, '\\u003c')}}</script>`
      }
    } catch (error) {
      logger.warn({ err: error, path: req.path }, 'page hints failed; serving the plain page')
      head = ''
    }
    res.setHeader('Cache-Control', 'no-cache')
    res.type('html').send(head ? html.replace('</head>', `${head}</head>`) : html)
  }
}
