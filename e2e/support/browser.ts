import fs from 'node:fs'

import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core'
import { chromium } from 'playwright-core'
import { inject } from 'vitest'

/**
 * Debian's Chromium headless shell (installed by .ci/run; the headless mode Playwright itself
 * uses), driven by playwright-core, or the full browser where only that is installed. The same
 * Blink and V8; measured here, the full browser in headless mode spent 1.6 CPU-s every 10 s on an
 * idle page (the shell 0.01) and twice the shell's CPU loading and drawing the shop's pages.
 */
export const CHROMIUM_PATH =
  process.env.CHROMIUM_PATH ??
  ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file)) ??
  '/usr/bin/chromium'

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  })
}

/** This worker's shop (global-setup.ts starts one per browser worker). */
export const baseURL = () => {
  const urls = inject('baseURLs')
  return urls[(Number(process.env.VITEST_POOL_ID ?? 1) - 1) % urls.length]!
}

export const PHONE = { width: 360, height: 740 }
export const DESKTOP = { width: 1366, height: 900 }

/**
 * A fresh context (cookies, storage) on the shop, failing the test on any page error; `options`
 * for what a visitor's browser may ask for (reduced motion, a colour scheme).
 */
export async function newPage(
  browser: Browser,
  viewport: { width: number; height: number } = DESKTOP,
  options: Omit<BrowserContextOptions, 'baseURL' | 'viewport'> = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ ...options, baseURL: baseURL(), viewport })
  const page = await context.newPage()
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(error.message))
  return { context, page, errors }
}
