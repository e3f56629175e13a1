import fs from 'node:fs'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { fromRoot } from '../../src/config/paths'
import { productIdOf } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/** An inlined stylesheet's link: kept for the loader, never fetched (a type that is not CSS). */
const NOT_FETCHED = 'type="text/x-inlined-css" disabled'

/**
 * The page names the first screen's files and carries its first answers, exactly what the API
 * answers: otherwise a phone fetches the entry, then the screen's chunk, then its data, one after
 * the other (LCP 2.6 s on `/`).
 */

let shop: TestShop
const manifest = JSON.parse(
  fs.readFileSync(fromRoot('storefront/dist/.vite/manifest.json'), 'utf8'),
) as Record<string, { file: string; css?: string[]; imports?: string[]; isEntry?: boolean }>

beforeAll(async () => {
  shop = await startTestShop()
})
afterAll(async () => {
  await shop?.close()
})

const page = async (path: string) => {
  const res = await fetch(`${shop.url}${path}`)
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toMatch(/^text\/html/)
  return res.text()
}
const answersIn = (html: string) => {
  const found = /<script id="shop-data" type="application\/json">([^<]*)<\/script>/.exec(html)
  return found ? (JSON.parse(found[1]!) as Record<string, unknown>) : null
}
const apiJson = async (path: string) => (await fetch(`${shop.url}${path}`)).json()
const screenFiles = (module: string) => manifest[module]!
/** The stylesheets of a screen's chunk and of the chunks it imports (not the entry's). */
const stylesOf = (module: string, seen = new Set<string>()): string[] => {
  const chunk = manifest[module]
  if (!chunk || chunk.isEntry || seen.has(module)) return []
  seen.add(module)
  return [...(chunk.css ?? []), ...(chunk.imports ?? []).flatMap((m) => stylesOf(m, seen))]
}

describe('the storefront page', () => {
  it('for /, preloads the landing screen and carries the hero as the API answers it', async () => {
    const html = await page('/')
    const landing = screenFiles('src/features/landing/routes/Landing.tsx')
    expect(html).toContain(`<link rel="modulepreload" href="/${landing.file}">`)
    const sheets = stylesOf('src/features/landing/routes/Landing.tsx')
    expect(sheets.length).toBeGreaterThan(0)
    // Inline in a drawn page; the links stay for the storefront's loader (below).
    for (const css of sheets)
      expect(html).toContain(`<link rel="stylesheet" href="/${css}" ${NOT_FETCHED}>`)
    expect(answersIn(html)).toEqual({
      '/api/content/landing-hero': await apiJson('/api/content/landing-hero'),
    })
  })

  it('for /store, carries the catalogue as GET /api/products answers it', async () => {
    const html = await page('/store')
    expect(html).toContain(`href="/${screenFiles('src/features/store/routes/Store.tsx').file}"`)
    expect(answersIn(html)).toEqual({ '/api/products': await apiJson('/api/products') })
  })

  it('for a product, carries it and preloads its cover', async () => {
    const id = await productIdOf(shop.payload, 'DIGITAL')
    const product = (await apiJson(`/api/products/${id}`)) as { coverImageUrl: string }
    const html = await page(`/product/${id}`)
    expect(answersIn(html)).toEqual({ [`/api/products/${id}`]: product })
    expect(product.coverImageUrl).toMatch(/^\/media\//)
    expect(html.slice(0, html.indexOf('</head>'))).toMatch(
      new RegExp(
        `<link rel="preload" as="image" href="${product.coverImageUrl}" fetchpriority="high"`,
        'i',
      ),
    )
  })

  it('adds nothing it does not know: an unknown product, another screen, a hostile path', async () => {
    const unknown = await page('/product/999999')
    expect(answersIn(unknown)).toBeNull()
    expect(unknown).toContain(
      `href="/${screenFiles('src/features/store/routes/Product.tsx').file}"`,
    )
    const papers = await page('/papers')
    expect(answersIn(papers)).toBeNull()
    expect(papers).not.toContain('modulepreload')
    const hostile = await page('/product/%3Cscript%3Ealert(1)%3C%2Fscript%3E')
    expect(hostile).not.toContain('<script>alert(1)')
    // A path that is not valid percent-encoding is refused by the router, never a 500.
    expect((await fetch(`${shop.url}/product/%E0%A4%A`)).status).toBe(400)
  })
})

/** The markup inside #root, as the page arrives (before any JavaScript), without React's text
 * separators (`<!-- -->`). */
const drawnIn = (html: string) =>
  (/<div id="root">([\s\S]*)<\/div>\s*<\/body>/.exec(html)?.[1] ?? '').replaceAll('<!-- -->', '')
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1]

/**
 * The first screens arrive drawn (decision 015): with only the page's data inline the landing
 * paints its largest text at 2.2-2.5 s in Lighthouse's mobile run, after 80 KB of JavaScript
 * runs.
 */
