import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { DESKTOP, launchBrowser, newPage, PHONE } from '../support/browser'
import { screenshot } from '../support/screenshots'
import { headingText } from './helpers'

/**
 * Every pay-screen status and the checkout and success pages, at phone and desktop widths,
 * with the order API answered by the test (page.route) so each status can be shown on demand.
 * Set SCREENSHOTS_DIR to keep screenshots for a visual review.
 */
const ADDRESS = '1BoatSLRHtKNngkdXEeobR76b53LETtpyT'
const TXID = '4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b'
const PRODUCT = {
  id: 'screens-book',
  name: 'Identity, Dual Vote and Trust (Printed)',
  type: 'PHYSICAL',
  priceEUR: '29.90',
  shortDescription: 'The printed edition, 240 pages, paperback.',
  coverImageUrl: null,
  currentStock: 50,
  isAvailable: true,
  shippingCostEUR: '0.00',
}

const STATUSES = [
  ['AWAITING_PAYMENT', 'Complete Your Payment'],
  ['PAYMENT_DETECTED', 'Payment Detected...'],
  ['UNDERPAID', 'Underpayment Received'],
  ['EXPIRED', 'Invoice Expired'],
  ['ERROR_FULFILLMENT', 'Order Error - Please contact support.'],
  ['PAID', 'Payment Confirmed!'],
] as const

async function answerApi(page: Page, status: string) {
  await page.route('**/api/**', async (route) => {
    const { pathname } = new URL(route.request().url())
    const json = (body: unknown, code = 200) =>
      route.fulfill({ status: code, contentType: 'application/json', body: JSON.stringify(body) })
    if (pathname === '/api/bsv-price') return json({ rate: 42.5 })
    if (pathname === '/api/shop-config')
      return json({
        testMode: true,
        explorerTxUrl: 'https://test.whatsonchain.com/tx/',
        network: 'testnet',
      })
    if (pathname === `/api/products/${PRODUCT.id}`) return json(PRODUCT)
    if (pathname === '/api/products') return json([PRODUCT])
    if (pathname.endsWith('/info')) {
      return json({
        currentStatus: status,
        txid: status === 'AWAITING_PAYMENT' ? null : TXID,
        gatewayExpiresAt: new Date(Date.now() + 14 * 60_000 + 32_000).toISOString(),
        paymentAddress: ADDRESS,
        amountBSV: '0.70352942',
        productName: PRODUCT.name,
        productType: 'PHYSICAL',
      })
    }
    if (pathname.endsWith('/payment-status')) {
      return json({ status, txid: status === 'AWAITING_PAYMENT' ? null : TXID, downloadUrl: null })
    }
    return json({ error: 'Not found.' }, 404)
  })
}

async function horizontalOverflow(page: Page) {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
}

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const)('checkout and pay screens on a %s', (label, viewport) => {
  it('lays out the checkout form without horizontal scrolling', async () => {
    const { context, page, errors } = await newPage(browser, viewport)
    await answerApi(page, 'AWAITING_PAYMENT')
    await page.goto(`/product/${PRODUCT.id}`)
    await page.getByRole('button', { name: 'Buy Now' }).click()
    await page.getByRole('group', { name: 'Shipping address' }).waitFor()
    await page.getByText('0.70352942 BSV').first().waitFor()
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    await screenshot(page, `checkout-${label}`)
    // the browser's required attributes come first, so the shipping address is filled in
    await page.getByLabel(/Full name/).fill('Ada Lovelace')
    await page.getByLabel(/Address line 1/).fill('1 Main Street')
    await page.getByLabel(/City/).fill('London')
    await page.getByLabel(/Postal code/).fill('N1 1AA')
    await page.getByRole('combobox', { name: /^Country/ }).selectOption('United Kingdom')
    await page.getByRole('button', { name: 'Proceed to Payment' }).click()
    await page.getByText('Please enter a valid email address.').waitFor()
    await screenshot(page, `checkout-errors-${label}`)
    expect(errors).toEqual([])
    await context.close()
  })

  it.each(STATUSES)('shows %s without horizontal scrolling', async (status, title) => {
    const { context, page, errors } = await newPage(browser, viewport)
    await answerApi(page, status)
    await page.goto('/pay/screens-order')
    await expect.poll(() => headingText(page)).toBe(title)
    expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
    if (status === 'AWAITING_PAYMENT' || status === 'UNDERPAID') {
      const qr = await page.getByRole('img', { name: /Payment QR code/ }).boundingBox()
      expect(qr?.width).toBe(220)
      expect(qr!.x + qr!.width).toBeLessThanOrEqual(viewport.width)
    }
    await screenshot(page, `pay-${status.toLowerCase()}-${label}`)
    if (status === 'PAID') {
      await page.waitForURL((url) => url.pathname === '/order/success/screens-order')
      await expect.poll(() => headingText(page)).toBe('Order Confirmed!')
      await page.getByText(/We will ship your book/).waitFor()
      expect(await horizontalOverflow(page)).toBeLessThanOrEqual(0)
      await screenshot(page, `success-physical-${label}`)
    }
    expect(errors).toEqual([])
    await context.close()
  })
})
