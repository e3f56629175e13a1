import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { launchBrowser, newPage } from '../support/browser'
import { apiJson, headingText, productOfType } from './helpers'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe('checkout and the pay screen in Chromium', () => {
  it('sends a visitor without a product from /checkout to /store', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/checkout')
    await page.waitForURL((url) => url.pathname === '/store')
    expect(new URL(page.url()).pathname).toBe('/store')
    await context.close()
  })

  it('shows the validation messages and toasts before creating an order', async () => {
    const product = await productOfType('PDF')
    const { context, page, errors } = await newPage(browser)
    let createCalls = 0
    page.on('request', (request) => {
      if (request.url().endsWith('/api/orders/create')) createCalls += 1
    })
    await page.goto(`/product/${product.id}`)
    await page.getByRole('button', { name: 'Buy Now' }).click()
    await expect.poll(() => headingText(page)).toBe('Checkout')

    await page.getByRole('button', { name: 'Proceed to Payment' }).click()
    await page.getByText('Please enter a valid email address.').waitFor()
    await page.getByText('Please correct the errors on the form.').waitFor()

    await page.getByLabel(/Email address/).fill('buyer@')
    expect(await page.getByText('Please enter a valid email address.').count()).toBe(0)
    await page.getByRole('button', { name: 'Proceed to Payment' }).click()
    await page.getByText('Please enter a valid email address.').waitFor()

    await page.getByLabel(/Email address/).fill('buyer@example.com')
    await page.getByRole('button', { name: 'Proceed to Payment' }).click()
    await page.getByText('You must agree to the Terms of Use and Privacy Policy.').waitFor()
    expect(createCalls).toBe(0)
    expect(new URL(page.url()).pathname).toBe('/checkout')
    expect(errors).toEqual([])
    await context.close()
  })

  it('keeps the physical book order from submitting while required shipping fields are empty', async () => {
    const product = await productOfType('PHYSICAL')
    const { context, page } = await newPage(browser)
    await page.goto(`/product/${product.id}`)
    await page.getByRole('button', { name: 'Buy Now' }).click()
    await page.getByRole('group', { name: 'Shipping address' }).waitFor()
    await page.getByLabel(/Email address/).fill('buyer@example.com')
    await page.getByRole('checkbox', { name: /I agree to the/ }).check()
    await page.getByRole('button', { name: 'Proceed to Payment' }).click()
    // the browser's required attribute stops the submit on the first empty field
    expect(
      await page
        .getByLabel(/Full name/)
        .evaluate((input) => (input as HTMLInputElement).validity.valueMissing),
    ).toBe(true)
    expect(new URL(page.url()).pathname).toBe('/checkout')
    await context.close()
  })

  it("shows 'Invoice Expired' once the browser clock passes the order's expiry", async () => {
    const product = await productOfType('PDF')
    const created = await apiJson<{ success: boolean; orderId: string }>('/api/orders/create', {
      method: 'POST',
      body: JSON.stringify({
        productId: product.id,
        userEmail: 'late-buyer@example.com',
        tokenAddress: null,
      }),
    })
    expect(created.success).toBe(true)
    const info = await apiJson<{ gatewayExpiresAt: string }>(`/api/orders/${created.orderId}/info`)
    const expiresAt = Date.parse(info.gatewayExpiresAt)
    expect(expiresAt).toBeGreaterThan(Date.now())

    const { context, page, errors } = await newPage(browser)
    await page.clock.install()
    await page.goto(`/pay/${created.orderId}`)
    await expect.poll(() => headingText(page)).toBe('Complete Your Payment')
    await page.getByRole('timer', { name: 'Time remaining' }).waitFor()

    await page.clock.fastForward(expiresAt - Date.now() + 2_000)
    await expect.poll(() => headingText(page)).toBe('Invoice Expired')
    expect(await page.getByRole('img', { name: /Payment QR code/ }).count()).toBe(0)
    await page.getByRole('link', { name: 'Back to the Store' }).click()
    await page.waitForURL((url) => url.pathname === '/store')
    expect(errors).toEqual([])
    await context.close()
  })

  it("shows 'Order not found.' for an unknown order", async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/pay/no-such-order')
    await page.getByText('Order not found.').waitFor()
    await context.close()
  })
})
