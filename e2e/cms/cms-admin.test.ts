import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'

import { baseURL, launchBrowser } from '../support/browser'

/**
 * Payload's own admin, in Chromium: saving a product in /cms keeps the copies sold while the form
 * was open (it does not write back the stock the form showed); /cms runs under a
 * Content-Security-Policy; changing one's own password asks for the current one.
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
    // An admin's way back to the shop's own admin (orders, sales, settings).
    const shopAdmin = page.getByRole('link', { name: /Shop admin/ })
    await expect.poll(() => shopAdmin.getAttribute('href')).toBe('/admin/dashboard')

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

describe('/cms under its Content-Security-Policy', () => {
  it('runs every page with a per-request nonce and no violation; the account page asks for the current password', async () => {
    const cmsBase = baseURL().replace('127.0.0.1', 'localhost')
    const headers = (await fetch(`${cmsBase}/cms/login`)).headers
    const policy = headers.get('content-security-policy') ?? ''
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/)
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/)
    expect((await fetch(`${cmsBase}/cms/login`)).headers.get('content-security-policy')).not.toBe(
      policy,
    )

    // An editor of its own, so the shared demo admin keeps its password for the other tests.
    const { email, password } = inject('demoAdmin')
    const login = await fetch(`${cmsBase}/cms/api/staff/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    })
    const { token } = (await login.json()) as { token: string }
    const editor = { email: 'csp-editor@example.com', password: 'Quartz-ledger-editor-6021' }
    const created = await fetch(`${cmsBase}/cms/api/staff`, {
      method: 'POST',
      headers: { authorization: `JWT ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...editor, role: 'editor' }),
    })
    expect(created.status).toBe(201)

    const page = await browser.newPage({ baseURL: cmsBase, viewport: { width: 1280, height: 900 } })
    const violations: string[] = []
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        ;(window as unknown as { __csp?: string[] }).__csp ??= []
        ;(window as unknown as { __csp: string[] }).__csp.push(
          `${event.violatedDirective} ${event.blockedURI}`,
        )
      })
    })
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
    })
    await page.goto('/cms/login')
    await page.locator('input[name="email"]').fill(editor.email)
    await page.locator('input[name="password"]').fill(editor.password)
    await page.getByRole('button', { name: 'Login' }).click()
    await page.waitForURL((url) => url.pathname === '/cms')
    await page.goto('/cms/collections/papers')
    await expect
      .poll(() => page.getByRole('heading', { name: 'Papers' }).count())
      .toBeGreaterThan(0)
    // The shop's admin is for admins: an editor's menu does not lead there.
    expect(await page.getByRole('link', { name: /Shop admin/ }).count()).toBe(0)

    // Refused without the current password: the old one still signs in.
    const newPassword = 'Marble-harbour-compass-4410'
    const changePassword = async (currentPassword?: string) => {
      await page.goto('/cms/account')
      const field = page.locator('input[name="currentPassword"]')
      await expect.poll(() => field.count()).toBe(1)
      expect(await field.getAttribute('type')).toBe('password')
      await page.getByRole('button', { name: 'Change Password' }).click()
      await page.locator('input[name="password"]').fill(newPassword)
      await page.locator('input[name="confirm-password"]').fill(newPassword)
      if (currentPassword) await field.fill(currentPassword)
      // Payload's form checks its state with the server as one types (a server action); a save
      // clicked before that answer is held back by the form itself ("Please correct invalid
      // fields.", no request sent). A person clicks again; so does this test, then reads what
      // the server answered.
      for (let click = 0; click < 3; click += 1) {
        await page.waitForLoadState('networkidle')
        const saved = page
          .waitForResponse(
            (r) => r.request().method() === 'PATCH' && r.url().includes('/cms/api/staff/'),
            { timeout: 10_000 },
          )
          .catch(() => null)
        await page.getByRole('button', { name: 'Save' }).click()
        const response = await saved
        if (response) return response.status()
      }
      return null
    }
    const signInStatus = async (candidate: string) =>
      (
        await fetch(`${cmsBase}/cms/api/staff/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: editor.email, password: candidate }),
        })
      ).status
    expect(await changePassword()).toBe(400)
    // Refused by the server (hooks/accountChanges.ts): Payload's form says so.
    await expect
      .poll(() => page.getByText('The following field is invalid: currentPassword').count())
      .toBeGreaterThan(0)
    expect(await signInStatus(editor.password)).toBe(200)

    // With the current password the same form changes it: the new one signs in, the old one not.
    expect(await changePassword(editor.password)).toBe(200)
    await expect.poll(() => page.getByText('Updated successfully.').count()).toBeGreaterThan(0)
    expect(await signInStatus(newPassword)).toBe(200)
    expect(await signInStatus(editor.password)).toBe(401)

    const seen = await page.evaluate(() => (window as unknown as { __csp?: string[] }).__csp ?? [])
    expect([...violations, ...seen]).toEqual([])
    await page.close()
  })
})
