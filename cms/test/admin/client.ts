import type { Payload } from 'payload'

import { slugs } from '../../src/collections/slugs'

/** Headers every state-changing admin call of the storefront sends (the CSRF guard's). */
export const XHR = { 'X-Requested-With': 'XMLHttpRequest' }

export type AdminClient = {
  cookie: string | null
  request: (
    method: string,
    path: string,
    init?: { json?: unknown; form?: FormData; headers?: Record<string, string> },
  ) => Promise<Response>
}

/** A tiny browser stand-in for the admin API: keeps the session cookie, sends the CSRF header. */
export function adminClient(baseUrl: string): AdminClient {
  const client: AdminClient = {
    cookie: null,
    request: async (method, path, init = {}) => {
      const headers: Record<string, string> = { ...XHR, Origin: baseUrl, ...(init.headers ?? {}) }
      if (client.cookie) headers.Cookie = client.cookie
      let body: BodyInit | undefined
      if (init.json !== undefined) {
        headers['Content-Type'] = 'application/json'
        body = JSON.stringify(init.json)
      } else if (init.form) {
        body = init.form
      }
      const response = await fetch(`${baseUrl}/api/admin${path}`, { method, headers, body })
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';')
        const [name, value] = pair!.split('=')
        if (name === 'payload-token') client.cookie = value ? `${name}=${value}` : null
      }
      return response
    },
  }
  return client
}

export async function createStaff({
  payload,
  email,
  password,
  role,
}: {
  payload: Payload
  email: string
  password: string
  role: 'admin' | 'editor'
}) {
  return payload.create({
    collection: slugs.staff,
    data: { email, password, role, name: role === 'admin' ? 'Ada Owner' : null },
  })
}

export async function signedIn(
  baseUrl: string,
  email: string,
  password: string,
): Promise<AdminClient> {
  const client = adminClient(baseUrl)
  const response = await client.request('POST', '/login', { json: { email, password } })
  if (response.status !== 200)
    throw new Error(`Sign-in of ${email} failed with ${response.status}: ${await response.text()}`)
  return client
}

/** Creates an admin account and signs it in to /api/admin: the owner most tests act as. */
export async function signedInNewAdmin(
  shop: { payload: Payload; url: string },
  credentials: { email: string; password: string },
): Promise<AdminClient> {
  await createStaff({ payload: shop.payload, ...credentials, role: 'admin' })
  return signedIn(shop.url, credentials.email, credentials.password)
}
