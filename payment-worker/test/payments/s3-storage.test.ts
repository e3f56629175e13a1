import fs from 'node:fs'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { LocalS3 } from '@shop/cms/testing'
import { s3Env, signedInNewAdmin, startLocalS3 } from '@shop/cms/testing'
import type { PaymentsHarness } from './support'
import { api, createOrder, productIdOf, startPaymentsHarness, waitFor } from './support'

/**
 * Uploads through Payload's storage adapter. With STORAGE=s3 the seed's covers,
 * books and documents go to the bucket (a local server speaking S3's API), nothing to the data
 * directory, and the shop's own routes read them back from there: covers at /media, documents
 * at /documents, a bought book at /download, delivered by the worker that checked it exists.
 */
let s3: LocalS3
let h: PaymentsHarness

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { withFileTypes: true })
        .flatMap((entry) =>
          entry.isDirectory()
            ? filesUnder(path.join(dir, entry.name))
            : [path.join(dir, entry.name)],
        )
    : []

beforeAll(async () => {
  s3 = await startLocalS3()
  h = await startPaymentsHarness({ env: { ...s3Env(s3), CONFIRMATIONS_REQUIRED: '0' } })
})

afterAll(async () => {
  await h?.close()
  await s3?.close()
})

describe('STORAGE=s3', () => {
  it('keeps every upload in the bucket, signed, and none in the data directory', () => {
    const keys = [...s3.objects.keys()]
    expect(keys.some((k) => k.startsWith('media/'))).toBe(true)
    expect(keys.some((k) => k.startsWith('files/'))).toBe(true)
    expect(keys.some((k) => k.startsWith('documents/'))).toBe(true)
    expect(s3.unsigned()).toBe(0)
    const uploads = ['media', 'files', 'documents'].flatMap((area) =>
      filesUnder(path.join(h.shop.dataDir, area)),
    )
    expect(uploads).toEqual([])
  })

  it('serves covers and documents from the bucket, inert, and 404 for what it does not hold', async () => {
    const { body } = await api(h.shop, '/api/products')
    const cover = (body as unknown as { coverImageUrl: string | null }[]).find(
      (p) => p.coverImageUrl,
    )!.coverImageUrl!
    const response = await fetch(`${h.shop.url}${cover}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toContain('sandbox')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    const stored = s3.objects.get(`media/${decodeURIComponent(cover.slice('/media/'.length))}`)!
    expect(Buffer.from(await response.arrayBuffer()).equals(stored.body)).toBe(true)

    const documentKey = [...s3.objects.keys()].find((k) => k.startsWith('documents/'))!
    const document = await fetch(`${h.shop.url}/${documentKey}`)
    expect(document.status).toBe(200)
    expect(
      Buffer.from(await document.arrayBuffer()).equals(s3.objects.get(documentKey)!.body),
    ).toBe(true)
    for (const missing of [
      '/media/no-such-cover.png',
      '/media/..%2Ffiles%2Fbook.pdf',
      '/media/.env',
    ])
      expect((await fetch(`${h.shop.url}${missing}`)).status, missing).toBe(404)
    // Books are never public, in the bucket either: /media does not reach files/.
    const bookKey = [...s3.objects.keys()].find((k) => k.startsWith('files/'))!
    const book = await fetch(`${h.shop.url}/media/${bookKey.slice('files/'.length)}`)
    expect(book.status).toBe(404)
  })

  it('sells a PDF: the worker finds the book in the bucket, the link downloads it', async () => {
    const pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
    const orderId = await createOrder(h.shop, pdfId)
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    const url = await waitFor(
      async () =>
        (await api(h.shop, `/api/orders/${orderId}/payment-status`)).body.downloadUrl as
          string | undefined,
    )
    const response = await fetch(`${h.shop.url}${url}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/)
    const bookKey = [...s3.objects.keys()].find((k) => k.startsWith('files/'))!
    expect(Buffer.from(await response.arrayBuffer()).equals(s3.objects.get(bookKey)!.body)).toBe(
      true,
    )
  })

  it('takes a cover uploaded through the admin API into the bucket, and serves it', async () => {
    const owner = { email: 's3-owner@example.com', password: 'Quartz-ledger-owner-7193' }
    const admin = await signedInNewAdmin(h.shop, owner)
    // A 1x1 PNG.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
      'base64',
    )
    const form = new FormData()
    for (const [name, value] of Object.entries({
      name: 'Printed in the bucket',
      type: 'PHYSICAL',
      priceEUR: '12.00',
      totalStock: '3',
      currentStock: '3',
      shortDescription: 'A cover stored in S3.',
      isAvailable: 'true',
    }))
      form.append(name, value)
    form.append('coverImageFile', new Blob([png], { type: 'image/png' }), 'bucket-cover.png')
    const created = await admin.request('POST', '/products', { form })
    expect(created.status, await created.clone().text()).toBe(201)
    const { coverImageUrl } = (await created.json()) as { coverImageUrl: string }
    const name = decodeURIComponent(coverImageUrl.slice('/media/'.length))
    expect(s3.objects.get(`media/${name}`)?.body.equals(png)).toBe(true)
    expect(fs.existsSync(path.join(h.shop.dataDir, 'media', name))).toBe(false)
    const served = await fetch(`${h.shop.url}${coverImageUrl}`)
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true)
  })

  it('sends a paid order to ERROR_FULFILLMENT when its book is gone from the bucket', async () => {
    const pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
    const bookKey = [...s3.objects.keys()].find((k) => k.startsWith('files/'))!
    const book = s3.objects.get(bookKey)!
    s3.objects.delete(bookKey)
    try {
      const orderId = await createOrder(h.shop, pdfId, { userEmail: 'gone@example.com' })
      await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
      const status = await waitFor(async () => {
        const s = (await api(h.shop, `/api/orders/${orderId}/payment-status`)).body.status
        return s === 'ERROR_FULFILLMENT' ? s : null
      })
      expect(status).toBe('ERROR_FULFILLMENT')
    } finally {
      s3.objects.set(bookKey, book)
    }
  })
})
