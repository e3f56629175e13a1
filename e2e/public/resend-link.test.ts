import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { baseURL, launchBrowser, newPage } from '../support/browser'
import { overlappingText } from '../support/layout'
import { screenshot } from '../support/screenshots'
import { apiJson, headingText, productOfType } from '../checkout/helpers'

/**
 * A buyer whose download link is used up finds their way, without help, to a working new one:
 * the link's page (or the success page of the old order) leads to /resend-link, the e-mail
 * arrives in the outbox, and its link downloads the PDF while the old link stays refused.
 */
let browser: Browser
let orderId: string
let oldLink: string
const BUYER = 'lost-my-link@example.com'
const WIDTHS = [
  ['1280', { width: 1280, height: 900 }],
  ['390', { width: 390, height: 844 }],
] as const

beforeAll(async () => {
  browser = await launchBrowser()
  const pdf = await productOfType('PDF')
  ;({ orderId } = await apiJson<{ orderId: string }>('/api/orders/create', {
    method: 'POST',
    body: JSON.stringify({ productId: pdf.id, userEmail: BUYER }),
  }))
  await apiJson(`/api/test-mode/orders/${orderId}/pay`, { method: 'POST', body: '{}' })
  await apiJson('/api/test-mode/mine', { method: 'POST', body: '{}' })
  // The payment worker confirms the payment and delivers the link (polled: no hook may poll).
  const deadline = Date.now() + 45_000
  for (;;) {
    const { downloadUrl } = await apiJson<{ downloadUrl: string | null }>(
      `/api/orders/${orderId}/payment-status`,
    )
    if (downloadUrl) {
      oldLink = downloadUrl
      break
    }
    if (Date.now() > deadline) throw new Error(`Order ${orderId} got no download link in 45 s.`)
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  for (let i = 0; i < 5; i += 1) {
    const served = await fetch(`${baseURL()}${oldLink}`)
    expect(served.status).toBe(200)
    await served.arrayBuffer()
  }
})

afterAll(async () => {
  await browser?.close()
})

async function expectFitsTheWidth(page: Page, width: number) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width)
  expect(await overlappingText(page)).toEqual([])
}

describe('a buyer whose download link is used up', () => {
  it.each(WIDTHS)(
    'reads what happened on the link page and on the old order, each leading to /resend-link (%s px)',
    async (label, viewport) => {
      const { context, page, errors } = await newPage(browser, viewport)
      const response = await page.goto(oldLink)
      expect(response?.status()).toBe(410)
      expect(await headingText(page)).toBe('Download limit reached')
      await expectFitsTheWidth(page, viewport.width)
      await screenshot(page, `download-used-up-${label}`)

      // The old order's success page (the pay screen sends a returning buyer there).
      await page.goto(`/pay/${orderId}`)
      await page.waitForURL((url) => url.pathname === `/order/success/${orderId}`, {
        timeout: 15_000,
      })
      await page.getByText(/has been used the maximum number of times/).waitFor()
      expect(await page.getByRole('link', { name: 'Download PDF' }).count()).toBe(0)
      await expectFitsTheWidth(page, viewport.width)
      await screenshot(page, `order-success-used-up-${label}`)
      await page.getByRole('link', { name: 'Get a new download link' }).click()
      await page.waitForURL((url) => url.pathname === '/resend-link')
      await expect.poll(() => headingText(page)).toBe('Lost your download link?')
      await expectFitsTheWidth(page, viewport.width)
      await screenshot(page, `resend-link-${label}`)
      expect(errors).toEqual([])
      await context.close()
    },
  )

  it('asks at /resend-link, gets the e-mail, and its new link downloads the PDF; the old one stays refused', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto(oldLink)
    await page.getByRole('link', { name: 'Get a new download link' }).click()
    await page.waitForURL((url) => url.pathname === '/resend-link')
    await page.getByLabel('Email address').fill(BUYER)
    await page.getByRole('button', { name: 'Send me a new link' }).click()
    await expect
      .poll(() => page.getByRole('status').textContent())
      .toContain(`Request received for ${BUYER}.`)
    await screenshot(page, 'resend-link-sent-1280')

    // The payment worker looks the orders up and sends the message: the test-mode outbox shows it.
    let fresh: string | undefined
    await expect
      .poll(
        async () => {
          await page.goto('/test-mode/outbox')
          const message = page.locator('article', { hasText: 'Your new download link' })
          if ((await message.count()) === 0) return undefined
          expect(await message.first().textContent()).toContain(BUYER)
          const href = await message
            .first()
            .getByRole('link', { name: /^Download / })
            .getAttribute('href')
          fresh = href ? new URL(href).pathname : undefined
          return fresh
        },
        { timeout: 45_000, interval: 500 },
      )
      .toMatch(/^\/download\/pdf\/[\w-]+$/)
    expect(fresh).not.toBe(oldLink)

    const served = await context.request.get(fresh!)
    expect(served.status()).toBe(200)
    expect((await served.body()).subarray(0, 4).toString('latin1')).toBe('%PDF')
    expect((await context.request.get(oldLink)).status()).toBe(410)
    expect(errors).toEqual([])
    await context.close()
  })
})
