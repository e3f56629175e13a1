import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { AdminProduct } from '@shop/domain'

import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import type { AdminClient } from './client'
import { signedInNewAdmin } from './client'
import { reserveStock } from '../../src/db/stock'
import type { ProductFields } from './fixtures'
import { blob, bookFile, pdfDocument, pngImage, productForm, validFields } from './fixtures'

type Errors = { errors: { path: string; msg: string }[] }

let shop: TestShop
let admin: AdminClient

beforeAll(async () => {
  shop = await startTestShop({ seed: false })
  admin = await signedInNewAdmin(shop, { email: 'owner@example.com', password: 'owner-password-1' })
})

afterAll(async () => {
  await shop?.close()
})

async function create(form: FormData) {
  const response = await admin.request('POST', '/products', { form })
  return { status: response.status, body: (await response.json()) as unknown }
}

const pathsOf = (body: unknown) => (body as Errors).errors.map((e) => e.path)

describe('POST /api/admin/products', () => {
  it('creates a digital book with a cover and a PDF, in the admin view of the spec', async () => {
    const { status, body } = await create(
      productForm(validFields, {
        coverImageFile: [blob(await pngImage(), 'image/png'), 'cover.png'],
        digitalFile: [blob(await pdfDocument(), 'application/pdf'), 'The Handbook.pdf'],
      }),
    )
    expect(status, JSON.stringify(body)).toBe(201)
    const product = body as AdminProduct
    expect(Object.keys(product).sort()).toEqual(
      [
        'coverImageUrl',
        'createdAt',
        'currentStock',
        'deletedAt',
        'id',
        'isAvailable',
        'name',
        'pdfFilename',
        'priceEUR',
        'shippingCostEUR',
        'shortDescription',
        'totalStock',
        'type',
      ].sort(),
    )
    expect(product).toMatchObject({
      name: 'The Dual Vote Handbook',
      type: 'DIGITAL',
      priceEUR: 19.9,
      totalStock: 100,
      currentStock: 100,
      isAvailable: true,
      deletedAt: null,
      pdfFilename: 'the-handbook.pdf',
    })
    expect(product.coverImageUrl).toMatch(/^\/media\/the-dual-vote-handbook-cover(-\d+)?\.png$/)

    // The cover is public; the book is stored under FILES_DIR, which nothing serves.
    const cover = await fetch(`${shop.url}${product.coverImageUrl}`)
    expect(cover.status).toBe(200)
    expect(cover.headers.get('content-type')).toBe('image/png')
    expect(fs.existsSync(path.join(shop.dataDir, 'files', product.pdfFilename!))).toBe(true)
    for (const url of [
      `/media/${product.pdfFilename}`,
      `/files/${product.pdfFilename}`,
      `/documents/${product.pdfFilename}`,
    ]) {
      const response = await fetch(`${shop.url}${url}`)
      // Unknown paths get the storefront's index.html (SPA fallback), never the book's bytes.
      expect((await response.text()).startsWith('%PDF'), url).toBe(false)
    }

    // And the shop's public API lists it.
    const publicList = (await (await fetch(`${shop.url}/api/products`)).json()) as {
      id: number
      priceEUR: string
    }[]
    expect(publicList.find((p) => p.id === product.id)?.priceEUR).toBe('19.90')
  })

  it('defaults to available when the checkbox is not sent', async () => {
    const { status, body } = await create(
      productForm(
        { ...validFields, isAvailable: undefined, name: 'Defaults' },
        { digitalFile: await bookFile() },
      ),
    )
    expect(status).toBe(201)
    expect((body as AdminProduct).isAvailable).toBe(true)
  })

  it('reports every invalid field under its spec name', async () => {
    const { status, body } = await create(
      productForm({
        name: '  ',
        type: 'AUDIOBOOK',
        priceEUR: '-1',
        totalStock: '2.5',
        currentStock: 'x',
        shortDescription: 'y'.repeat(2001),
      }),
    )
    expect(status).toBe(400)
    expect(pathsOf(body).sort()).toEqual([
      'currentStock',
      'name',
      'priceEUR',
      'shortDescription',
      'totalStock',
      'type',
    ])
    expect((body as Errors).errors.find((e) => e.path === 'name')?.msg).toBe('Name is required.')
  })

  it('requires name, type, price and both stocks', async () => {
    const { status, body } = await create(productForm({}))
    expect(status).toBe(400)
    expect(pathsOf(body).sort()).toEqual(['currentStock', 'name', 'priceEUR', 'totalStock', 'type'])
  })

  it('refuses more than two decimals in the price', async () => {
    const { status, body } = await create(productForm({ ...validFields, priceEUR: '1.999' }))
    expect(status).toBe(400)
    expect(pathsOf(body)).toEqual(['priceEUR'])
  })

  it('refuses a cover that is not an image, whatever its name and declared type', async () => {
    const { status, body } = await create(
      productForm(validFields, {
        coverImageFile: [blob(await pdfDocument(), 'image/png'), 'cover.png'],
      }),
    )
    expect(status).toBe(400)
    expect(body).toEqual({
      errors: [
        {
          path: 'coverImageFile',
          msg: 'Cover image must be a JPEG, PNG, WebP, GIF or AVIF image.',
        },
      ],
    })
  })

  it('refuses a cover over 5 MB', async () => {
    const big = await pngImage({ width: 1400, height: 1400 })
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024)
    const { status, body } = await create(
      productForm(validFields, { coverImageFile: [blob(big, 'image/png'), 'big.png'] }),
    )
    expect(status).toBe(400)
    expect(body).toEqual({
      errors: [{ path: 'coverImageFile', msg: 'Cover image must be at most 5 MB.' }],
    })
  })

  it('refuses a digital file over 50 MB before reading it all', async () => {
    const huge = Buffer.concat([await pdfDocument(), Buffer.alloc(50 * 1024 * 1024)])
    const { status, body } = await create(
      productForm(validFields, { digitalFile: [blob(huge, 'application/pdf'), 'huge.pdf'] }),
    )
    expect(status).toBe(413)
    expect(body).toEqual({
      errors: [{ path: 'digitalFile', msg: 'Digital file must be at most 50 MB.' }],
    })
  })

  it.each([
    ['a PNG renamed .pdf', async () => blob(await pngImage(), 'application/pdf'), 'book.pdf'],
    [
      'a text file renamed .epub',
      async () => blob(Buffer.from('not a book'), 'application/epub+zip'),
      'book.epub',
    ],
    [
      'a real PDF named .docx',
      async () => blob(await pdfDocument(), 'application/pdf'),
      'book.docx',
    ],
    [
      'a PDF renamed .epub',
      async () => blob(await pdfDocument(), 'application/epub+zip'),
      'book.epub',
    ],
  ])('refuses %s as the digital file', async (_label, makeFile, name) => {
    const { status, body } = await create(
      productForm(validFields, { digitalFile: [await makeFile(), name] }),
    )
    expect(status).toBe(400)
    expect(body).toEqual({
      errors: [
        { path: 'digitalFile', msg: 'Digital file must be a PDF or EPUB file (.pdf or .epub).' },
      ],
    })
  })

  it('refuses a digital file on a physical book', async () => {
    const { status, body } = await create(
      productForm(
        { ...validFields, type: 'PHYSICAL' },
        { digitalFile: [blob(await pdfDocument(), 'application/pdf'), 'book.pdf'] },
      ),
    )
    expect(status).toBe(400)
    expect(pathsOf(body)).toEqual(['digitalFile'])
  })

  it('stores nothing when the form is invalid', async () => {
    const before = (await shop.payload.count({ collection: 'media' })).totalDocs
    await create(
      productForm(
        { ...validFields, name: '' },
        { coverImageFile: [blob(await pngImage(), 'image/png'), 'c.png'] },
      ),
    )
    expect((await shop.payload.count({ collection: 'media' })).totalDocs).toBe(before)
  })
})