describe('the first screens, drawn by the server', () => {
  it('/store arrives with its books, prices and the screen title', async () => {
    const products = (await apiJson('/api/products')) as { name: string; priceEUR: number }[]
    expect(products.length).toBeGreaterThan(0)
    const html = await page('/store')
    const drawn = drawnIn(html)
    expect(drawn).toContain('<h1 id="store-title">Our Books</h1>')
    for (const product of products) expect(drawn).toContain(`>${product.name}<`)
    expect(drawn).not.toContain('Loading books')
    expect(titleOf(html)).toBe('Our Books · Dual Vote')
  })

  it('a product arrives with its name, stock and Buy Now; the landing page with its hero', async () => {
    const id = await productIdOf(shop.payload, 'DIGITAL')
    const product = (await apiJson(`/api/products/${id}`)) as { name: string }
    const html = await page(`/product/${id}`)
    expect(drawnIn(html)).toMatch(
      new RegExp(`<h1 class="product-detail__name">${escaped(product.name)}</h1>[\\s\\S]*Buy Now`),
    )
    expect(titleOf(html)).toBe(`${product.name} · Dual Vote`)
    const hero = (await apiJson('/api/content/landing-hero')) as { title: string }
    expect(drawnIn(await page('/'))).toContain(hero.title)
  })

  it('follows the data: a sale shows in the next page drawn', async () => {
    const id = await productIdOf(shop.payload, 'PHYSICAL')
    const before = (await apiJson(`/api/products/${id}`)) as { currentStock: number }
    expect(drawnIn(await page(`/product/${id}`))).toContain(
      `${before.currentStock} available in stock`,
    )
    await shop.payload.update({
      collection: 'products',
      id,
      data: { currentStock: before.currentStock - 1 },
      overrideAccess: true,
    })
    await expect
      .poll(async () => drawnIn(await page(`/product/${id}`)))
      .toContain(`${before.currentStock - 1} available in stock`)
  })

  it('leaves every other screen, and a product nobody sells, to the browser', async () => {
    expect(drawnIn(await page('/papers'))).toBe('')
    expect(drawnIn(await page('/checkout'))).toBe('')
    expect(drawnIn(await page('/product/999999'))).toBe('')
  })
})

describe('the stylesheets of a drawn page', () => {
  const entryCss = Object.values(manifest).find((chunk) => chunk.isEntry)!.css!
  const inline = (html: string) => [...html.matchAll(/<style>([^<]*)<\/style>/g)].map((m) => m[1])
  const css = (file: string) => fs.readFileSync(fromRoot(`storefront/dist/${file}`), 'utf8')

  it('are inline, in the order they were linked, each link kept disabled for the loader', async () => {
    const html = await page('/store')
    const sheets = [...entryCss, ...stylesOf('src/features/store/routes/Store.tsx')]
    expect(sheets.length).toBeGreaterThan(1)
    expect(inline(html)).toEqual(sheets.map(css))
    for (const file of sheets) {
      expect(html).toContain(`<link rel="stylesheet" href="/${file}" ${NOT_FETCHED}>`)
      expect(html).not.toMatch(
        new RegExp(`<link rel="stylesheet"[^>]*href="/${file}"(?! ${NOT_FETCHED})>`),
      )
    }
  })

  it('stay links on a page the browser draws', async () => {
    const html = await page('/papers')
    expect(inline(html)).toEqual([])
    for (const file of entryCss) expect(html).toContain(`href="/${file}">`)
  })
})

/**
 * Found while drawing pages: the page's additions went in with String.replace, which reads
 * `$&` and `$'` in the replacement as patterns, so a book named with them broke its own page.
 */
it("keeps a book's `$&` and `$'` as text in its page", async () => {
  const id = await productIdOf(shop.payload, 'DIGITAL')
  const name = "Pay $& see $' and $$"
  await shop.payload.update({ collection: 'products', id, data: { name }, overrideAccess: true })
  await expect
    .poll(async () => answersIn(await page(`/product/${id}`)))
    .toMatchObject({ [`/api/products/${id}`]: { name } })
  const html = await page(`/product/${id}`)
  // As React writes text: & and ' escaped, the dollars as they are.
  const text = name.replace(/&/g, '&amp;').replace(/'/g, '&#x27;')
  expect(drawnIn(html)).toContain(`<h1 class="product-detail__name">${text}</h1>`)
  expect(titleOf(html)).toBe(`${text} · Dual Vote`)
})

/**
 * The public pages open without Cross-Origin-Opener-Policy; the rest keep same-origin (decision
 * 017). With the header, a phone opening the shop from another page (Lighthouse starts from
 * about:blank) has to start a new renderer process first: /store scored 95 against 98 without
 * it, in 8 runs each.
 */
describe('the opener policy', () => {
  const coop = async (path: string) => {
    const res = await fetch(`${shop.url}${path}`)
    await res.arrayBuffer()
    expect(res.status, path).toBe(200)
    return res.headers.get('cross-origin-opener-policy')
  }

  it('is absent on the public pages, drawn or not', async () => {
    const id = await productIdOf(shop.payload, 'DIGITAL')
    for (const path of [
      '/',
      '/papers',
      '/proofs',
      '/updates',
      '/legal',
      '/wallet-info',
      '/store',
      `/product/${id}`,
      '/product/999999',
    ])
      expect(await coop(path), path).toBeNull()
  })

  it('is same-origin on a public page asked for with ?isolate, and on every other page', async () => {
    for (const path of [
      '/store?isolate=',
      '/?isolate',
      '/checkout',
      '/pay/1',
      '/order/success/1',
      '/admin',
      '/admin/orders',
      '/no-such-page',
      '/store/more',
      '/api/products',
    ])
      expect(await coop(path), path).toBe('same-origin')
  })
})
