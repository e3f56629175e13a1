import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { baseURL, launchBrowser, newPage, PHONE } from '../support/browser'

/**
 * The landing page, the store and a product page arrive drawn
 * by the server, so a phone paints them before any JavaScript runs; the browser's React then
 * takes the same HTML over (hydration) without redrawing or complaining (decision 015).
 */
let browser: Browser
let product: { id: string; name: string }

beforeAll(async () => {
  browser = await launchBrowser()
  // Other suites add books to the same shop: use the seeded digital edition.
  const products = (await (await fetch(`${baseURL()}/api/products`)).json()) as {
    id: number | string
    name: string
  }[]
  const seeded = products.find((p) => p.name.startsWith('Identity, Dual Vote and Trust'))!
  product = { id: String(seeded.id), name: seeded.name }
})

afterAll(async () => {
  await browser?.close()
})

/** Every message React or the page writes to the console as an error (hydration mismatches). */
const consoleErrors = (page: Page) => {
  const errors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text())
  })
  return errors
}

describe('the first screens without JavaScript', () => {
  it('show the store, a product and the landing page as the shopper will use them', async () => {
    const context = await browser.newContext({
      baseURL: baseURL(),
      viewport: PHONE,
      javaScriptEnabled: false,
    })
    const page = await context.newPage()
    const stylesheets: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(request.url())
    })
    await page.goto('/store')
    expect(await page.title()).toBe('Our Books · Dual Vote')
    // Styled by the stylesheets inline in the page, none fetched.
    const grid = page.getByRole('list', { name: 'Books' })
    expect(await grid.evaluate((element) => getComputedStyle(element).display)).toBe('flex')
    expect(stylesheets).toEqual([])
    await expect
      .poll(() => page.getByRole('list', { name: 'Books' }).getByRole('listitem').count())
      .toBeGreaterThan(0)
    expect(await page.getByRole('link', { name: product.name }).count()).toBeGreaterThan(0)

    await page.goto(`/product/${product.id}`)
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(product.name)
    // Its work is JavaScript's: drawn disabled, so a tap before the app arrived is not lost.
    expect(await page.getByRole('button', { name: 'Buy Now' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: 'Menu' }).isDisabled()).toBe(true)

    await page.goto('/')
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1)
    await context.close()
  })
})

describe('the first screens with JavaScript', () => {
  it('/store is taken over without errors: prices in BSV arrive and links route in the page', async () => {
    const { context, page, errors } = await newPage(browser, PHONE)
    const logged = consoleErrors(page)
    const stylesheets: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'stylesheet') stylesheets.push(new URL(request.url()).pathname)
    })
    await page.goto('/store')
    // The rate is asked for once React runs: BSV prices mean the page is live.
    await page.getByText(/ BSV$/).first().waitFor()
    await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true))
    await page.getByRole('link', { name: product.name }).first().click()
    await page.waitForURL((url) => url.pathname === `/product/${product.id}`)
    await page.getByRole('heading', { level: 1, name: product.name }).waitFor()
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(
      true,
    )
    // The product screen's own stylesheet only: the store's and the shared ones came inline.
    expect(stylesheets.every((file) => !/\/(index|store|StatusMessage)-/.test(file))).toBe(true)
    expect(errors).toEqual([])
    expect(logged).toEqual([])
    await context.close()
  })

  it('a product page is taken over without errors, and Buy Now leads to checkout', async () => {
    const { context, page, errors } = await newPage(browser, PHONE)
    const logged = consoleErrors(page)
    await page.goto(`/product/${product.id}`)
    await page.getByText(/ BSV$/).first().waitFor()
    expect(await page.getByRole('button', { name: 'Buy Now' }).isEnabled()).toBe(true)
    await page.getByRole('button', { name: 'Buy Now' }).click()
    await page.waitForURL((url) => url.pathname === '/checkout')
    expect(errors).toEqual([])
    expect(logged).toEqual([])
    await context.close()
  })

  it('the landing page is taken over without errors: the menu opens on a phone', async () => {
    const { context, page, errors } = await newPage(browser, PHONE)
    const logged = consoleErrors(page)
    await page.goto('/')
    const toggle = page.getByRole('button', { name: 'Menu' })
    // Drawn disabled; the click waits until React enabled it.
    await toggle.click()
    expect(await toggle.getAttribute('aria-expanded')).toBe('true')
    expect(errors).toEqual([])
    expect(logged).toEqual([])
    await context.close()
  })
})
