import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { launchBrowser, newPage, PHONE } from '../support/browser'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

const pathOf = (url: string) => new URL(url).pathname

describe('a visitor finding their way around the public site', () => {
  it('follows every footer link, and lands on the privacy policy in view', async () => {
    const { context, page, errors } = await newPage(browser)
    await page.goto('/')
    const footer = page.locator('footer')
    for (const [label, path] of [
      ['Papers', '/papers'],
      ['Proofs', '/proofs'],
      ['Store', '/store'],
      ['Updates', '/updates'],
    ] as const) {
      await footer
        .getByRole('navigation', { name: 'Explore' })
        .getByRole('link', { name: label, exact: true })
        .click()
      await page.waitForURL((url) => url.pathname === path)
      // route changes start at the top of the page (once React has drawn the new one: on a
      // loaded CI machine that took over a second, the poll's default wait)
      await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 10_000 }).toBe(0)
    }

    const legal = footer.getByRole('navigation', { name: 'Legal' })
    await legal.getByRole('link', { name: 'Terms of Use' }).click()
    await page.waitForURL((url) => url.pathname === '/legal' && url.hash === '#terms')
    await page.locator('#terms .legal-text p').first().waitFor()
    await expect.poll(() => page.locator('#terms-title').isVisible()).toBe(true)

    await legal.getByRole('link', { name: 'Privacy Policy' }).click()
    await page.waitForURL((url) => url.pathname === '/legal' && url.hash === '#privacy')
    await expect
      .poll(() =>
        page.evaluate(() => {
          const box = document.getElementById('privacy')!.getBoundingClientRect()
          return box.top >= 0 && box.top < window.innerHeight
        }),
      )
      .toBe(true)

    await page.getByRole('link', { name: /Back to the homepage/ }).click()
    await page.waitForURL((url) => url.pathname === '/')
    expect(errors).toEqual([])
    await context.close()
  })

  it('scrolls to #privacy when the legal page is opened directly', async () => {
    const { context, page } = await newPage(browser, PHONE)
    await page.goto('/legal#privacy')
    await page.locator('#privacy .legal-text p').first().waitFor()
    await expect
      .poll(() =>
        page.evaluate(() => {
          const box = document.getElementById('privacy-title')!.getBoundingClientRect()
          return box.top >= 0 && box.bottom <= window.innerHeight
        }),
      )
      .toBe(true)
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0)
    await context.close()
  })

  it('uses the phone menu to reach a page', async () => {
    const { context, page } = await newPage(browser, PHONE)
    await page.goto('/')
    const toggle = page.getByRole('button', { name: 'Menu' })
    expect(await toggle.getAttribute('aria-expanded')).toBe('false')
    await toggle.click()
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Proofs' })
      .click()
    await page.waitForURL((url) => url.pathname === '/proofs')
    await context.close()
  })

  it('opens an FAQ answer from the keyboard and the mouse', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/')
    const question = page.getByRole('button', { name: 'How does the dual vote work?' })
    await question.click()
    expect(await question.getAttribute('aria-expanded')).toBe('true')
    const answer = page.locator(`#${await question.getAttribute('aria-controls')}`)
    expect(await answer.isVisible()).toBe(true)
    expect(await answer.textContent()).toMatch(/two counts/)

    const other = page.getByRole('button', { name: 'What is this framework?' })
    await other.focus()
    await page.keyboard.press('Enter')
    expect(await other.getAttribute('aria-expanded')).toBe('true')
    await page.keyboard.press('Space')
    expect(await other.getAttribute('aria-expanded')).toBe('false')
    await context.close()
  })

  it('jumps from the hero to the resources and on to the wallet guide, and goes back', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/')
    await page.getByRole('link', { name: 'Explore resources' }).click()
    await page.waitForURL((url) => url.hash === '#resources')
    await page.locator('#resources a[href="/wallet-info"]').click()
    await page.waitForURL((url) => url.pathname === '/wallet-info')
    await page.getByRole('button', { name: 'Go Back' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await context.close()
  })

  it("goes home from the wallet guide's Go Back when there is no history", async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/wallet-info')
    await page.getByRole('button', { name: 'Go Back' }).click()
    await page.waitForURL((url) => url.pathname === '/')
    await context.close()
  })

  it('finds a book in the store, opens it and presses Buy Now', async () => {
    const { context, page, errors } = await newPage(browser, PHONE)
    await page.goto('/')
    await page.getByRole('link', { name: 'Get the book' }).click()
    await page.waitForURL((url) => url.pathname === '/store')
    const view = page.getByRole('link', { name: /^View / }).first()
    await view.click()
    await page.waitForURL((url) => url.pathname.startsWith('/product/'))
    await page.getByText(/available in stock$/).waitFor()
    await page.getByRole('button', { name: 'Buy Now' }).click()
    await page.waitForURL((url) => url.pathname === '/checkout')
    expect(pathOf(page.url())).toBe('/checkout')
    expect(errors).toEqual([])
    await context.close()
  })
})