describe('GET and PUT /api/admin/products/:id', () => {
  it('updates the fields and keeps the files when none are sent', async () => {
    const created = (
      await create(
        productForm(
          { ...validFields, name: 'To edit' },
          { digitalFile: [blob(await pdfDocument(), 'application/pdf'), 'edit.pdf'] },
        ),
      )
    ).body as AdminProduct
    const response = await admin.request('PUT', `/products/${created.id}`, {
      form: productForm({
        ...validFields,
        name: 'Edited',
        priceEUR: '5',
        currentStock: '0',
        isAvailable: 'false',
      }),
    })
    expect(response.status).toBe(200)
    const updated = (await response.json()) as AdminProduct
    expect(updated).toMatchObject({
      id: created.id,
      name: 'Edited',
      priceEUR: 5,
      currentStock: 0,
      isAvailable: false,
    })
    expect(updated.pdfFilename).toBe(created.pdfFilename)

    const one = await admin.request('GET', `/products/${created.id}`)
    expect(await one.json()).toEqual(updated)
  })

  it('keeps copies ordered while the form was open: a stock change is applied relative to the loaded value', async () => {
    const created = (
      await create(
        productForm(
          { ...validFields, name: 'Busy book', totalStock: '10', currentStock: '10' },
          { digitalFile: await bookFile() },
        ),
      )
    ).body as AdminProduct
    const put = async (fields: ProductFields) => {
      const response = await admin.request('PUT', `/products/${created.id}`, {
        form: productForm({ ...validFields, totalStock: '10', ...fields }),
      })
      expect(response.status).toBe(200)
      return (await response.json()) as AdminProduct
    }
    const sell = async (copies: number) => {
      for (let i = 0; i < copies; i += 1)
        expect(await reserveStock({ payload: shop.payload, productId: created.id })).toBe(true)
    }

    // The owner opens the form at 10; three copies sell; the owner saves a new name only.
    await sell(3)
    const renamed = await put({
      name: 'Busy book, 2nd ed.',
      currentStock: '10',
      currentStockLoaded: '10',
    })
    expect(renamed).toMatchObject({ name: 'Busy book, 2nd ed.', currentStock: 7 })

    // Opens at 7, adds 5 printed copies (12); two more sell meanwhile: 10 on the shelf.
    await sell(2)
    expect((await put({ currentStock: '12', currentStockLoaded: '7' })).currentStock).toBe(10)

    // Opens at 10, takes the book off sale (0) while one more sells: never below 0.
    await sell(1)
    expect((await put({ currentStock: '0', currentStockLoaded: '10' })).currentStock).toBe(0)

    // A client that sends no loaded value sets the stock as given (the spec's plain form).
    expect((await put({ currentStock: '4' })).currentStock).toBe(4)
    const stored = await shop.payload.findByID({ collection: 'products', id: created.id })
    expect(stored.currentStock).toBe(4)
  })

  it('refuses a loaded stock that is not a whole number', async () => {
    const created = (
      await create(
        productForm({ ...validFields, name: 'Loaded check' }, { digitalFile: await bookFile() }),
      )
    ).body as AdminProduct
    const response = await admin.request('PUT', `/products/${created.id}`, {
      form: productForm({ ...validFields, currentStockLoaded: '-1' }),
    })
    expect(response.status).toBe(400)
    expect(pathsOf(await response.json())).toEqual(['currentStockLoaded'])
  })

  it('replaces the cover when a new one is sent', async () => {
    const created = (
      await create(
        productForm(
          { ...validFields, name: 'Cover swap' },
          {
            coverImageFile: [blob(await pngImage(), 'image/png'), 'a.png'],
            digitalFile: await bookFile(),
          },
        ),
      )
    ).body as AdminProduct
    const response = await admin.request('PUT', `/products/${created.id}`, {
      form: productForm(
        { ...validFields, name: 'Cover swap' },
        { coverImageFile: [blob(await pngImage({ width: 10, height: 10 }), 'image/png'), 'b.png'] },
      ),
    })
    const updated = (await response.json()) as AdminProduct
    expect(updated.coverImageUrl).not.toBe(created.coverImageUrl)
  })

  it('validates an update like a creation', async () => {
    const [first] = (await (await admin.request('GET', '/products')).json()) as AdminProduct[]
    const response = await admin.request('PUT', `/products/${first!.id}`, {
      form: productForm({ ...validFields, totalStock: '-3' }),
    })
    expect(response.status).toBe(400)
    expect(pathsOf(await response.json())).toEqual(['totalStock'])
  })

  it.each(['GET', 'PUT', 'DELETE'])('answers 404 for a missing product (%s)', async (method) => {
    const response = await admin.request(
      method,
      '/products/999999',
      method === 'PUT' ? { form: productForm(validFields) } : {},
    )
    expect(response.status).toBe(404)
    expect(await response.json()).toEqual({ error: 'Product not found.' })
  })
})

