import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { baseURL, launchBrowser } from '../support/browser'

/**
 * Finding 3 of issue 14, in Payload's own admin: saving a product in /cms used to write the
 * stock the form showed when it was opened, erasing copies sold meanwhile.
 */

let browser: Browser

beforeAll(async () => {
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
})

type PublicProduct = { id: number; name: string; type: string; currentStock: number }

describe('/cms product form', () => {
  it('keeps a copy sold while the form was open, and loads nothing from outside the shop', async () => {
    // Payload's admin is served at the shop's public address (its sign-in checks the origin).
    const cmsBase = baseURL().replace('127.0.0.1', 'localhost')
    const products = (await (await fetch(`${baseURL()}/api/products`)).json()) as PublicProduct[]
    const printed = products.find((p) => p.type === 'PHYSICAL')!
    expect(printed.currentStock).toBeGreaterThan(1)

    const page = await browser.newPage({ baseURL: cmsBase, viewport: { width: 1280, height: 900 } })
    // Nothing leaves the shop (Payload's admin used to pull avatars from Gravatar).
    const outside: string[] = []
    page.on('request', (request) => {
      const host = new URL(request.url()).hostname
      if (!['localhost', '127.0.0.1'].includes(host) && !request.url().startsWith('data:'))
        outside.push(request.url())
    })
    const { email, password } = inject('demoAdmin')
    await page.goto('/cms/login')
    await page.locator('input[name="email"]').fill(email)
    await page.locator('input[name="password"]').fill(password)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.waitForURL((url) => url.pathname === '/cms')

    await page.goto(`/cms/collections/products/${printed.id}`)
    const name = page.locator('input[name="name"]')
    await expect.poll(() => name.inputValue()).toBe(printed.name)
    expect(await page.locator('input[name="currentStock"]').inputValue()).toBe(
      String(printed.currentStock),
    )

    // A buyer takes a copy while the owner edits the name.
    const bought = await fetch(`${baseURL()}/api/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        productId: printed.id,
        userEmail: 'cms-stock@example.com',
        shippingName: 'Ada Buyer',
        shippingAddressLine1: '1 Main St',
        shippingCity: 'Rome',
        shippingPostalCode: '00100',
        shippingCountry: 'Italy',
      }),
    })
    expect(bought.status).toBe(201)

    await name.fill(`${printed.name} (2nd ed.)`)
    await page.getByRole('button', { name: 'Save' }).click()
    await expect
      .poll(async () => {
        const one = (await (
          await fetch(`${baseURL()}/api/products/${printed.id}`)
        ).json()) as PublicProduct
        return one.name
      })
      .toBe(`${printed.name} (2nd ed.)`)
    const after = (await (
      await fetch(`${baseURL()}/api/products/${printed.id}`)
    ).json()) as PublicProduct
    expect(after.currentStock).toBe(printed.currentStock - 1)
    expect(outside).toEqual([])
    await page.close()
  })
})
