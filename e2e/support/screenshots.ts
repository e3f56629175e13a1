import fs from 'node:fs'
import path from 'node:path'
import type { Page } from 'playwright-core'

/**
 * Keeps a screenshot for a visual review when SCREENSHOTS_DIR is set (a folder outside the
 * repository): `SCREENSHOTS_DIR=/tmp/shop-screens npm run test:e2e`. A full-page screenshot costs
 * Chromium a second or two of CPU, so a run takes none unless asked.
 */
export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true }: { fullPage?: boolean } = {},
): Promise<void> {
  const dir = process.env.SCREENSHOTS_DIR
  if (!dir) return
  fs.mkdirSync(dir, { recursive: true })
  await page.screenshot({
    path: path.join(dir, `${name}.png`),
    fullPage,
    animations: 'disabled',
    timeout: 15_000,
  })
}
