import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { DESKTOP, launchBrowser, newPage, PHONE } from '../support/browser'
import { apiJson, headingText, productOfType } from './helpers'

/**
 * The pay screen asks an underpaid buyer for what is left, not the whole amount again, and keeps
 * a detected payment from turning into "Invoice Expired" when the countdown runs out.
 */

type OrderInfo = { amountBSV: string; amountDueBSV: string; paymentAddress: string }

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe('the pay screen tells the truth', () => {
  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)(
    'asks an underpaid order for what is left, in the QR code and the copy field (%s)',
    async (_label, viewport) => {
      const pdf = await productOfType('PDF')
      const { orderId } = await apiJson<{ orderId: string }>('/api/orders/create', {
        method: 'POST',
        body: JSON.stringify({ productId: pdf.id, userEmail: 'underpaid@example.com' }),
      })
      await apiJson(`/api/test-mode/orders/${orderId}/pay`, {
        method: 'POST',
        body: JSON.stringify({ amountBSV: '0.1' }),
      })
      const { context, page, errors } = await newPage(browser, viewport)
      await page.goto(`/pay/${orderId}`)
      await expect.poll(() => headingText(page), { timeout: 30_000 }).toBe('Underpayment Received')
      const info = await apiJson<OrderInfo>(`/api/orders/${orderId}/info`)
      expect(info.amountDueBSV).not.toBe(info.amountBSV)
      const qr = page.getByRole('img', { name: /Payment QR code/ })
      expect(await qr.getAttribute('data-uri')).toBe(
        `bitcoin:${info.paymentAddress}?sv&amount=${info.amountDueBSV}`,
      )
      await page.getByText('Remaining amount (BSV)').waitFor()
      expect(await page.locator('.pay-copy__value').nth(1).textContent()).toBe(info.amountDueBSV)
      expect(errors).toEqual([])
      await context.close()
    },
  )

  it('keeps a detected payment past the countdown and follows the server to paid', async () => {
    const { context, page, errors } = await newPage(browser, PHONE)
    let status = 'PAYMENT_DETECTED'
    const expiresAt = new Date(Date.now() + 2000).toISOString()
    await page.route('**/api/orders/detected-order/**', async (route) => {
      const json = (body: unknown) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) })
      if (route.request().url().endsWith('/info'))
        return json({
          currentStatus: 'PAYMENT_DETECTED',
          txid: 'a'.repeat(64),
          gatewayExpiresAt: expiresAt,
          paymentAddress: '1BoatSLRHtKNngkdXEeobR76b53LETtpyT',
          amountBSV: '0.37250000',
          productName: 'Identity, Dual Vote and Trust (PDF)',
          productType: 'PDF',
          amountReceivedBSV: '0.37250000',
          amountDueBSV: '0.00000000',
        })
      return json({ status, txid: 'a'.repeat(64), downloadUrl: null, amountDueBSV: '0.00000000' })
    })
    await page.goto('/pay/detected-order')
    await expect.poll(() => headingText(page)).toBe('Payment Detected...')
    // Past the countdown, and past the next poll: still waiting for the confirmation.
    await page.waitForFunction((at) => Date.now() > Date.parse(at) + 6000, expiresAt, {
      timeout: 15_000,
    })
    expect(await headingText(page)).toBe('Payment Detected...')
    status = 'PAID'
    await expect.poll(() => headingText(page), { timeout: 15_000 }).toBe('Payment Confirmed!')
    expect(errors).toEqual([])
    await context.close()
  })
})
