import type { Browser, Page } from 'playwright-core'
import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { baseURL, DESKTOP, launchBrowser, newPage, PHONE } from '../support/browser'
import { screenshot } from '../support/screenshots'

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/admin/login')
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForURL((url) => url.pathname === '/admin/dashboard')
}

async function coverPng(): Promise<Buffer> {
  return sharp({
    create: { width: 300, height: 450, channels: 3, background: { r: 29, g: 49, b: 87 } },
  })
    .png()
    .toBuffer()
}

async function bookPdf(): Promise<Buffer> {
  const document = await PDFDocument.create()
  document.addPage([300, 400]).drawText('E2E book', { x: 20, y: 360, size: 14 })
  return Buffer.from(await document.save())
}

type PublicProduct = { id: number; name: string; type: string; priceEUR: string }
const publicProducts = async () =>
  (await (await fetch(`${baseURL()}/api/products`)).json()) as PublicProduct[]

const productName = `E2E Handbook ${Date.now()}`
let createdProductId = ''
let shippedOrderId = ''

describe('the admin area in Chromium', () => {
  it('sends every signed-out visit of an admin route to the sign-in screen', async () => {
    const { context, page, errors } = await newPage(browser)
    for (const path of [
      '/admin',
      '/admin/dashboard',
      '/admin/products',
      '/admin/products/new',
      '/admin/products/edit/1',
      '/admin/orders',
      '/admin/orders/00000000-0000-4000-8000-000000000000',
      '/admin/profile',
      '/admin/anything',
    ]) {
      await page.goto(path)
      await page.waitForURL((url) => url.pathname === '/admin/login')
      await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true)
    }
    expect(errors).toEqual([])
    await context.close()
  })

  it('refuses wrong credentials with an inline message and a toast', async () => {
    const { context, page } = await newPage(browser)
    await page.goto('/admin/login')
    await page.getByLabel('Email').fill(inject('demoAdmin').email)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect
      .poll(() => page.locator('.admin-alert--error').textContent())
      .toBe('Invalid email or password.')
    expect(new URL(page.url()).pathname).toBe('/admin/login')
    await context.close()
  })

  it('signs in, creates a book with a cover and a PDF, sees it in the store, edits, deletes and restores it', async () => {
    const { email, password } = inject('demoAdmin')
    const { context, page, errors } = await newPage(browser)
    page.on('dialog', (dialog) => void dialog.accept())
    await signIn(page, email, password)
    await expect.poll(() => page.getByText('Welcome, Demo Admin!').isVisible()).toBe(true)

    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Products' })
      .click()
    await page.getByRole('link', { name: '+ New product' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/products/new')
    // Defaults of spec section 5: Digital, available; the digital file input is there for Digital only.
    expect(await page.getByLabel('Type').inputValue()).toBe('DIGITAL')
    expect(await page.getByLabel('Available in the store').isChecked()).toBe(true)
    await page.getByLabel('Type').selectOption('PHYSICAL')
    expect(await page.locator('#digitalFile').count()).toBe(0)
    await page.getByLabel('Type').selectOption('DIGITAL')

    await page.getByLabel('Name').fill(productName)
    await page.getByLabel('Price (EUR)').fill('12.50')
    await page.getByLabel('Total stock').fill('50')
    await page.getByLabel('Current stock').fill('50')
    await page.getByLabel('Short description').fill('A book created by the browser test.')
    await page
      .locator('#coverImageFile')
      .setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: await coverPng() })
    await page
      .locator('#digitalFile')
      .setInputFiles({ name: 'handbook.pdf', mimeType: 'application/pdf', buffer: await bookPdf() })
    await page.getByRole('button', { name: 'Create product' }).click()
    await expect.poll(() => page.getByText('Product created successfully!').isVisible()).toBe(true)
    await page.waitForURL((url) => url.pathname === '/admin/products')

    const row = page.locator('tr', { hasText: productName })
    await expect.poll(() => row.count()).toBe(1)
    createdProductId = (await row.getAttribute('data-product-id'))!
    expect(await row.locator('img').getAttribute('src')).toMatch(/^\/media\/.+\.png\?t=\d+$/)
    expect(await row.getByText('Available').count()).toBe(1)

    // The public store lists it at once, with its price and cover.
    const listed = (await publicProducts()).find((p) => p.name === productName)
    expect(listed).toMatchObject({ type: 'PDF', priceEUR: '12.50' })
    const store = await context.newPage()
    await store.goto(`/product/${listed!.id}`)
    await expect
      .poll(() => store.getByRole('heading', { name: productName }).isVisible())
      .toBe(true)
    await store.close()

    // Edit: a new price.
    await row.getByRole('link', { name: `Edit ${productName}` }).click()
    await page.waitForURL((url) => url.pathname === `/admin/products/edit/${createdProductId}`)
    await expect.poll(() => page.getByLabel('Name').inputValue()).toBe(productName)
    expect(await page.getByText('handbook.pdf').count()).toBe(1)
    expect(await page.getByLabel('Current stock').inputValue()).toBe('50')
    // A buyer takes a copy while the form is open: saving must not put it back on the shelf.
    const bought = await fetch(`${baseURL()}/api/orders/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ productId: listed!.id, userEmail: 'reader@example.com' }),
    })
    expect(bought.status).toBe(201)
    await page.getByLabel('Price (EUR)').fill('15')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await expect.poll(() => page.getByText('Product updated successfully!').isVisible()).toBe(true)
    await page.waitForURL((url) => url.pathname === '/admin/products')
    expect((await publicProducts()).find((p) => p.name === productName)).toMatchObject({
      priceEUR: '15.00',
      currentStock: 49,
    })

    // Delete (after confirming): dimmed, last, gone from the store. Then restore it.
    await page.getByRole('button', { name: `Delete ${productName}` }).click()
    await expect
      .poll(() => page.getByText(`Product "${productName}" soft-deleted!`).isVisible())
      .toBe(true)
    await expect
      .poll(() => page.locator('tbody tr').last().getAttribute('data-product-id'))
      .toBe(createdProductId)
    expect(await page.locator('tbody tr').last().getAttribute('class')).toContain(
      'admin-row--deleted',
    )
    expect((await publicProducts()).some((p) => p.name === productName)).toBe(false)

    await page.getByRole('button', { name: `Restore ${productName}` }).click()
    await expect
      .poll(() => page.getByText(`Product "${productName}" restored!`).isVisible())
      .toBe(true)
    await expect
      .poll(async () => (await publicProducts()).some((p) => p.name === productName))
      .toBe(true)

    // Server errors land under their field.
    await page.goto('/admin/products/new')
    await page.getByLabel('Name').fill('Bad file')
    await page.getByLabel('Price (EUR)').fill('1')
    await page.getByLabel('Total stock').fill('1')
    await page.getByLabel('Current stock').fill('1')
    await page
      .locator('#digitalFile')
      .setInputFiles({ name: 'fake.pdf', mimeType: 'application/pdf', buffer: await coverPng() })
    await page.getByRole('button', { name: 'Create product' }).click()
    await expect
      .poll(() => page.locator('#digitalFile-error').textContent())
      .toBe('Digital file must be a PDF or EPUB file (.pdf or .epub).')
    expect(errors).toEqual([])
    await context.close()
  })

  it('marks a paid physical order as shipped', async () => {
    const physical = (await publicProducts()).find((p) => p.type === 'PHYSICAL')
    expect(physical).toBeDefined()
    const created = await fetch(`${baseURL()}/api/orders/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        productId: physical!.id,
        userEmail: 'buyer@example.com',
        tokenAddress: null,
        shippingName: 'Ada Buyer',
        shippingAddressLine1: '1 Main Street',
        shippingCity: 'Rome',
        shippingPostalCode: '00100',
        shippingCountry: 'Italy',
      }),
    })
    expect(created.status).toBe(201)
    const { orderId } = (await created.json()) as { orderId: string }
    expect(
      (
        await fetch(`${baseURL()}/api/test-mode/orders/${orderId}/pay`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(200)
    expect((await fetch(`${baseURL()}/api/test-mode/mine`, { method: 'POST' })).status).toBe(200)
    // The payment worker confirms the payment and hands the book over for delivery.
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${baseURL()}/api/orders/${orderId}/info`)).json()) as {
              currentStatus: string
            }
          ).currentStatus,
        { timeout: 45_000, interval: 500 },
      )
      .toBe('PROCESSING_DELIVERY')
    shippedOrderId = orderId

    const { email, password } = inject('demoAdmin')
    const { context, page, errors } = await newPage(browser)
    await signIn(page, email, password)
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Orders' })
      .click()
    const link = page.getByRole('link', { name: orderId.slice(0, 8), exact: true })
    await expect.poll(() => link.isVisible()).toBe(true)
    expect(
      await page
        .locator(`tr[data-order-id="${orderId}"]`)
        .getByText('processing delivery')
        .isVisible(),
    ).toBe(true)
    await link.click()
    await page.waitForURL((url) => url.pathname === `/admin/orders/${orderId}`)
    await expect
      .poll(() => page.getByRole('heading', { name: 'Payments received' }).isVisible())
      .toBe(true)
    const explorer = page.locator('a[href^="https://whatsonchain.com/tx/"]')
    expect(await explorer.count()).toBeGreaterThanOrEqual(1)
    // The shipping part of the price, as the product set it at checkout ("0.00": included).
    const shipping = Number(physical!.shippingCostEUR)
    expect(
      await page
        .getByText(
          shipping > 0
            ? `€${shipping.toFixed(2)} (part of the price paid)`
            : 'Included in the price',
          { exact: true },
        )
        .isVisible(),
    ).toBe(true)
    expect(await page.getByText('confirmed', { exact: true }).count()).toBeGreaterThanOrEqual(1)

    await page.getByRole('button', { name: 'Mark as shipped' }).click()
    await expect
      .poll(() => page.locator('#trackingNumber-error').textContent())
      .toBe('Tracking number cannot be empty.')
    await page.getByLabel('Tracking number').fill('RR123456789IT')
    await page.getByRole('button', { name: 'Mark as shipped' }).click()
    await expect.poll(() => page.getByText('Order marked as shipped!').isVisible()).toBe(true)
    await expect.poll(() => page.getByText('Order has been shipped.').isVisible()).toBe(true)
    expect(await page.locator('.admin-badge--shipped').first().textContent()).toBe('shipped')
    expect(await page.getByRole('button', { name: 'Mark as shipped' }).count()).toBe(0)

    // A wrong tracking number is corrected, and the history says so.
    await page.locator('#correctTrackingNumber').fill('RR987654321IT')
    await page.getByLabel("Why (kept in the order's history)").fill('label reprinted')
    await page.getByRole('button', { name: 'Correct tracking number' }).click()
    await expect.poll(() => page.getByText('Tracking number corrected.').isVisible()).toBe(true)
    await expect
      .poll(() => page.getByText('RR123456789IT → RR987654321IT: label reprinted').isVisible())
      .toBe(true)
    expect(errors).toEqual([])
    await context.close()
  })

  it('settles an overpaid order from its page, with a note kept in its history', async () => {
    const physical = (await publicProducts()).find((p) => p.type === 'PHYSICAL')!
    const created = await fetch(`${baseURL()}/api/orders/create`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        productId: physical.id,
        userEmail: 'overpaid@example.com',
        tokenAddress: null,
        shippingName: 'Ada Buyer',
        shippingAddressLine1: '1 Main Street',
        shippingCity: 'Rome',
        shippingPostalCode: '00100',
        shippingCountry: 'Italy',
      }),
    })
    const { orderId } = (await created.json()) as { orderId: string }
    const info = (await (await fetch(`${baseURL()}/api/orders/${orderId}/info`)).json()) as {
      amountBSV: string
    }
    const over = (Number(info.amountBSV) + 0.0005).toFixed(8)
    const paid = await fetch(`${baseURL()}/api/test-mode/orders/${orderId}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ amountBSV: over }),
    })
    expect(paid.status).toBe(200)
    expect((await fetch(`${baseURL()}/api/test-mode/mine`, { method: 'POST' })).status).toBe(200)
    await expect
      .poll(
        async () =>
          (
            (await (await fetch(`${baseURL()}/api/orders/${orderId}/info`)).json()) as {
              currentStatus: string
            }
          ).currentStatus,
        { timeout: 45_000, interval: 500 },
      )
      .toBe('PROCESSING_DELIVERY')

    const { email, password } = inject('demoAdmin')
    // First on a phone (a look only), then settled on a desktop.
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, viewport)
      await signIn(page, email, password)
      await page.goto(`/admin/orders/${orderId}`)
      await expect.poll(() => page.getByText('Needs settling:').isVisible()).toBe(true)
      expect(await page.getByText('Paid over (more than the amount due)').isVisible()).toBe(true)
      await page.getByRole('button', { name: 'Mark as settled' }).click()
      await screenshot(page, `admin-order-settling-${viewport.width}`)
      if (viewport === PHONE) {
        expect(errors).toEqual([])
        await context.close()
        continue
      }
      await page.getByRole('button', { name: 'Confirm: mark as settled' }).click()
      await expect.poll(() => page.getByText('Say why in the note.').isVisible()).toBe(true)
      await page.getByLabel('Note (why)').fill('Kept the extra as a tip, thanked the buyer.')
      await page.getByRole('button', { name: 'Confirm: mark as settled' }).click()
      await expect.poll(() => page.getByText('Order marked as settled.').isVisible()).toBe(true)
      await expect
        .poll(() =>
          page
            .getByText(/^Settled /)
            .first()
            .isVisible(),
        )
        .toBe(true)
      const history = page.locator('.admin-history')
      expect(
        await history.getByText('Kept the extra as a tip, thanked the buyer.').isVisible(),
      ).toBe(true)
      expect(await history.getByText(email).first().isVisible()).toBe(true)
      expect(errors).toEqual([])
      await context.close()
    }
  })

  it("sees what sold, the shop's health and the settings in force, and reaches the CMS", async () => {
    // The shipped order of the test above was paid today.
    expect(shippedOrderId).not.toBe('')
    const { email, password } = inject('demoAdmin')
    const { context, page, errors } = await newPage(browser, DESKTOP)
    await signIn(page, email, password)
    const sales = page.getByRole('region', { name: 'Sales' })
    await expect.poll(() => sales.getByTestId('sales-chart').isVisible()).toBe(true)
    const eurOf = async (testId: string) =>
      Number((await sales.getByTestId(testId).textContent())!.replace(/[^\d.]/g, ''))
    expect(await eurOf('sales-current-eur')).toBeGreaterThan(0)
    expect(await eurOf('sales-total-eur')).toBeGreaterThanOrEqual(await eurOf('sales-current-eur'))
    expect(await sales.locator('.sales-chart__bar').count()).toBe(14)
    await sales.getByRole('button', { name: 'Months' }).click()
    expect(await sales.getByRole('button', { name: 'Months' }).getAttribute('aria-pressed')).toBe(
      'true',
    )
    expect(await sales.locator('.sales-chart__bar').count()).toBe(12)
    expect(await sales.getByText(/This month/).isVisible()).toBe(true)

    // The worker of this shop runs: the health says so.
    const health = page.getByRole('region', { name: 'Shop health' })
    await expect
      .poll(() => health.locator('li', { hasText: 'Payment worker' }).textContent())
      .toMatch(/Running/)
    expect(await health.locator('li', { hasText: 'Chain source' }).textContent()).toMatch(
      /last look at an order/,
    )

    expect(
      await page
        .getByRole('link', { name: /Site content/ })
        .first()
        .getAttribute('href'),
    ).toBe('/cms')
    await page.getByRole('link', { name: /^Settings/ }).click()
    await page.waitForURL((url) => url.pathname === '/admin/settings')
    await expect.poll(() => page.getByRole('heading', { name: 'Payments' }).isVisible()).toBe(true)
    expect(await page.getByText('WALLET_GAP_LIMIT').isVisible()).toBe(true)
    expect(await page.locator('main').textContent()).not.toMatch(/coming soon/i)
    expect(errors).toEqual([])
    await context.close()
  })

  it('changes the password and signs in with the new one', async () => {
    const { email, password } = inject('demoAdmin')
    // A staff member of its own, created through Payload's REST as the demo admin.
    const login = await fetch(`${baseURL()}/cms/api/staff/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    expect(login.status).toBe(200)
    const { token } = (await login.json()) as { token: string }
    const owner = { email: `owner-${Date.now()}@example.com`, password: 'first-password-1' }
    const created = await fetch(`${baseURL()}/cms/api/staff`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `JWT ${token}` },
      body: JSON.stringify({ ...owner, role: 'admin', name: 'Second Owner' }),
    })
    expect(created.status).toBe(201)

    const { context, page, errors } = await newPage(browser)
    await signIn(page, owner.email, owner.password)
    await page
      .getByRole('navigation', { name: 'Admin' })
      .getByRole('link', { name: 'Profile' })
      .click()
    await page.getByLabel('Current password').fill('wrong-password')
    await page.getByLabel('New password').fill('second-password-2')
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect
      .poll(() => page.locator('#currentPassword-error').textContent())
      .toBe('Current password is incorrect.')

    await page.getByLabel('Current password').fill(owner.password)
    await page.getByRole('button', { name: 'Change password' }).click()
    await expect.poll(() => page.getByText('Password changed successfully!').isVisible()).toBe(true)
    expect(await page.getByLabel('Current password').inputValue()).toBe('')
    expect(await page.getByLabel('New password').inputValue()).toBe('')

    await page.getByRole('button', { name: 'Logout' }).click()
    await page.waitForURL((url) => url.pathname === '/admin/login')
    await page.goto('/admin/dashboard')
    await page.waitForURL((url) => url.pathname === '/admin/login')

    await page.getByLabel('Email').fill(owner.email)
    await page.getByLabel('Password').fill(owner.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect.poll(() => page.locator('.admin-alert--error').isVisible()).toBe(true)
    await signIn(page, owner.email, 'second-password-2')
    await expect.poll(() => page.getByText('Welcome, Second Owner!').isVisible()).toBe(true)
    expect(errors).toEqual([])
    await context.close()
  })

  it('renders every admin screen on a phone and a desktop (screenshots)', async () => {
    const { email, password } = inject('demoAdmin')
    const screens: [string, string, string][] = [
      ['dashboard', '/admin/dashboard', 'Dashboard'],
      ['products', '/admin/products', 'Products'],
      ['product-new', '/admin/products/new', 'New product'],
      ['product-edit', `/admin/products/edit/${createdProductId}`, `Edit: ${productName}`],
      ['orders', '/admin/orders', 'Orders'],
      ['order-detail', `/admin/orders/${shippedOrderId}`, 'Payments received'],
      ['profile', '/admin/profile', 'Profile'],
      ['addresses', '/admin/addresses', 'Addresses'],
      ['settings', '/admin/settings', 'Settings'],
    ]
    for (const viewport of [PHONE, DESKTOP]) {
      const { context, page, errors } = await newPage(browser, viewport)
      await page.goto('/admin/login')
      await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true)
      await screenshot(page, `admin-login-${viewport.width}`)
      await signIn(page, email, password)
      for (const [name, path, heading] of screens) {
        await page.goto(path)
        await expect
          .poll(() => page.getByRole('heading', { name: heading }).first().isVisible())
          .toBe(true)
        await page.waitForLoadState('networkidle')
        const overflow = await page.evaluate(
          () => document.documentElement.scrollWidth - window.innerWidth,
        )
        expect(overflow, `${name} at ${viewport.width}px scrolls sideways`).toBeLessThanOrEqual(0)
        await screenshot(page, `admin-${name}-${viewport.width}`)
      }
      expect(errors).toEqual([])
      await context.close()
    }
  })
})
