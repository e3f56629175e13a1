import type { Page } from 'playwright-core'
import { expect } from 'vitest'

import { baseURL } from '../support/browser'

export type PublicProduct = {
  id: string | number
  name: string
  type: 'PDF' | 'PHYSICAL'
  priceEUR: string
}

export async function apiJson<T>(path: string, init?: RequestInit): Promise<T> {
  const response = await fetch(`${baseURL()}${path}`, {
    ...init,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...init?.headers },
  })
  const body = (await response.json()) as T
  if (!response.ok)
    throw new Error(
      `${init?.method ?? 'GET'} ${path} answered ${response.status}: ${JSON.stringify(body)}`,
    )
  return body
}

export async function productOfType(type: PublicProduct['type']): Promise<PublicProduct> {
  const products = await apiJson<PublicProduct[]>('/api/products')
  const product = products.find((p) => p.type === type)
  if (!product) throw new Error(`The seeded shop has no ${type} product.`)
  return product
}

export const headingText = (page: Page) =>
  page.getByRole('heading', { level: 1 }).first().textContent()

/** Store -> product -> 'Buy Now' -> /checkout, as a buyer would. */
export async function openCheckoutFromStore(page: Page, product: PublicProduct) {
  await page.goto('/store')
  await page.getByRole('link', { name: `View ${product.name}` }).click()
  await page.waitForURL((url) => url.pathname === `/product/${product.id}`)
  await page.getByRole('button', { name: 'Buy Now' }).click()
  await page.waitForURL((url) => url.pathname === '/checkout')
  await expect.poll(() => headingText(page)).toBe('Checkout')
}

/**
 * On the pay screen in test mode: pays with the test wallet, mines blocks while the payment
 * waits for confirmations, and returns once the success page is open.
 */
export async function payWithTestWalletUntilSuccess(page: Page, orderId: string) {
  await page.getByText('Test mode').waitFor()
  await page.getByRole('button', { name: 'Pay with test wallet' }).click()
  await expect
    .poll(() => headingText(page), { timeout: 30_000 })
    .toMatch(/^(Payment Detected\.\.\.|Payment Confirmed!|Order Confirmed!)$/)
  const deadline = Date.now() + 45_000
  while (!new URL(page.url()).pathname.startsWith(`/order/success/${orderId}`)) {
    if (Date.now() > deadline)
      throw new Error(
        `Order ${orderId} did not reach the success page; last heading: ${await headingText(page)}`,
      )
    const mine = page.getByRole('button', { name: 'Mine a block' })
    if (
      (await headingText(page)) === 'Payment Detected...' &&
      (await mine.isEnabled().catch(() => false))
    ) {
      await mine.click()
      await page
        .getByText(/^Block \d+ mined\.$/)
        .first()
        .waitFor({ timeout: 10_000 })
    }
    await page
      .waitForURL((url) => url.pathname === `/order/success/${orderId}`, { timeout: 6_000 })
      .catch(() => undefined)
  }
  await expect.poll(() => headingText(page)).toBe('Order Confirmed!')
}

export const orderIdFromPayUrl = (url: string) => {
  const match = /\/pay\/([^/?#]+)/.exec(new URL(url).pathname)
  if (!match?.[1]) throw new Error(`Not a pay screen URL: ${url}`)
  return decodeURIComponent(match[1])
}
