import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { DESKTOP, launchBrowser, newPage, PHONE } from '../support/browser'
import { apiJson, productOfType } from '../checkout/helpers'
import { seriousViolations } from '../public/a11y'
import { overlappingText } from '../support/layout'
import { screenshot } from '../support/screenshots'

/**
 * Every admin screen at phone and desktop width, with no sideways scroll, no
 * text box overlapping another (labels over values in the order view), the top menu on one line,
 * and no serious or critical axe violation (colour contrast included).
 */
let browser: Browser
let orderId: string

beforeAll(async () => {
  browser = await launchBrowser()
  const printed = await productOfType('PHYSICAL')
  ;({ orderId } = await apiJson<{ orderId: string }>('/api/orders/create', {
    method: 'POST',
    body: JSON.stringify({
      productId: printed.id,
      userEmail: 'a.very.long.address.for.layout@subdomain.example-bookshop.com',
      tokenAddress: null,
      shippingName: 'Ada Reader',
      shippingAddressLine1: 'Via Roma 12',
      shippingCity: 'Bologna',
      shippingPostalCode: '40121',
      shippingCountry: 'Italy',
    }),
  }))
})

afterAll(async () => {
  await browser?.close()
})

async function signIn(page: Page) {
  const { email, password } = inject('demoAdmin')
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/dashboard')
}

/**
 * Boxes inside `root` that overlap one another, each pair once as "a | b": every run of text and
 * every element, but for an element and what it holds. A cell's label on a phone is drawn by
 * `td[data-label]::before`, which has no box of its own to read: it is drawn here as an element
 * of its own in the same place and style (the pseudo-element taken away), and measured as one.
 */
async function overlappingBoxes(root: Locator): Promise<string[]> {
  return root.evaluate((container) => {
    const doc = container.ownerDocument
    const off = doc.createElement('style')
    off.textContent = '[data-label-measured]::before { content: none !important; }'
    doc.head.append(off)
    for (const cell of container.querySelectorAll<HTMLElement>('td[data-label]')) {
      const before = getComputedStyle(cell, '::before')
      if (before.content === 'none' || before.display === 'none') continue
      const label = doc.createElement('span')
      for (const property of before)
        if (property !== 'content')
          label.style.setProperty(property, before.getPropertyValue(property))
      label.textContent = cell.dataset.label ?? ''
      cell.setAttribute('data-label-measured', '')
      cell.prepend(label)
    }
    const boxes: { node: Node; name: string; r: DOMRect }[] = []
    const walker = doc.createTreeWalker(container, NodeFilter.SHOW_TEXT)
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim()
      if (!text) continue
      const range = doc.createRange()
      range.selectNodeContents(node)
      for (const r of range.getClientRects())
        if (r.width > 0 && r.height > 0) boxes.push({ node, name: text.slice(0, 40), r })
    }
    for (const element of container.querySelectorAll('td *')) {
      const r = element.getBoundingClientRect()
      const name = `<${element.tagName.toLowerCase()}> ${element.textContent?.trim().slice(0, 30)}`
      if (r.width > 0 && r.height > 0) boxes.push({ node: element, name, r })
    }
    const out: string[] = []
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!]
        if (a.node.contains(b.node) || b.node.contains(a.node)) continue
        const x = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left)
        const y = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top)
        if (x > 1 && y > 1) out.push(`${a.name} | ${b.name}`)
      }
    return out
  })
}

const screens = [
  ['dashboard', '/admin/dashboard'],
  ['products', '/admin/products'],
  ['orders', '/admin/orders'],
  ['order', () => `/admin/orders/${orderId}`],
  ['addresses', '/admin/addresses'],
  ['profile', '/admin/profile'],
  ['settings', '/admin/settings'],
] as const

