import fs from 'node:fs'
import path from 'node:path'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Private answers carry `Cache-Control: no-store`, and uploaded files (/media, /documents) are
 * served with a CSP, so an uploaded .shtml or .xht page with script cannot run as a page of the
 * shop.
 */

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ withCms: true })
})

afterAll(async () => {
  await shop?.close()
})

describe('private answers', () => {
  it.each([
    ['GET', '/cms/api/staff/me'],
    ['POST', '/cms/api/staff/login'],
    ['GET', '/cms/api/orders'],
    ['GET', '/api/admin/status'],
    ['GET', '/api/orders/00000000-0000-4000-8000-000000000000/info'],
    ['GET', '/api/orders/00000000-0000-4000-8000-000000000000/payment-status'],
    ['GET', '/download/pdf/not-a-token'],
    ['GET', '/test-mode/outbox'],
  ])('%s %s is never stored by a cache', async (method, url) => {
    const response = await fetch(`${shop.url}${url}`, {
      method,
      headers: method === 'POST' ? { 'content-type': 'application/json' } : {},
      body:
        method === 'POST' ? JSON.stringify({ email: 'a@example.com', password: 'x' }) : undefined,
    })
    await response.arrayBuffer()
    expect(response.headers.get('cache-control')).toContain('no-store')
  })

  it('leaves the public catalogue cacheable', async () => {
    const response = await fetch(`${shop.url}/api/products`)
    expect(response.headers.get('cache-control') ?? '').not.toContain('no-store')
  })
})

describe('uploaded files', () => {
  it('serves a paper inline but sandboxed, with no MIME sniffing', async () => {
    const documents = await shop.payload.find({
      collection: slugs.documents,
      where: { filename: { like: '.pdf' } },
      limit: 1,
    })
    const filename = (documents.docs[0] as { filename: string }).filename
    expect(filename).toMatch(/\.pdf$/)
    const response = await fetch(`${shop.url}/documents/${encodeURIComponent(filename)}`)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toMatch(/^sandbox; default-src 'none'/)
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    expect(response.headers.get('content-disposition')).toBeNull()
    // The public key is a file to keep, not a page.
    const pem = await fetch(`${shop.url}/documents/public-key.pem`)
    expect(pem.headers.get('content-disposition')).toBe('attachment; filename="public-key.pem"')
  })

  it.each(['evil.shtml', 'evil.xht', 'evil.html', 'evil.svg'])(
    'serves %s (a page with script, had it slipped in) as an inert download',
    async (name) => {
      const { env } = await import('../../src/config/runtime')
      fs.mkdirSync(env.documentsDir, { recursive: true })
      fs.writeFileSync(
        path.join(env.documentsDir, name),
        '<html><body><script>document.title="pwned"</script></body></html>',
      )
      const response = await fetch(`${shop.url}/documents/${name}`)
      expect(response.status).toBe(200)
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`)
      expect(response.headers.get('content-security-policy')).toContain('sandbox')
      expect(response.headers.get('x-content-type-options')).toBe('nosniff')
    },
  )
})
