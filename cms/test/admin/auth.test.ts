import type { Router } from 'express'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import type { AdminClient } from './client'
import { adminClient, createStaff, signedIn, XHR } from './client'

let shop: TestShop
let admin: AdminClient
let editor: AdminClient

const ADMIN = { email: 'owner@example.com', password: 'owner-password-1' }
const EDITOR = { email: 'editor@example.com', password: 'editor-password-1' }

beforeAll(async () => {
  shop = await startTestShop({ seed: false })
  await createStaff({ payload: shop.payload, ...ADMIN, role: 'admin' })
  await createStaff({ payload: shop.payload, ...EDITOR, role: 'editor' })
  editor = adminClient(shop.url)
  // An editor's credentials are right, but the admin area refuses them: no cookie is set.
  const refused = await editor.request('POST', '/login', { json: EDITOR })
  expect(refused.status).toBe(403)
  expect(editor.cookie).toBeNull()
  // To exercise the 403 of every route, the editor uses a real Payload session of their own.
  const { token } = await shop.payload.login({ collection: slugs.staff, data: EDITOR })
  editor.cookie = `payload-token=${token}`
  admin = await signedIn(shop.url, ADMIN.email, ADMIN.password)
})

afterAll(async () => {
  await shop?.close()
})

/** Every route of the admin router, read from the router itself: a new one is covered at once. */
async function everyAdminRoute() {
  // Imported after the test shop set its settings (modules read them once, on import).
  const { adminRouter, listAdminRoutes } = await import('../../src/api/admin')
  const { createLogger } = await import('../../src/server/logger')
  const router = adminRouter({
    payload: shop.payload,
    logger: createLogger('silent'),
    publicUrl: shop.url,
  }) as Router
  return listAdminRoutes(router)
}

const samplePath = (path: string) =>
  path.replace(':id', path.startsWith('/orders') ? '00000000-0000-4000-8000-000000000000' : '1')

describe('the guard over every admin route', () => {
  it('knows the routes of the spec (and the dashboard stats)', async () => {
    const routes = (await everyAdminRoute()).map((r) => `${r.method} ${r.path}`)
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /login',
        'GET /status',
        'POST /logout',
        'PUT /change-password',
        'GET /products',
        'POST /products',
        'GET /products/:id',
        'PUT /products/:id',
        'DELETE /products/:id',
        'POST /products/:id/restore',
        'GET /orders',
        'GET /orders/:id',
        'POST /orders/:id/ship',
        'GET /stats',
        'GET /sales',
        'GET /settings',
      ]),
    )
  })

  it('answers 401 without a session and 403 for an editor on every route but login', async () => {
    const routes = (await everyAdminRoute()).filter(
      (r) => !(r.method === 'POST' && r.path === '/login'),
    )
    expect(routes.length).toBeGreaterThanOrEqual(13)
    const anonymous = adminClient(shop.url)
    for (const route of routes) {
      const path = samplePath(route.path)
      const json = route.method === 'GET' ? undefined : {}
      const without = await anonymous.request(route.method, path, { json })
      expect(without.status, `${route.method} ${route.path} without a session`).toBe(401)
      const asEditor = await editor.request(route.method, path, { json })
      expect(asEditor.status, `${route.method} ${route.path} as an editor`).toBe(403)
    }
  })

  it('refuses an expired or forged session cookie', async () => {
    const forged = adminClient(shop.url)
    forged.cookie = 'payload-token=eyJhbGciOiJIUzI1NiJ9.eyJpZCI6MSwiY29sbGVjdGlvbiI6InN0YWZmIn0.bad'
    expect((await forged.request('GET', '/products')).status).toBe(401)
  })
})