describe('admin screens at phone and desktop widths', () => {
  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const)('hold together (%s)', async (label, viewport) => {
    const { context, page, errors } = await newPage(browser, viewport)
    await signIn(page)
    const problems: string[] = []
    for (const [name, path] of screens) {
      await page.goto(typeof path === 'function' ? path() : path)
      await page.locator('main h1').first().waitFor()
      await page.waitForLoadState('networkidle')
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth)
      if (scroll > viewport.width) problems.push(`${name}: scrolls sideways (${scroll} px)`)
      for (const pair of await overlappingText(page)) problems.push(`${name}: overlap ${pair}`)
      const menuLines = await page.evaluate(() => {
        const links = [...document.querySelectorAll('.admin-nav a, .admin-nav button')].filter(
          (el) => (el as HTMLElement).offsetParent !== null,
        )
        return new Set(links.map((el) => Math.round(el.getBoundingClientRect().top))).size
      })
      // On a phone the side menu becomes a top bar (on a desktop it is a column by design).
      if (label === 'phone' && menuLines > 1)
        problems.push(`${name}: the top menu wraps (${menuLines} lines)`)
      // An e-mail breaks only after '@', '.' or '-', never inside a name or a domain label.
      const brokenEmails = await page.evaluate(() => {
        const isEmail = (el: Element) =>
          /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(el.textContent?.trim() ?? '')
        const holders = [...document.querySelectorAll('main *')].filter(
          (el) => isEmail(el) && ![...el.children].some(isEmail),
        )
        const out: string[] = []
        for (const holder of holders) {
          const chars: { c: string; top: number }[] = []
          const walker = document.createTreeWalker(holder, NodeFilter.SHOW_TEXT)
          for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent ?? ''
            for (let i = 0; i < text.length; i++) {
              if (!text[i]!.trim()) continue
              const range = document.createRange()
              range.setStart(node, i)
              range.setEnd(node, i + 1)
              chars.push({ c: text[i]!, top: Math.round(range.getBoundingClientRect().top) })
            }
          }
          for (let i = 1; i < chars.length; i++)
            if (chars[i]!.top > chars[i - 1]!.top + 2 && !'@.-'.includes(chars[i - 1]!.c))
              out.push(`${chars[i - 1]!.c}|${chars[i]!.c}`)
        }
        return out
      })
      if (brokenEmails.length > 0)
        problems.push(`${name}: an e-mail breaks mid-word (${brokenEmails.join(' ')})`)
      for (const v of await seriousViolations(page))
        problems.push(`${name}: axe ${v.id} (${v.impact}) ${v.targets.slice(0, 3).join(', ')}`)
      await screenshot(page, `admin-${name}-${label}`)
    }
    expect(problems).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })
})

describe('the order page of an order with payments', () => {
  let paidOrderId: string

  beforeAll(async () => {
    const printed = await productOfType('PHYSICAL')
    ;({ orderId: paidOrderId } = await apiJson<{ orderId: string }>('/api/orders/create', {
      method: 'POST',
      body: JSON.stringify({
        productId: printed.id,
        userEmail: 'payments.layout@example.com',
        tokenAddress: null,
        shippingName: 'Ada Reader',
        shippingAddressLine1: 'Via Roma 12',
        shippingCity: 'Bologna',
        shippingPostalCode: '40121',
        shippingCountry: 'Italy',
      }),
    }))
    // Two payments: one confirmed in a block, one still unconfirmed (each badge once).
    const { amountBSV } = await apiJson<{ amountBSV: string }>(`/api/orders/${paidOrderId}/info`)
    const half = (Number(amountBSV) / 2).toFixed(8)
    await apiJson(`/api/test-mode/orders/${paidOrderId}/pay`, {
      method: 'POST',
      body: JSON.stringify({ amountBSV: half }),
    })
    await apiJson('/api/test-mode/mine', { method: 'POST', body: '{}' })
    await apiJson(`/api/test-mode/orders/${paidOrderId}/pay`, { method: 'POST', body: '{}' })
  })

  it.each([
    ['390', { width: 390, height: 844 }],
    ['1280', { width: 1280, height: 900 }],
  ] as const)(
    'shows the payments table with no two of its boxes overlapping (%s px)',
    async (label, viewport) => {
      // At 390 px a label wider than its column runs under its value ("Confirmation", its badge).
      const { context, page, errors } = await newPage(browser, viewport)
      await signIn(page)
      // The payment worker records both payments, the first of them confirmed.
      await expect
        .poll(
          async () => {
            const response = await context.request.get(`/api/admin/orders/${paidOrderId}`)
            const detail = (await response.json()) as {
              payments?: { confirmedAt: string | null }[]
            }
            return (detail.payments ?? []).map((p) => Boolean(p.confirmedAt)).sort()
          },
          { timeout: 45_000, interval: 500 },
        )
        .toEqual([false, true])
      await page.goto(`/admin/orders/${paidOrderId}`)
      const table = page
        .locator('.admin-panel', { has: page.getByRole('heading', { name: 'Payments received' }) })
        .locator('table')
      await expect.poll(() => table.locator('tbody tr').count()).toBe(2)
      await screenshot(page, `admin-order-payments-${label}`)
      expect(await overlappingBoxes(table)).toEqual([])
      const scroll = await page.evaluate(() => document.documentElement.scrollWidth)
      expect(scroll).toBeLessThanOrEqual(viewport.width)
      expect(errors).toEqual([])
      await context.close()
    },
  )
})
