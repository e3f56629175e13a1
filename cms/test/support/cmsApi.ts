import type { Payload } from 'payload'
import { expect } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { AdminClient } from '../admin/client'
import { signedInNewAdmin } from '../admin/client'
import type { TestShop, TestShopOptions } from './testShop'
import { startTestShop } from './testShop'

type Credentials = { email: string; password: string }

/**
 * Who calls Payload's REST under /cms/api: a session cookie, sent as Payload's admin sends it from
 * a page of the shop (its CSRF check reads `sec-fetch-site`); a JWT; or nobody.
 */
export type CmsCaller = { cookie: string } | { jwt: string } | null

/** One call to Payload's REST under /cms/api: its status, its text and that text as JSON (or null). */
export async function cmsApi(
  shop: Pick<TestShop, 'url'>,
  caller: CmsCaller,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string; body: unknown }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (caller && 'cookie' in caller) {
    headers.cookie = caller.cookie
    headers['sec-fetch-site'] = 'same-origin'
  } else if (caller) {
    headers.authorization = `JWT ${caller.jwt}`
  }
  const response = await fetch(`${shop.url}/cms/api${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  return { status: response.status, text, body: parsedOrNull(text) }
}

function parsedOrNull(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/** Signs a staff member in at /cms/api as Payload's admin page does: the session cookie. */
export async function cmsSessionCookie(
  shop: Pick<TestShop, 'url'>,
  credentials: Credentials,
): Promise<string> {
  const login = await fetch(`${shop.url}/cms/api/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(credentials),
  })
  expect(login.status).toBe(200)
  return login.headers.getSetCookie()[0]!.split(';')[0]!
}

/** A staff member's JWT for /cms/api, from the Local API's sign-in. */
export async function staffJwt(payload: Payload, credentials: Credentials): Promise<string> {
  const { token } = await payload.login({ collection: slugs.staff, data: credentials })
  return token!
}

/**
 * A shop with Payload's admin and REST mounted, its owner signed in at both doors: the shop's
 * /api/admin (`admin`) and Payload's /cms/api (`cmsCookie`). What the "every door" tests start
 * from; checkout's rate limit is lifted for their many orders.
 */
export async function shopWithOwnerAtEveryDoor(
  owner: Credentials,
  { engine }: Pick<TestShopOptions, 'engine'> = {},
): Promise<{ shop: TestShop; admin: AdminClient; cmsCookie: string }> {
  const shop = await startTestShop({
    engine,
    withCms: true,
    env: { ORDER_CREATE_RATE_LIMIT: '1000' },
  })
  const admin = await signedInNewAdmin(shop, owner)
  const cmsCookie = await cmsSessionCookie(shop, owner)
  return { shop, admin, cmsCookie }
}
