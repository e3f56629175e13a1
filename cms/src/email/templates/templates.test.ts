import { describe, expect, it } from 'vitest'

import { ORDER_EMAIL_KINDS } from '../../collections/EmailOutbox'
import type { RenderedEmail } from '../renderOrderEmail'
import {
  renderChainOutageEmail,
  renderDownloadLinksEmail,
  renderOrderEmail,
} from '../renderOrderEmail'
import { sampleDownload, sampleDownloadLinks, sampleOrder } from '../preview'
import type { ShopInfo } from '.'

/**
 * E-mails that read like a shop's. Each message is HTML with a plain-text
 * part, under the shop's name and logo, with the order's recap (book, EUR and BSV, txid,
 * shipping address), the download link with its limits, and where to ask for help.
 */
const shop: ShopInfo = {
  name: 'Dual Vote Framework',
  publicUrl: 'https://shop.example',
  supportEmail: 'help@shop.example',
  explorerTxUrl: 'https://whatsonchain.com/tx/',
}
const TXID = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'

async function rendered(kind: (typeof ORDER_EMAIL_KINDS)[number], variant: 'pdf' | 'printed') {
  return renderOrderEmail({
    kind,
    order: sampleOrder(kind, variant),
    shop,
    download: sampleDownload(shop, kind, variant),
  })
}

/**
 * What every message has: HTML with a plain-text part free of markup, the shop's name and logo,
 * where to ask for help, and only absolute links (a mail client has no page to resolve a relative
 * one against).
 */
function expectShopLook(email: RenderedEmail) {
  expect(email.html).toMatch(/^<!DOCTYPE html/i)
  expect(email.html).toContain('Dual Vote Framework')
  expect(email.html).toContain('src="https://shop.example/email-logo.png"')
  expect(email.html).toContain('href="mailto:help@shop.example"')
  for (const [, href] of email.html.matchAll(/(?:href|src)="([^"]*)"/g))
    expect(href).toMatch(/^(https:\/\/|mailto:)/)
  expect(email.text).not.toMatch(/<[a-z]/i)
  for (const part of ['Dual Vote Framework', 'help@shop.example'])
    expect(email.text).toContain(part)
}

describe('the e-mail templates', () => {
  it.each(
    ORDER_EMAIL_KINDS.flatMap((kind) => [[kind, 'pdf'] as const, [kind, 'printed'] as const]),
  )(
    '%s (%s): shop name and logo, the recap, support, and a plain-text part',
    async (kind, variant) => {
      const email = await rendered(kind, variant)
      expectShopLook(email)
      expect(email.html).toContain('6f1c2b9e-4d7a-4c1e-9b3f-2a8d5e7c1f04')
      expect(email.html).toContain('0.60000000 BSV')
      expect(email.html).toContain('€24.90')
      for (const part of ['0.60000000 BSV', '€24.90']) expect(email.text).toContain(part)
      if (kind !== 'order-created') {
        expect(email.html).toContain(`href="https://whatsonchain.com/tx/${TXID}"`)
        expect(email.text).toContain(TXID)
      }
      if (variant === 'printed') {
        for (const line of ['Ada Reader', 'Via Roma 12', '40121 Bologna', 'Italy'])
          expect(email.text).toContain(line)
      } else {
        expect(email.text).not.toContain('Via Roma 12')
      }
    },
  )

  it('gives a PDF buyer the link, how many times it works and until when', async () => {
    const email = await rendered('order-paid', 'pdf')
    const url = 'https://shop.example/download/pdf/preview-token-not-valid-000000000000000'
    expect(email.subject).toBe('Payment received: The Dual Vote Framework')
    expect(email.html).toContain(`href="${url}"`)
    expect(email.text).toContain(url)
    expect(email.text).toMatch(/works 5 times, until \w{3}, \d\d \w{3} \d{4} \d\d:\d\d UTC/)
  })

  it.each(['pdf', 'several'])(
    'new download links (%s): shop name and logo, each link with its limits and order, support, and a plain-text part',
    async (variant) => {
      const links = sampleDownloadLinks(shop, variant)
      const email = await renderDownloadLinksEmail({ shop, links })
      expectShopLook(email)
      expect(email.subject).toBe(
        variant === 'pdf'
          ? 'Your new download link: The Dual Vote Framework'
          : 'Your new download links (2 books)',
      )
      for (const { order, download } of links) {
        expect(download.url).toMatch(/^https:\/\/shop\.example\/download\/pdf\//)
        expect(email.html).toContain(`href="${download.url}"`)
        expect(email.text).toContain(download.url)
        expect(email.text).toContain(order.id)
        expect(email.text).toContain(order.productName)
        expect(email.html).toContain(`href="https://whatsonchain.com/tx/${order.paymentTxid}"`)
      }
      expect(
        email.text.match(/works 5 times, until \w{3}, \d\d \w{3} \d{4} \d\d:\d\d UTC/g),
      ).toHaveLength(links.length)
      expect(email.text).toContain('links you had before keep their own limits')
      expect(email.html).toContain('href="https://shop.example/resend-link"')
    },
  )

  it('tells the owner why an order needs settling, and links to it', async () => {
    const email = await rendered('owner-settle', 'printed')
    expect(email.subject).toMatch(/^Needs settling: order 6f1c2b9e/)
    expect(email.text).toContain('less than the amount due arrived')
    expect(email.text).toContain('0.45000000 BSV')
    expect(email.html).toContain(
      'href="https://shop.example/admin/orders/6f1c2b9e-4d7a-4c1e-9b3f-2a8d5e7c1f04"',
    )
  })

  it('tells the owner that no look at the chain succeeds, since when, and what the source said', async () => {
    const email = await renderChainOutageEmail({
      shop,
      outage: {
        source: 'whatsonchain',
        origin: 'https://api.whatsonchain.com',
        since: '2026-11-27T09:15:00.000Z',
        alertAfterMinutes: 15,
        usage: {
          callsToday: 100_000,
          capPerDay: 100_000,
          throttledUntil: null,
          errorsLastHour: [{ kind: 'daily-cap', count: 1800 }],
          failingAddressCount: 2,
        },
      },
    })
    expect(email.subject).toBe('Chain source down: no look has succeeded for 15 minutes')
    expect(email.text).toContain('WhatsOnChain (https://api.whatsonchain.com)')
    expect(email.text).toContain('since Fri, 27 Nov 2026 09:15 UTC')
    expect(email.text).toContain('Requests today: 100,000 of 100,000.')
    expect(email.text).toContain('1,800 refusals at the daily cap')
    expect(email.text).toContain('2 address(es) failing')
    expect(email.text).toMatch(/daily request cap is spent/)
    expect(email.html).toContain('href="https://shop.example/admin/dashboard"')
    expectShopLook(email)
  })

  it('escapes what a buyer typed', async () => {
    const order = sampleOrder('order-created', 'printed')
    order.shippingName = '<script>alert(1)</script>'
    order.productName = 'Book <img src=x onerror=alert(1)>'
    const email = await renderOrderEmail({ kind: 'order-created', order, shop })
    expect(email.html).not.toContain('<script>alert(1)')
    expect(email.html).not.toContain('<img src=x')
    expect(email.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
  })
})
