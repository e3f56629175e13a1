import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { baseURL, launchBrowser } from '../support/browser'

/**
 * Decision 017: the public pages open without Cross-Origin-Opener-Policy, so a phone does not
 * start a new renderer process for a visitor's first page. A site that opens the shop with
 * `window.open` would then keep a handle on the shop's window and could later send it to a
 * look-alike pay page; the page sees that opener and asks for itself again with the policy,
 * which closes the other site's handle. Checked in Chromium, which applies the policy.
 */
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

declare global {
  interface Window {
    shop?: Window | null
  }
}

/** Opens `url` from `opener` with window.open, as a script on that page would. */
async function openFrom(opener: Page, url: string): Promise<Page> {
  const [popup] = await Promise.all([
    opener.context().waitForEvent('page'),
    opener.evaluate((href) => {
      window.shop = window.open(href)
    }, url),
  ])
  return popup
}

/** The address the page's document was loaded from (before any history.replaceState). */
const documentUrl = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('navigation')[0]!.name)

const storeReady = (page: Page) =>
  expect
    .poll(() => page.getByRole('list', { name: 'Books' }).getByRole('listitem').count())
    .toBeGreaterThan(0)

describe('a public page and the window that opened it', () => {
  it('opened by another site, moves to a window of its own and closes that handle', async () => {
    const context = await browser.newContext()
    try {
      // A page of another origin (the browser's blank page has an opaque one).
      const opener = await context.newPage()
      const popup = await openFrom(opener, `${baseURL()}/store`)
      await expect.poll(() => opener.evaluate(() => window.shop?.closed)).toBe(true)
      // The shop asked for itself again with the policy, then dropped the marker.
      await expect.poll(() => popup.url()).toBe(`${baseURL()}/store`)
      await storeReady(popup)
      expect(await popup.evaluate(() => window.opener as unknown)).toBeNull()
      expect(await documentUrl(popup)).toBe(`${baseURL()}/store?isolate=`)
    } finally {
      await context.close()
    }
  })

  it('opened by the shop itself, or visited directly, loads once', async () => {
    const context = await browser.newContext({ baseURL: baseURL() })
    try {
      const page = await context.newPage()
      const response = await page.goto('/papers')
      expect(response!.headers()['cross-origin-opener-policy']).toBeUndefined()
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count()).toBeGreaterThan(0)
      expect(await documentUrl(page)).toBe(`${baseURL()}/papers`)

      const popup = await openFrom(page, `${baseURL()}/store`)
      await storeReady(popup)
      expect(await page.evaluate(() => window.shop?.closed)).toBe(false)
      expect(await documentUrl(popup)).toBe(`${baseURL()}/store`)
      expect(popup.url()).toBe(`${baseURL()}/store`)
    } finally {
      await context.close()
    }
  })
})
