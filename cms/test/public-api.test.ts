import path from 'node:path'
import zlib from 'node:zlib'

import { createClient } from '@libsql/client'
import { publicProductSchema } from '@shop/domain'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../src/collections/slugs'
import { engineOf } from '../src/db/engine'
import { reserveStock } from '../src/db/stock'
import type { TestShop } from './support/testShop'
import { storedBookFile } from './support/bookFile'
import { rawGet } from './support/rawGet'
import { startTestShop } from './support/testShop'

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ withCms: true })
})

afterAll(async () => {
  await shop?.close()
})

const getJson = async (path: string) => {
  const response = await fetch(`${shop.url}${path}`)
  return {
    status: response.status,
    body: (await response.json()) as unknown,
    headers: response.headers,
  }
}

describe('GET /api/products', () => {
  it('lists the seeded books as public products of the spec', async () => {
    const { status, body } = await getJson('/api/products')
    expect(status).toBe(200)
    expect(Array.isArray(body)).toBe(true)
    const products = publicProductSchema.array().parse(body)
    expect(products.map((p) => p.type).sort()).toEqual(['PDF', 'PHYSICAL'])
    for (const product of products) {
      expect(product.priceEUR).toMatch(/^\d+\.\d{2}$/)
      expect(product.coverImageUrl).toMatch(/^\/media\/[^/]+$/)
      expect(Object.keys(product).sort()).toEqual([
        'coverImageUrl',
        'currentStock',
        'id',
        'isAvailable',
        'name',
        'priceEUR',
        'shippingCostEUR',
        'shortDescription',
        'type',
      ])
    }
  })

  it('serves each cover image at its relative path', async () => {
    const { body } = await getJson('/api/products')
    const [product] = publicProductSchema.array().parse(body)
    const image = await fetch(`${shop.url}${product!.coverImageUrl}`)
    expect(image.status).toBe(200)
    expect(image.headers.get('content-type')).toMatch(/^image\//)
  })

  it('never lists hidden or soft-deleted products', async () => {
    const hidden = await shop.payload.create({
      collection: slugs.products,
      data: {
        name: 'Hidden book',
        type: 'DIGITAL',
        priceEUR: 5,
        totalStock: 1,
        currentStock: 1,
        isAvailable: false,
      },
    })
    const deleted = await shop.payload.create({
      collection: slugs.products,
      data: {
        name: 'Deleted book',
        type: 'PHYSICAL',
        priceEUR: 7.5,
        totalStock: 3,
        currentStock: 3,
        isAvailable: true,
        deletedAt: new Date().toISOString(),
      },
    })
    const { body } = await getJson('/api/products')
    const names = publicProductSchema
      .array()
      .parse(body)
      .map((p) => p.name)
    expect(names).not.toContain('Hidden book')
    expect(names).not.toContain('Deleted book')

    for (const id of [hidden.id, deleted.id]) {
      const one = await getJson(`/api/products/${id}`)
      expect(one.status).toBe(404)
      expect(one.body).toEqual({ error: 'Product not found.' })
    }
  })

  it('reads legacy PDF and EPUB types as digital books', async () => {
    const legacy = await shop.payload.create({
      collection: slugs.products,
      data: {
        name: 'Legacy EPUB',
        type: 'EPUB' as 'DIGITAL',
        priceEUR: 3,
        totalStock: 1,
        currentStock: 1,
        digitalFile: await storedBookFile(shop.payload),
      },
    })
    expect(legacy.type).toBe('DIGITAL')
    const { body } = await getJson(`/api/products/${legacy.id}`)
    expect(publicProductSchema.parse(body).type).toBe('PDF')
  })
})

describe('GET /api/products/:id', () => {
  it('returns one public product', async () => {
    const list = publicProductSchema.array().parse((await getJson('/api/products')).body)
    const physical = list.find((p) => p.type === 'PHYSICAL')!
    const { status, body } = await getJson(`/api/products/${physical.id}`)
    expect(status).toBe(200)
    expect(publicProductSchema.parse(body)).toEqual(physical)
  })

  it.each(['999999', 'abc', '1 OR 1=1', '-1', '0'])(
    'answers 404 with the error shape for id %s',
    async (id) => {
      const { status, body } = await getJson(`/api/products/${encodeURIComponent(id)}`)
      expect(status).toBe(404)
      expect(body).toEqual({ error: 'Product not found.' })
    },
  )
})

describe('the catalogue cache', () => {
  type Listed = { id: number; currentStock: number; name: string }
  const stockOf = async (id: number) => {
    const list = (await getJson('/api/products')).body as Listed[]
    const one = (await getJson(`/api/products/${id}`)).body as Listed
    return { list: list.find((p) => p.id === id)?.currentStock, one: one.currentStock }
  }

  it('shows every change on the next request, whoever made it', async () => {
    const [first] = (await getJson('/api/products')).body as Listed[]
    const id = first!.id
    // An edit through Payload (the admin API and /cms both end here).
    await shop.payload.update({ collection: slugs.products, id, data: { currentStock: 41 } })
    expect(await stockOf(id)).toEqual({ list: 41, one: 41 })
    // A raw write from another process (checkout's reservation, the worker's release).
    expect(await reserveStock({ payload: shop.payload, productId: id })).toBe(true)
    expect(await stockOf(id)).toEqual({ list: 40, one: 40 })
    // On SQLite, a write on a connection of another process entirely.
    if (engineOf(shop.payload) === 'sqlite') {
      const other = createClient({ url: `file:${path.join(shop.dataDir, 'shop.db')}` })
      await other.execute({
        sql: 'UPDATE products SET current_stock = 39 WHERE id = ?',
        args: [id],
      })
      other.close()
      expect(await stockOf(id)).toEqual({ list: 39, one: 39 })
    }
    await shop.payload.update({ collection: slugs.products, id, data: { name: 'Renamed' } })
    expect(((await getJson(`/api/products/${id}`)).body as Listed).name).toBe('Renamed')
    await shop.payload.update({ collection: slugs.products, id, data: { isAvailable: false } })
    expect((await getJson(`/api/products/${id}`)).status).toBe(404)
    await shop.payload.update({ collection: slugs.products, id, data: { isAvailable: true } })
  })

  it('answers a matching If-None-Match with 304 and no body', async () => {
    const first = await fetch(`${shop.url}/api/products`)
    const etag = first.headers.get('etag')
    expect(etag).toMatch(/^".+"$/)
    const again = await fetch(`${shop.url}/api/products`, { headers: { 'if-none-match': etag! } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const [product] = (await first.json()) as Listed[]
    await shop.payload.update({
      collection: slugs.products,
      id: product!.id,
      data: { currentStock: product!.currentStock + 1 },
    })
    const changed = await fetch(`${shop.url}/api/products`, { headers: { 'if-none-match': etag! } })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
  })
})

describe('GET /api/products on the wire', () => {
  const raw = (path: string, headers: Record<string, string> = {}) =>
    rawGet(`${shop.url}${path}`, headers)

  it('sends the same JSON gzipped to clients that accept it, with the security headers', async () => {
    // A catalogue long enough to be worth compressing (over 1 KB).
    const extra = await Promise.all(
      [1, 2, 3].map((n) =>
        shop.payload.create({
          collection: slugs.products,
          data: {
            name: `Volume ${n}`,
            type: 'PHYSICAL',
            priceEUR: 10 + n,
            totalStock: 5,
            currentStock: 5,
            isAvailable: true,
            shortDescription: `Volume ${n} of the series, `.repeat(12),
          },
        }),
      ),
    )
    const plain = await raw('/api/products')
    const gzipped = await raw('/api/products', { 'accept-encoding': 'br, gzip, deflate' })
    expect(plain.status).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body.length).toBeGreaterThan(1024)
    expect(gzipped.headers['content-encoding']).toBe('gzip')
    expect(gzipped.body.length).toBeLessThan(plain.body.length)
    expect(Number(gzipped.headers['content-length'])).toBe(gzipped.body.length)
    expect(zlib.gunzipSync(gzipped.body).equals(plain.body)).toBe(true)
    for (const res of [plain, gzipped]) {
      expect(res.headers.vary).toContain('Accept-Encoding')
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['x-frame-options']).toBe('DENY')
      expect(res.headers['content-security-policy']).toContain("default-src 'self'")
    }
    for (const { id } of extra) await shop.payload.delete({ collection: slugs.products, id })
  })

  it('answers a malformed percent-encoding in the id with a 400, not a 500', async () => {
    const bad = await raw('/api/products/%zz')
    expect(bad.status).toBe(400)
    expect(JSON.parse(bad.body.toString())).toHaveProperty('error')
  })

  it("answers other methods and deeper paths with the API's JSON 404", async () => {
    const deeper = await raw('/api/products/1/cover')
    expect(deeper.status).toBe(404)
    expect(JSON.parse(deeper.body.toString())).toEqual({ error: 'Not found.' })
    const post = await fetch(`${shop.url}/api/products`, { method: 'POST' })
    expect(post.status).toBe(404)
    expect(((await post.json()) as { error: string }).error).toBe('Not found.')
  })
})

describe('site content endpoints', () => {
  it('serves the nine papers with English and Italian links', async () => {
    const { body } = await getJson('/api/papers')
    const papers = body as { versions: { en: { link: string }; it: { link: string } } }[]
    expect(papers).toHaveLength(9)
    expect(papers.some((p) => p.versions.it.link === '#')).toBe(true)
    expect(papers[0]!.versions.en.link).toMatch(/^\/documents\/.+\.pdf$/)
  })

  it('serves six milestones, the first two completed', async () => {
    const { body } = await getJson('/api/timeline')
    const items = body as { status: string }[]
    expect(items.map((i) => i.status)).toEqual([
      'completed',
      'completed',
      'upcoming',
      'upcoming',
      'upcoming',
      'upcoming',
    ])
  })

  it('serves the legal texts as HTML, four FAQs, the tools and three wallets', async () => {
    const legal = (await getJson('/api/content/legal')).body as {
      termsHtml: string
      privacyHtml: string
    }
    expect(legal.termsHtml).toContain('<p>')
    expect(legal.privacyHtml).toContain('<p>')
    expect((await getJson('/api/content/faqs')).body).toHaveLength(4)
    expect((await getJson('/api/content/wallets')).body).toHaveLength(3)
    const tools = (await getJson('/api/content/tools')).body as {
      manuals: { language: string }[]
    }[]
    expect(tools.flatMap((t) => t.manuals.map((m) => m.language))).toEqual(['en', 'it', 'fr', 'es'])
  })
})

describe('the web process', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const { status, body } = await getJson('/api/nothing-here')
    expect(status).toBe(404)
    expect(body).toEqual({ error: 'Not found.' })
  })

  it('rejects a malformed JSON body with a 400 and a reason', async () => {
    const response = await fetch(`${shop.url}/api/products`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{not json',
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Request body is not valid JSON.' })
  })

  it('serves the storefront with the SPA fallback and security headers', async () => {
    const response = await fetch(`${shop.url}/store`)
    expect(response.status).toBe(200)
    expect(await response.text()).toContain('<div id="root">')
    expect(response.headers.get('content-security-policy')).toContain("default-src 'self'")
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('x-frame-options')).toBe('DENY')
  })

  it('serves Payload under /cms with its login page', async () => {
    const response = await fetch(`${shop.url}/cms/login`)
    expect(response.status).toBe(200)
    expect(await response.text()).toMatch(/<html/i)
    const rest = await fetch(`${shop.url}/cms/api/papers?limit=1`)
    expect(rest.status).toBe(200)
    expect(((await rest.json()) as { totalDocs: number }).totalDocs).toBe(9)
  })

  it('keeps the digital books private', async () => {
    const file = await fetch(
      `${shop.url}/cms/api/digital-files/file/identity-dual-vote-and-trust.pdf`,
    )
    expect(file.status).toBe(403)
    const list = await fetch(`${shop.url}/cms/api/products`)
    expect(list.status).toBe(403)
  })
})
