import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { launchBrowser, newPage } from '../support/browser'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe('the site shell in Chromium', () => {
  it('opens the home page and follows every header link', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto('/')
    const nav = page.getByRole('navigation', { name: 'Main' })
    for (const [label, path] of [
      ['Papers', '/papers'],
      ['Proofs', '/proofs'],
      ['Store', '/store'],
      ['Updates', '/updates'],
    ] as const) {
      await nav.getByRole('link', { name: label, exact: true }).click()
      await page.waitForURL((url) => url.pathname === path)
      expect(new URL(page.url()).pathname).toBe(path)
    }
    expect(errors).toEqual([])
    await context.close()
  })

  it('shows the 404 page with a link home for an unknown route', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/no-such-page')
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toBe('404 Page Not Found')
    await page.getByRole('link', { name: /homepage/i }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await context.close()
  })
})