describe('cross-site request forgery', () => {
  it('refuses a state-changing call without the X-Requested-With header', async () => {
    const response = await fetch(`${shop.url}/api/admin/logout`, {
      method: 'POST',
      headers: { Cookie: admin.cookie! },
    })
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ error: expect.stringMatching(/X-Requested-With/) })
  })

  it('refuses a call whose Origin or Referer is another site', async () => {
    for (const header of [
      { Origin: 'https://evil.example' },
      { Origin: 'null' },
      { Referer: 'https://evil.example/page' },
    ]) {
      const response = await fetch(`${shop.url}/api/admin/products/1`, {
        method: 'DELETE',
        headers: { ...XHR, ...header, Cookie: admin.cookie! },
      })
      expect(response.status).toBe(403)
      expect(((await response.json()) as { error: string }).error).toMatch(
        /does not come from this shop/,
      )
    }
  })

  it('protects the sign-in form too', async () => {
    const response = await fetch(`${shop.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: 'https://evil.example', ...XHR },
      body: JSON.stringify(ADMIN),
    })
    expect(response.status).toBe(403)
  })
})

describe('POST /api/admin/login', () => {
  it('signs an admin in with an HttpOnly SameSite session cookie', async () => {
    const response = await fetch(`${shop.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...XHR },
      body: JSON.stringify(ADMIN),
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as Record<string, unknown>
    expect(body).toEqual({
      success: true,
      admin: { id: expect.anything(), email: ADMIN.email, name: 'Ada Owner' },
      message: 'Login successful!',
    })
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('payload-token='))
    expect(cookie).toBeDefined()
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\//)
    // Test mode is plain HTTP; production sets Secure (collection config).
    expect(cookie).not.toMatch(/Secure/i)
  })

  it('refuses wrong credentials with the spec shape and no cookie', async () => {
    const client = adminClient(shop.url)
    const response = await client.request('POST', '/login', {
      json: { email: ADMIN.email, password: 'nope-nope' },
    })
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({
      success: false,
      admin: null,
      message: 'Invalid email or password.',
    })
    expect(client.cookie).toBeNull()
  })

  it('requires email and password', async () => {
    const response = await adminClient(shop.url).request('POST', '/login', { json: { email: '' } })
    expect(response.status).toBe(400)
    const body = (await response.json()) as { success: boolean; errors: { path: string }[] }
    expect(body.success).toBe(false)
    expect(body.errors.map((e) => e.path)).toEqual(['email', 'password'])
  })
})

describe('GET /api/admin/status', () => {
  it('answers 401 with isAuthenticated false when signed out', async () => {
    const response = await adminClient(shop.url).request('GET', '/status')
    expect(response.status).toBe(401)
    expect(await response.json()).toEqual({ isAuthenticated: false, admin: null })
  })

  it('returns the signed-in admin', async () => {
    const response = await admin.request('GET', '/status')
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      isAuthenticated: true,
      admin: { id: expect.anything(), email: ADMIN.email, name: 'Ada Owner' },
    })
  })
})

describe('POST /api/admin/logout', () => {
  it('ends the session on the server: the old cookie no longer works', async () => {
    const client = await signedIn(shop.url, ADMIN.email, ADMIN.password)
    const stolenCopy = client.cookie
    const response = await client.request('POST', '/logout')
    expect(response.status).toBe(200)
    expect(client.cookie).toBeNull()
    const replay = adminClient(shop.url)
    replay.cookie = stolenCopy
    expect((await replay.request('GET', '/status')).status).toBe(401)
    // The other session of the same admin is untouched.
    expect((await admin.request('GET', '/status')).status).toBe(200)
  })
})

describe('PUT /api/admin/change-password', () => {
  const OWNER = { email: 'changer@example.com', password: 'first-password-1' }

  it('requires both fields, by path', async () => {
    await createStaff({ payload: shop.payload, ...OWNER, role: 'admin' })
    const client = await signedIn(shop.url, OWNER.email, OWNER.password)
    const response = await client.request('PUT', '/change-password', { json: {} })
    expect(response.status).toBe(400)
    const { errors } = (await response.json()) as { errors: { path: string; msg: string }[] }
    expect(errors).toEqual([
      { path: 'currentPassword', msg: 'Current password is required.' },
      { path: 'newPassword', msg: 'New password is required.' },
    ])
  })

  it('checks the current password', async () => {
    const client = await signedIn(shop.url, OWNER.email, OWNER.password)
    const response = await client.request('PUT', '/change-password', {
      json: { currentPassword: 'not-my-password', newPassword: 'second-password-2' },
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      errors: [{ path: 'currentPassword', msg: 'Current password is incorrect.' }],
    })
  })

  it('refuses a too short new password under newPassword', async () => {
    const client = await signedIn(shop.url, OWNER.email, OWNER.password)
    const response = await client.request('PUT', '/change-password', {
      json: { currentPassword: OWNER.password, newPassword: 'short' },
    })
    expect(response.status).toBe(400)
    expect(((await response.json()) as { errors: { path: string }[] }).errors[0]!.path).toBe(
      'newPassword',
    )
  })

  it('changes it: the new password signs in, the old one no longer does, other sessions end', async () => {
    const other = await signedIn(shop.url, OWNER.email, OWNER.password)
    const client = await signedIn(shop.url, OWNER.email, OWNER.password)
    const response = await client.request('PUT', '/change-password', {
      json: { currentPassword: OWNER.password, newPassword: 'second-password-2' },
    })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({
      success: true,
      message: 'Password changed successfully!',
    })
    expect((await client.request('GET', '/status')).status).toBe(200)
    expect((await other.request('GET', '/status')).status).toBe(401)

    const old = await adminClient(shop.url).request('POST', '/login', { json: OWNER })
    expect(old.status).toBe(401)
    await signedIn(shop.url, OWNER.email, 'second-password-2')
  })
})
