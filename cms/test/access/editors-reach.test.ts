import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { createStaff } from '../admin/client'
import { cmsApi, staffJwt } from '../support/cmsApi'
import { SHIPPING, productIdOf } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Editors get exactly papers, timeline, documents and site texts: they cannot create a Document
 * by URL (which would skip the content check), read the document locks (which would name orders),
 * lock orders (admins would get 423) or unlock admin accounts.
 */

const ADMIN = { email: 'reach-admin@example.com', password: 'Quartz-ledger-owner-7193' }
const EDITOR = { email: 'reach-editor@example.com', password: 'Quartz-ledger-editor-8264' }

let shop: TestShop
let adminJwt: string
let editorJwt: string
let outside: http.Server
let outsideUrl: string
let outsideHits = 0

const cms = (jwt: string, method: string, path: string, body?: unknown) =>
  cmsApi(shop, { jwt }, method, path, body)

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, env: { ORDER_CREATE_RATE_LIMIT: '1000' } })
  await createStaff({ payload: shop.payload, ...ADMIN, role: 'admin' })
  await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })
  adminJwt = await staffJwt(shop.payload, ADMIN)
  editorJwt = await staffJwt(shop.payload, EDITOR)
  // A server elsewhere, serving a page with script under a .pdf name.
  outside = http.createServer((_req, res) => {
    outsideHits += 1
    res.writeHead(200, { 'content-type': 'application/pdf' })
    res.end('<html><script>alert(1)</script></html>')
  })
  await new Promise<void>((resolve) => outside.listen(0, '127.0.0.1', resolve))
  outsideUrl = `http://127.0.0.1:${(outside.address() as AddressInfo).port}/paper.pdf`
})

afterAll(async () => {
  await shop?.close()
  await new Promise<void>((resolve) => outside.close(() => resolve()))
})