describe('soft delete and restore', () => {
  it('hides a deleted product from the store, lists it last for the admin, and restores it', async () => {
    const doomed = (
      await create(
        productForm({ ...validFields, name: 'Doomed' }, { digitalFile: await bookFile() }),
      )
    ).body as AdminProduct
    await create(productForm({ ...validFields, name: 'Newest' }, { digitalFile: await bookFile() }))

    const deleted = await admin.request('DELETE', `/products/${doomed.id}`)
    expect(deleted.status).toBe(200)
    expect(((await deleted.json()) as AdminProduct).deletedAt).toEqual(expect.any(String))

    const list = (await (await admin.request('GET', '/products')).json()) as AdminProduct[]
    expect(list.at(-1)!.id).toBe(doomed.id)
    expect(list[0]!.name).toBe('Newest')
    const active = list.filter((p) => !p.deletedAt)
    expect(active.map((p) => p.createdAt)).toEqual(
      [...active.map((p) => p.createdAt)].sort().reverse(),
    )

    expect((await fetch(`${shop.url}/api/products/${doomed.id}`)).status).toBe(404)

    const restored = await admin.request('POST', `/products/${doomed.id}/restore`)
    expect(restored.status).toBe(200)
    expect(((await restored.json()) as AdminProduct).deletedAt).toBeNull()
    expect((await fetch(`${shop.url}/api/products/${doomed.id}`)).status).toBe(200)
  })

  it('answers 404 when restoring a missing product', async () => {
    const response = await admin.request('POST', '/products/424242/restore')
    expect(response.status).toBe(404)
  })
})
