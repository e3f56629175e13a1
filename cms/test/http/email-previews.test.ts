import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestShop } from '../support'
import { startTestShop } from '../support'

/**
 * In test mode, /test-mode/emails previews every template (each kind about an order, for a
 * PDF and a printed book; the new download links for one book and for several; the chain
 * source alert once) as HTML and as its plain-text part,
 * beside the outbox.
 */
let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ seed: false, env: { SHOP_NAME: 'Preview Shop' } })
})

afterAll(async () => {
  await shop?.close()
})

describe('the e-mail previews', () => {
  it('list every template and render each as HTML and as text', async () => {
    const index = await fetch(`${shop.url}/test-mode/emails`)
    expect(index.status).toBe(200)
    const links = [
      ...(await index.text()).matchAll(/href="(\/test-mode\/emails\/[a-z-]+\/[a-z]+)"/g),
    ].map((m) => m[1]!)
    expect(links).toHaveLength(13)
    expect(links).toContain('/test-mode/emails/owner-chain-down/sample')
    expect(links).toContain('/test-mode/emails/download-links/several')
    for (const link of links) {
      const html = await fetch(`${shop.url}${link}`)
      expect(html.status, link).toBe(200)
      expect(html.headers.get('content-type')).toMatch(/text\/html/)
      expect(await html.text()).toContain('Preview Shop')
      const text = await fetch(`${shop.url}${link}?format=text`)
      expect(text.headers.get('content-type')).toMatch(/text\/plain/)
      expect(await text.text()).toMatch(/^Subject: .+\n\n[\s\S]*Preview Shop/)
    }
  })

  it('answer 404 for a template that does not exist', async () => {
    for (const path of [
      '/test-mode/emails/order-lost/pdf',
      '/test-mode/emails/order-paid/epub',
      '/test-mode/emails/order-paid/sample',
      '/test-mode/emails/owner-chain-down/pdf',
    ])
      expect((await fetch(`${shop.url}${path}`)).status, path).toBe(404)
  })
})