describe("an editor's reach", () => {
  it('cannot create a document, a cover or a book file by URL: the server fetches nothing', async () => {
    for (const [jwt, collection] of [
      [editorJwt, 'documents'],
      [adminJwt, 'documents'],
      [adminJwt, 'media'],
      [adminJwt, 'digital-files'],
    ] as const) {
      const { status } = await cms(jwt, 'POST', `/${collection}`, {
        url: outsideUrl,
        filename: 'paper.pdf',
        title: 'By URL',
        alt: 'By URL',
      })
      expect(status, collection).toBeGreaterThanOrEqual(400)
      expect(status, collection).toBeLessThan(500)
    }
    expect(outsideHits).toBe(0)
    const documents = await shop.payload.count({
      collection: slugs.documents,
      where: { title: { equals: 'By URL' } },
    })
    expect(documents.totalDocs).toBe(0)
  })

  it('cannot lock an order, nor read locks that name orders; an admin edits the order unblocked', async () => {
    const productId = await productIdOf(shop.payload, 'PHYSICAL')
    const created = await fetch(`${shop.url}/api/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId, userEmail: 'locked@example.com', ...SHIPPING }),
    })
    const { orderId } = (await created.json()) as { orderId: string }
    const lock = await cms(editorJwt, 'POST', '/payload-locked-documents', {
      document: { relationTo: slugs.orders, value: orderId },
      globalSlug: null,
    })
    expect(lock.status).toBeGreaterThanOrEqual(400)
    expect(lock.status).toBeLessThan(500)
    const locks = await cms(editorJwt, 'GET', '/payload-locked-documents?depth=0&limit=100')
    expect(JSON.stringify(locks.body)).not.toContain(orderId)
    const edit = await cms(adminJwt, 'PATCH', `/orders/${orderId}`, {
      shippingCity: 'Milan',
    })
    expect(edit.status).toBe(200)
  })

  it('cannot read payments at /cms/api; an admin reads their doubt and proof, and writes neither', async () => {
    const productId = await productIdOf(shop.payload, 'PHYSICAL')
    const created = await fetch(`${shop.url}/api/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ productId, userEmail: 'proven@example.com', ...SHIPPING }),
    })
    const { orderId } = (await created.json()) as { orderId: string }
    const txid = '9'.repeat(64)
    const payment = await shop.payload.create({
      collection: slugs.payments,
      data: {
        outpoint: `${txid}:0`,
        order: orderId,
        txid,
        vout: 0,
        satoshis: 1_000,
        address: '1PaymentAddressOfThisOrder0000000',
        seenAt: new Date().toISOString(),
        doubtedAt: new Date().toISOString(),
        doubtReason: 'A competing spend of an input was reported',
        arcStatus: 'DOUBLE_SPEND_ATTEMPTED',
        proofProblem: 'The header does not hash to the block named',
      },
    })
    for (const path of ['/payments?depth=0', `/payments/${payment.id}`]) {
      const refused = await cms(editorJwt, 'GET', path)
      expect(refused.status, path).toBe(403)
      expect(refused.text, path).not.toContain(txid)
    }
    const read = await cms(adminJwt, 'GET', `/payments/${payment.id}?depth=0`)
    expect(read.status).toBe(200)
    expect(read.body).toMatchObject({
      txid,
      doubtReason: 'A competing spend of an input was reported',
      arcStatus: 'DOUBLE_SPEND_ATTEMPTED',
      proofProblem: 'The header does not hash to the block named',
    })
    // Only the payment worker records a proof: no one marks a payment proven by hand.
    const forged = await cms(adminJwt, 'PATCH', `/payments/${payment.id}`, {
      proofVerifiedAt: new Date().toISOString(),
      doubtedAt: null,
    })
    expect(forged.status).toBe(403)
    const stored = await shop.payload.findByID({ collection: slugs.payments, id: payment.id })
    expect(stored.proofVerifiedAt ?? null).toBeNull()
    expect(stored.doubtedAt).not.toBeNull()
  })

  it('cannot unlock a staff account; an admin can', async () => {
    expect((await cms(editorJwt, 'POST', '/staff/unlock', { email: ADMIN.email })).status).toBe(403)
    expect((await cms(adminJwt, 'POST', '/staff/unlock', { email: EDITOR.email })).status).toBe(200)
  })

  it('uploads only files that are what they say, through /cms/api', async () => {
    const form = new FormData()
    form.append(
      'file',
      new Blob(['<html><script>alert(1)</script></html>'], { type: 'image/png' }),
      'cover.png',
    )
    form.append('_payload', JSON.stringify({ alt: 'fake cover' }))
    const response = await fetch(`${shop.url}/cms/api/media`, {
      method: 'POST',
      headers: { authorization: `JWT ${adminJwt}` },
      body: form,
    })
    expect(response.status).toBe(400)
    expect(
      (
        await shop.payload.count({
          collection: slugs.media,
          where: { alt: { equals: 'fake cover' } },
        })
      ).totalDocs,
    ).toBe(0)
  })

  it('cannot write a link that runs code (javascript:, data:) through any door', async () => {
    const paper = (await shop.payload.find({ collection: slugs.papers, limit: 1 })).docs[0]!
    const viaCms = await cms(editorJwt, 'PATCH', `/papers/${paper.id}`, {
      link: 'javascript:alert(document.cookie)',
    })
    expect(viaCms.status).toBe(400)
    await expect(
      shop.payload.update({
        collection: slugs.papers,
        id: paper.id,
        data: { certificateLink: 'data:text/html,<script>alert(1)</script>' },
      }),
    ).rejects.toThrow()
    const legal = await shop.payload.findGlobal({ slug: 'legal' })
    const withLink = JSON.parse(JSON.stringify(legal.termsOfUse)) as {
      root: { children: { children: unknown[] }[] }
    }
    withLink.root.children[0]!.children.push({
      type: 'link',
      version: 3,
      fields: { linkType: 'custom', url: 'data:text/html;base64,PHNjcmlwdD4=', newTab: false },
      children: [{ type: 'text', text: 'click', version: 1 }],
    })
    const global = await cms(editorJwt, 'POST', '/globals/legal', { termsOfUse: withLink })
    expect(global.status).toBe(400)
    const ok = await cms(editorJwt, 'PATCH', `/papers/${paper.id}`, {
      link: 'https://example.com/paper.pdf',
    })
    expect(ok.status).toBe(200)
  })
})
