import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { launchBrowser, newPage, PHONE } from '../support/browser'
import {
  apiJson,
  headingText,
  openCheckoutFromStore,
  orderIdFromPayUrl,
  payWithTestWalletUntilSuccess,
  productOfType,
} from './helpers'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe('buying a book in Chromium with the test-mode wallet', () => {
  it('buys the PDF from the store and downloads a real PDF', async () => {
    const product = await productOfType('PDF')
    const { context, page, errors } = await newPage(browser)
    await openCheckoutFromStore(page, product)
    expect(await page.getByRole('group', { name: 'Shipping address' }).count()).toBe(0)

    await page.getByLabel(/Email address/).fill('pdf-buyer@example.com')
    await page.getByRole('checkbox', { name: /I agree to the/ }).check()
    await page.getByRole('button', { name: 'Proceed to Payment' }).click()
    await page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 15_000 })
    const orderId = orderIdFromPayUrl(page.url())

    await expect.poll(() => headingText(page)).toBe('Complete Your Payment')
    const info = await apiJson<{ amountBSV: string; paymentAddress: string }>(
      `/api/orders/${orderId}/info`,
    )
    await page.getByText(`${info.amountBSV} BSV`, { exact: true }).waitFor()
    await page.getByText(info.paymentAddress, { exact: true }).waitFor()
    expect(await page.getByRole('img', { name: /Payment QR code/ }).count()).toBe(1)
    expect(await page.getByRole('timer', { name: 'Time remaining' }).textContent()).toMatch(
      /^\d\d:\d\d$/,
    )

    await payWithTestWalletUntilSuccess(page, orderId)
    await page.getByText(orderId, { exact: true }).waitFor()
    const download = page.getByRole('link', { name: 'Download PDF' })
    const href = await download.getAttribute('href')
    expect(href).toMatch(/^\/download\/pdf\/[^/]+$/)

    const response = await context.request.get(href!)
    expect(response.status()).toBe(200)
    const body = await response.body()
    expect(body.subarray(0, 4).toString('latin1')).toBe('%PDF')

    await page.getByRole('link', { name: 'Continue Shopping' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    expect(errors).toEqual([])
    await context.close()
  })

  it('buys the printed book on a phone: shipping form, payment, then the shipping message', async () => {
    const product = await productOfType('PHYSICAL')
    const { context, page, errors } = await newPage(browser, PHONE)
    await openCheckoutFromStore(page, product)

    await page.getByLabel(/Email address/).fill('print-buyer@example.com')
    await page.getByLabel(/Full name/).fill('Ada Lovelace')
    await page.getByLabel(/Address line 1/).fill('1 Main Street')
    await page.getByLabel(/City/).fill('London')
    await page.getByLabel(/Postal code/).fill('N1 1AA')
    // The country comes from the ISO list: typing in its filter leaves one, which is chosen.
    await page.getByRole('searchbox', { name: 'Filter the list of countries' }).fill('united k')
    expect(await page.getByRole('combobox', { name: /^Country/ }).inputValue()).toBe(
      'United Kingdom',
    )
    await page.getByLabel('Phone (optional)').fill('+44 20 7946 0958')
    await page.getByRole('checkbox', { name: /I agree to the/ }).check()
    await page.getByRole('button', { name: 'Proceed to Payment' }).click()
    await page.waitForURL((url) => url.pathname.startsWith('/pay/'), { timeout: 15_000 })
    const orderId = orderIdFromPayUrl(page.url())

    // On a 360 px phone the QR code and the amount fit without horizontal scrolling.
    await page.getByRole('img', { name: /Payment QR code/ }).waitFor()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
    for (const target of [
      page.getByRole('img', { name: /Payment QR code/ }),
      page.locator('#pay-amount'),
    ]) {
      const box = await target.boundingBox()
      expect(box).not.toBeNull()
      expect(box!.x).toBeGreaterThanOrEqual(0)
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width)
    }

    await payWithTestWalletUntilSuccess(page, orderId)
    await page.getByText(/We will ship your book/).waitFor()
    expect(await page.getByRole('link', { name: 'Download PDF' }).count()).toBe(0)
    const status = await apiJson<{ status: string }>(`/api/orders/${orderId}/payment-status`)
    expect(status.status).toBe('PROCESSING_DELIVERY')
    expect(errors).toEqual([])
    await context.close()
  })
})
