import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { DESKTOP, launchBrowser, newPage, PHONE } from '../support/browser'
import { screenshot } from '../support/screenshots'
import { apiJson, headingText, productOfType } from '../checkout/helpers'

/**
 * The pay screen's address stays on one line on a phone, its spinner holds still for a visitor who
 * asks for less motion, and a store grid with two books does not leave half the row empty.
 */
let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

describe('layouts at phone and desktop widths', () => {
  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)(
    'shows the payment address and amount each on one line, with no sideways scroll (%s)',
    async (label, viewport) => {
      const pdf = await productOfType('PDF')
      const { orderId } = await apiJson<{ orderId: string }>('/api/orders/create', {
        method: 'POST',
        body: JSON.stringify({ productId: pdf.id, userEmail: 'layout@example.com' }),
      })
      const { context, page, errors } = await newPage(browser, viewport)
      await page.goto(`/pay/${orderId}`)
      await expect.poll(() => headingText(page), { timeout: 30_000 }).not.toBe('')
      await page.locator('.pay-copy__value').first().waitFor()
      const values = await page.locator('.pay-copy__value').evaluateAll((nodes) =>
        nodes.map((node) => {
          const style = getComputedStyle(node)
          const lineHeight = parseFloat(style.lineHeight) || parseFloat(style.fontSize) * 1.2
          return {
            text: node.textContent,
            lines: Math.round(node.getBoundingClientRect().height / lineHeight),
            fits: node.scrollWidth <= node.clientWidth + 1,
          }
        }),
      )
      expect(values.length).toBeGreaterThanOrEqual(2)
      for (const value of values) {
        expect(value.lines, `${value.text} on one line`).toBeLessThanOrEqual(1)
        expect(value.fits, `${value.text} fits`).toBe(true)
      }
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(scroll).toBeLessThanOrEqual(viewport.width)
      await screenshot(page, `pay-at-width-${label}`)
      expect(errors).toEqual([])
      await context.close()
    },
  )

  it('holds the waiting spinner still for a visitor who asks for less motion (phone)', async () => {
    const pdf = await productOfType('PDF')
    const { orderId } = await apiJson<{ orderId: string }>('/api/orders/create', {
      method: 'POST',
      body: JSON.stringify({ productId: pdf.id, userEmail: 'motion@example.com' }),
    })
    const { context, page } = await newPage(browser, PHONE, { reducedMotion: 'reduce' })
    await page.goto(`/pay/${orderId}`)
    const spinner = page.locator('.spinner').first()
    await spinner.waitFor()
    // A spin shortened to nothing but still repeated forever redraws at random angles (a flicker,
    // and a busy processor): once round, then still.
    await expect
      .poll(() =>
        spinner.evaluate(
          (node) => node.getAnimations().filter((a) => a.playState === 'running').length,
        ),
      )
      .toBe(0)
    await context.close()
  })

  it('centres a short last row of the store at the full card width (desktop)', async () => {
    const { context, page, errors } = await newPage(browser, DESKTOP)
    await page.goto('/store')
    await page.locator('.product-grid > li').first().waitFor()
    const layout = await page.evaluate(() => {
      const grid = document.querySelector('.product-grid')!.getBoundingClientRect()
      const cards = [...document.querySelectorAll('.product-grid > li')].map((li) =>
        li.getBoundingClientRect(),
      )
      return { grid, cards }
    })
    const columns = 4
    const cardWidth = (layout.grid.width - (columns - 1) * 24) / columns
    for (const card of layout.cards) expect(Math.abs(card.width - cardWidth)).toBeLessThan(2)
    const lastTop = Math.max(...layout.cards.map((c) => c.top))
    const lastRow = layout.cards.filter((c) => Math.abs(c.top - lastTop) < 1)
    const left = Math.min(...lastRow.map((c) => c.left)) - layout.grid.left
    const right = layout.grid.right - Math.max(...lastRow.map((c) => c.right))
    expect(Math.abs(left - right)).toBeLessThan(2)
    await screenshot(page, 'store-desktop', { fullPage: false })
    expect(errors).toEqual([])
    await context.close()
  })
})
