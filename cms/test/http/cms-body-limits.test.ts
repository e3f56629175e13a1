import http from 'node:http'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { createStaff } from '../admin/client'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Bodies are judged by their headers before any of them is read: otherwise an anonymous
 * `POST /cms/api/media` with a 49 MB body is read in full before Payload refuses it (web RSS from
 * 341 MB to 1.13 GB).
 */

const OWNER = { email: 'bodies-owner@example.com', password: 'Quartz-ledger-owner-7193' }

let shop: TestShop
let cookie: string

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, seed: false })
  await createStaff({ payload: shop.payload, ...OWNER, role: 'admin' })
  const login = await fetch(`${shop.url}/cms/api/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  })
  cookie = login.headers.getSetCookie()[0]!.split(';')[0]!
})

afterAll(async () => {
  await shop?.close()
})

/**
 * Sends the headers and the first 64 KB of a body of `declared` bytes (or a chunked one), then
 * waits for an answer without sending more: only a server that judges the headers can answer.
 */
function startUpload(
  path: string,
  headers: Record<string, string>,
  declared: number | 'chunked',
): Promise<{ status: number; body: string; sentBytes: number }> {
  const url = new URL(path, shop.url)
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'multipart/form-data; boundary=x',
        ...(declared === 'chunked' ? {} : { 'content-length': String(declared) }),
      },
    })
    const first = Buffer.alloc(64 * 1024, 'a')
    req.on('response', (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body, sentBytes: first.length })
        req.destroy()
      })
    })
    req.on('error', (error) => {
      if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') reject(error)
    })
    req.setTimeout(15_000, () => reject(new Error('no answer before the body was sent')))
    req.write(first)
  })
}

describe('bodies sent to /cms/api', () => {
  it('refuses an anonymous 49 MB upload from its headers, before reading it', async () => {
    const rssBefore = process.memoryUsage().rss
    const answer = await startUpload('/cms/api/media', {}, 49 * 1024 * 1024)
    expect(answer.status).toBe(413)
    expect(answer.body).toContain('Sign in')
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(40 * 1024 * 1024)
  })

  it('refuses a body without a length, and one over the upload limit even when signed in', async () => {
    expect((await startUpload('/cms/api/media', {}, 'chunked')).status).toBe(411)
    const huge = await startUpload('/cms/api/media', { cookie }, 51 * 1024 * 1024)
    expect(huge.status).toBe(413)
    expect(huge.body).toContain('over 50 MB')
  })

  it('lets a signed-in admin send a large body, and small anonymous ones through', async () => {
    const signedIn = await fetch(`${shop.url}/cms/api/media`, {
      method: 'POST',
      headers: { cookie, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      body: JSON.stringify({ alt: 'x'.repeat(200 * 1024) }),
    })
    // Payload itself answers (no file in the request), not the size guard.
    expect(signedIn.status).not.toBe(413)
    expect(signedIn.status).toBeLessThan(500)
    const login = await fetch(`${shop.url}/cms/api/staff/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: OWNER.email, password: 'not-the-password-at-all' }),
    })
    expect(login.status).toBe(401)
  })
})
