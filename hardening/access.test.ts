import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import type { Router } from 'express'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import { adminClient, closeServer, XHR } from '@shop/cms/testing'
import { SHIPPING, api, productIdOf } from '@shop/payment-worker/testing'
import { launchBrowser } from '../e2e/support/browser'
import { paths } from '@shop/storefront/paths'
import { recordFingerprint } from './support/fingerprint'
import { fmt, report } from './support/settings'
import type { HardeningShop } from './support/shop'
import { ADMIN, EDITOR, startHardeningShop } from './support/shop'

/**
 * Access: every admin route refuses anonymous, expired, forged, editor and
 * cross-site requests; order ids and download tokens cannot be enumerated; downloads and order
 * creation are rate limited; sign-in is throttled per account and client; every page carries the security headers, and
 * the pages work in a real browser under their Content-Security-Policy.
 */

const ORDER_LIMIT = 5
const DOWNLOAD_LIMIT = 30

let h: HardeningShop
let digitalId: number
let adminToken: string

beforeAll(async () => {
  h = await startHardeningShop({
    env: {
      ORDER_CREATE_RATE_LIMIT: String(ORDER_LIMIT),
      DOWNLOAD_RATE_LIMIT: String(DOWNLOAD_LIMIT),
    },
  })
  digitalId = await productIdOf(h.shop.payload, 'DIGITAL')
  adminToken = h.admin.cookie!.split('=')[1]!
})

afterAll(async () => {
  await h?.close()
})

/** Every route of the admin router, read from the router itself. */
async function everyAdminRoute() {
  const { adminRouter, listAdminRoutes } = await import('@shop/cms/app')
  const { createLogger } = await import('@shop/cms/process')
  const router = adminRouter({
    payload: h.shop.payload,
    logger: createLogger('silent'),
    publicUrl: h.shop.url,
  }) as Router
  return listAdminRoutes(router)
}

const claimsOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<
    string,
    unknown
  >

/** A JWT like Payload's (HS256 over its secret), with the claims and key we choose. */
function signToken(claims: Record<string, unknown>, secret: string, alg = 'HS256'): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
  const head = `${part({ alg, authVersion: 1, typ: 'JWT' })}.${part(claims)}`
  if (alg === 'none') return `${head}.`
  return `${head}.${crypto.createHmac('sha256', secret).update(head).digest('base64url')}`
}

describe('the admin API refuses everyone but a signed-in admin on the shop itself', () => {
  it('refuses no session, expired, forged and revoked tokens, editors and cross-site calls on every route', async () => {
    const routes = (await everyAdminRoute()).filter(
      (r) => !(r.method === 'POST' && r.path === '/login'),
    )
    expect(routes.length).toBeGreaterThanOrEqual(13)
    const now = Math.floor(Date.now() / 1000)
    const claims = claimsOf(adminToken)
    const editorClaims = claimsOf(h.editor.cookie!.split('=')[1]!)
    const secret = h.shop.payload.secret
    const revoked = await h.signInAdmin()
    expect((await revoked.request('POST', '/logout')).status).toBe(200)
    const revokedCookie = `payload-token=${(await h.signInAdmin()).cookie!.split('=')[1]}`
    // Sign the second session out too, keeping its cookie: a copied cookie must stop working.
    const copy = adminClient(h.shop.url)
    copy.cookie = revokedCookie
    expect((await copy.request('POST', '/logout')).status).toBe(200)

    const credentials: [string, number, Record<string, string>][] = [
      ['no session', 401, {}],
      [
        'an expired token',
        401,
        {
          Cookie: `payload-token=${signToken({ ...claims, iat: now - 7200, exp: now - 60 }, secret)}`,
        },
      ],
      [
        'a token signed with another key',
        401,
        { Cookie: `payload-token=${signToken({ ...claims, exp: now + 3600 }, 'not-the-secret')}` },
      ],
      [
        'an unsigned token (alg none)',
        401,
        { Cookie: `payload-token=${signToken({ ...claims, exp: now + 3600 }, '', 'none')}` },
      ],
      ['a tampered signature', 401, { Cookie: `payload-token=${adminToken.slice(0, -4)}AAAA` }],
      ['a signed-out session', 401, { Cookie: revokedCookie }],
      [
        'a JWT header with a forged token',
        401,
        { Authorization: `JWT ${signToken({ ...claims, exp: now + 3600 }, 'guess')}` },
      ],
      ["an editor's session", 403, { Cookie: h.editor.cookie! }],
      [
        "an editor's token, validly signed, whose claims say admin",
        403,
        {
          Cookie: `payload-token=${signToken({ ...editorClaims, role: 'admin', roles: ['admin'], exp: now + 3600 }, secret)}`,
        },
      ],
    ]
    // The forged tokens above fail for the reason named, not because this signer is wrong:
    // the same signer with the right key and a live session is accepted.
    const control = signToken({ ...claims, iat: now, exp: now + 3600 }, secret)
    expect(
      (
        await fetch(`${h.shop.url}/api/admin/status`, {
          headers: { Cookie: `payload-token=${control}` },
        })
      ).status,
    ).toBe(200)
    const fingerprint = recordFingerprint(h.shop.payload)
    let refused = 0
    for (const route of routes) {
      const path = route.path.replace(
        ':id',
        route.path.startsWith('/orders')
          ? '00000000-0000-4000-8000-000000000000'
          : String(digitalId),
      )
      const body = route.method === 'GET' ? undefined : '{}'
      const call = (headers: Record<string, string>) =>
        fetch(`${h.shop.url}/api/admin${path}`, {
          method: route.method,
          headers: { ...XHR, Origin: h.shop.url, 'Content-Type': 'application/json', ...headers },
          body,
        })
      const before = await fingerprint()
      for (const [what, status, headers] of credentials) {
        const response = await call(headers)
        expect(response.status, `${route.method} ${route.path} with ${what}`).toBe(status)
        refused += 1
      }
      // The admin's own valid session, from another site or without the CSRF header.
      const session = { Cookie: h.admin.cookie! }
      for (const [what, headers] of [
        ['from another origin', { ...session, Origin: 'https://evil.example' }],
        ['from an opaque origin', { ...session, Origin: 'null' }],
        ['with a foreign referer', { ...session, Origin: '', Referer: 'https://evil.example/x' }],
      ] as const) {
        const init = { ...headers } as Record<string, string>
        if (init.Origin === '') delete init.Origin
        const response = await fetch(`${h.shop.url}/api/admin${path}`, {
          method: route.method,
          headers: { ...XHR, 'Content-Type': 'application/json', ...init },
          body,
        })
        expect(response.status, `${route.method} ${route.path} ${what}`).toBe(403)
        refused += 1
      }
      if (route.method !== 'GET') {
        const noHeader = await fetch(`${h.shop.url}/api/admin${path}`, {
          method: route.method,
          headers: { ...session, Origin: h.shop.url, 'Content-Type': 'application/json' },
          body,
        })
        expect(noHeader.status, `${route.method} ${route.path} without X-Requested-With`).toBe(403)
        refused += 1
      }
      expect(
        await fingerprint(),
        `${route.method} ${route.path}: a refused call changed data`,
      ).toBe(before)
    }
    // The admin's real session still works: the refusals were about the credentials.
    expect((await h.admin.request('GET', '/status')).status).toBe(200)

    // An editor cannot even sign in to the admin area.
    const editor = adminClient(h.shop.url)
    expect((await editor.request('POST', '/login', { json: EDITOR })).status).toBe(403)
    expect(editor.cookie).toBeNull()
    report(
      `access: ${fmt(refused)} admin calls on ${routes.length} routes with ${credentials.length} kinds of bad credentials ` +
        `and 3-4 kinds of cross-site request: all refused (401/403), no data changed`,
    )
  })
})

describe('enumeration and rate limits', () => {
  it('gives orders random v4 UUIDs that probing cannot find', async () => {
    const { createOrder } = await import('@shop/cms/app')
    const { loadEnv } = await import('@shop/cms/process')
    const env = loadEnv()
    const ids: string[] = []
    for (let i = 0; i < 100; i++) {
      const { orderId } = await createOrder({
        payload: h.shop.payload,
        env,
        clientAddress: '127.0.0.1',
        input: {
          productId: String(digitalId),
          userEmail: `buyer${i}@example.com`,
          tokenAddress: null,
        },
      })
      ids.push(orderId)
    }
    const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    expect(ids.every((id) => V4.test(id))).toBe(true)
    expect(new Set(ids).size).toBe(ids.length)
    // Not sequential: consecutive ids share no prefix beyond chance.
    expect(new Set(ids.map((id) => id.slice(0, 6))).size).toBe(ids.length)

    const neighbours = ids.slice(0, 20).map((id) => {
      const last = parseInt(id.slice(-1), 16)
      return `${id.slice(0, -1)}${((last + 1) % 16).toString(16)}`
    })
    const guesses = [...neighbours, ...Array.from({ length: 300 }, () => crypto.randomUUID())]
    let found = 0
    for (const guess of guesses) {
      for (const suffix of ['info', 'payment-status']) {
        const response = await api(h.shop, `/api/orders/${guess}/${suffix}`)
        if (response.status !== 404) found += 1
      }
    }
    expect(found).toBe(0)
    report(
      `access: 100 order ids are distinct random v4 UUIDs (122 bits); ${fmt(guesses.length * 2)} probes ` +
        `(neighbours and random) found 0 orders`,
    )
  })

  it('limits order creation per client', async () => {
    const buy = () =>
      api(h.shop, '/api/orders/create', {
        body: {
          productId: digitalId,
          userEmail: 'fast@example.com',
          tokenAddress: null,
          ...SHIPPING,
        },
      })
    const statuses: number[] = []
    for (let i = 0; i < ORDER_LIMIT + 3; i++) statuses.push((await buy()).status)
    expect(statuses.slice(0, ORDER_LIMIT)).toEqual(Array(ORDER_LIMIT).fill(201))
    expect(statuses.slice(ORDER_LIMIT)).toEqual([429, 429, 429])
    const refused = await buy()
    expect(refused.body.error).toMatch(/Too many orders/)
    expect(refused.headers.get('ratelimit-policy') ?? refused.headers.get('ratelimit')).toBeTruthy()
    report(`access: order creation limited to ${ORDER_LIMIT}/min per client: the next 4 got 429`)
  })

  it('limits the download endpoint, so tokens (256 bits) cannot be probed at speed', async () => {
    const token = crypto.randomBytes(32).toString('base64url')
    const statuses: number[] = []
    for (let i = 0; i < DOWNLOAD_LIMIT + 20; i++) {
      const guess =
        i % 2 ? crypto.randomBytes(32).toString('base64url') : `${token.slice(0, -2)}${i}`
      statuses.push((await fetch(`${h.shop.url}/download/pdf/${guess}`)).status)
    }
    const answered = statuses.filter((s) => s !== 429)
    expect(answered.length).toBe(DOWNLOAD_LIMIT)
    expect(new Set(answered)).toEqual(new Set([404]))
    expect(statuses.slice(DOWNLOAD_LIMIT)).toEqual(Array(20).fill(429))
    const limited = await fetch(`${h.shop.url}/download/pdf/${token}`)
    expect(limited.status).toBe(429)
    expect(await limited.text()).toMatch(/Too many download attempts/)
    report(
      `access: download probes limited to ${DOWNLOAD_LIMIT}/min per client: ${answered.length} answered 404, ` +
        `${statuses.length - answered.length + 1} refused 429, 0 tokens found`,
    )
  })

  it('spaces out guesses at an account without locking it, and limits a client after twenty failures', async () => {
    const victim = { email: 'victim@example.com', password: 'Quartz-ledger-victim-5512' }
    await h.shop.payload.create({
      collection: slugs.staff,
      data: { ...victim, role: 'admin', name: null },
    })
    const client = adminClient(h.shop.url)
    const attempts: number[] = []
    const started = performance.now()
    for (let i = 1; i <= 5; i++) {
      attempts.push(
        (
          await client.request('POST', '/login', {
            json: { email: victim.email, password: `wrong-${i}` },
          })
        ).status,
      )
    }
    const guessing = performance.now() - started
    expect(attempts).toEqual([401, 401, 401, 401, 401])
    // Three free failures, then 1 s and 2 s between guesses.
    expect(guessing).toBeGreaterThanOrEqual(3000)
    const right = await adminClient(h.shop.url).request('POST', '/login', { json: victim })
    expect(right.status).toBe(200)

    // The client address is then limited whatever the account (failures only count).
    let failures = attempts.length
    let status = 0
    while (failures < 40) {
      status = (
        await client.request('POST', '/login', {
          json: { email: `nobody${failures}@example.com`, password: 'guess-guess' },
        })
      ).status
      if (status === 429) break
      failures += 1
    }
    // At most 20 failed sign-ins per client (earlier refusals in this file may count too).
    expect(status).toBe(429)
    expect(failures).toBeLessThanOrEqual(20)
    const admin = await client.request('POST', '/login', { json: ADMIN })
    expect(admin.status).toBe(429)
    report(
      `access: sign-in: 5 wrong passwords at one account took ${(guessing / 1000).toFixed(1)} s, the owner then signed in (no lockout); ` +
        `client limited (429) at its 20th failure (${failures} in this test)`,
    )
  })
})

/** An order made by the checkout operation itself (HTTP order creation is rate limited here). */
async function anOrderId(): Promise<string> {
  const { createOrder } = await import('@shop/cms/app')
  const { loadEnv } = await import('@shop/cms/process')
  const { orderId } = await createOrder({
    payload: h.shop.payload,
    env: loadEnv(),
    clientAddress: '127.0.0.1',
    input: { productId: String(digitalId), userEmail: 'pages@example.com', tokenAddress: null },
  })
  return orderId
}

describe('security headers', () => {
  const isHtml = (r: Response) => (r.headers.get('content-type') ?? '').includes('text/html')

  async function pagesOf(base: string, orderId: string) {
    const media = await h.shop.payload.find({ collection: slugs.media, limit: 1 })
    const documents = await h.shop.payload.find({ collection: slugs.documents, limit: 1 })
    return [
      ...[...Object.values(paths), ...Object.values(paths.admin)]
        .filter((p) => typeof p !== 'object')
        .map((p) =>
          typeof p === 'function' ? p(p === paths.pay ? orderId : String(digitalId)) : p,
        )
        .map((p) => p.replace(/#.*$/, '')),
      paths.orderSuccess(orderId),
      '/no-such-page',
      '/download/pdf/not-a-real-token-not-a-real-token',
      '/test-mode/outbox',
      '/api/products',
      '/api/no-such-route',
      '/healthz',
      `/media/${media.docs[0]!.filename}`,
      `/documents/${documents.docs[0]!.filename}`,
      '/media/missing.png',
    ].map((p) => `${base}${p}`)
  }

  it('sends no-sniff and frame denial everywhere, and a CSP on every page and API answer', async () => {
    const orderId = await anOrderId()
    const publicPages = new Set<string>([
      paths.home,
      paths.papers,
      paths.proofs,
      paths.updates,
      paths.legal,
      paths.walletInfo,
      paths.store,
      paths.product(String(digitalId)),
    ])
    const urls = await pagesOf(h.shop.url, orderId)
    let pages = 0
    for (const url of urls) {
      const response = await fetch(url)
      await response.arrayBuffer()
      expect(response.status, url).toBeLessThan(500)
      expect(response.headers.get('x-content-type-options'), url).toBe('nosniff')
      expect(response.headers.get('x-frame-options'), url).toBe('DENY')
      expect(
        response.headers.get('strict-transport-security'),
        `${url}: no HSTS on plain HTTP`,
      ).toBeNull()
      // Decision 017: the public pages open without an opener policy, every other answer has it.
      const publicPage = publicPages.has(new URL(url).pathname)
      expect(response.headers.get('cross-origin-opener-policy'), url).toBe(
        publicPage ? null : 'same-origin',
      )
      if (isHtml(response) || url.includes('/api/')) {
        const csp = response.headers.get('content-security-policy') ?? ''
        expect(csp, url).toMatch(/default-src 'self'/)
        expect(csp, url).toMatch(/script-src 'self'(;|$)/)
        expect(csp, url).toMatch(/frame-ancestors 'none'/)
        expect(csp, url).toMatch(/object-src 'none'/)
        pages += 1
      }
    }

    // Production: the same app adds HSTS (one year, subdomains) on every answer.
    const { createApp } = await import('@shop/cms/app')
    const { loadEnv } = await import('@shop/cms/process')
    const { createLogger } = await import('@shop/cms/process')
    const production = createApp({
      payload: h.shop.payload,
      env: { ...loadEnv(), isProduction: true },
      logger: createLogger('silent'),
    })
    const server = http.createServer(production)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      for (const url of await pagesOf(base, orderId)) {
        const response = await fetch(url)
        await response.arrayBuffer()
        expect(response.headers.get('strict-transport-security'), url).toMatch(
          /max-age=31536000; includeSubDomains/,
        )
      }
    } finally {
      await closeServer(server)
    }
    report(
      `access: security headers on ${urls.length} URLs (${pages} pages/API answers with CSP), ` +
        `no-sniff and X-Frame-Options DENY on all, HSTS on all in production and none on plain HTTP, ` +
        `no opener policy on the ${publicPages.size} public pages and same-origin on the rest`,
    )
  })

  it('renders every page in Chromium without a single CSP violation', async () => {
    let browser: Browser | undefined
    try {
      browser = await launchBrowser()
      const context = await browser.newContext()
      await context.addCookies([
        { name: 'payload-token', value: h.admin.cookie!.split('=')[1]!, url: h.shop.url },
      ])
      await context.addInitScript(() => {
        const seen: string[] = []
        ;(window as unknown as { __csp: string[] }).__csp = seen
        document.addEventListener('securitypolicyviolation', (e) =>
          seen.push(`${e.violatedDirective} ${e.blockedURI}`),
        )
      })
      const orderId = await anOrderId()
      const pageUrls = (await pagesOf(h.shop.url, orderId)).filter(
        (u) => !/\/(api|healthz|media|documents)\b/.test(u.slice(h.shop.url.length)),
      )
      const problems: string[] = []
      for (const url of pageUrls) {
        const page = await context.newPage()
        const console: string[] = []
        page.on('console', (m) => {
          if (/Content.Security.Policy|Refused to/i.test(m.text())) console.push(m.text())
        })
        page.on('pageerror', (e) => console.push(`page error: ${e.message}`))
        await page.goto(url, { waitUntil: 'networkidle' })
        const rendered = await page.evaluate(
          () =>
            (document.querySelector('#root')?.children.length ?? 0) > 0 ||
            (document.querySelector('h1')?.textContent ?? '').trim().length > 0,
        )
        const violations = await page.evaluate(
          () => (window as unknown as { __csp: string[] }).__csp,
        )
        if (!rendered) problems.push(`${url}: nothing rendered`)
        for (const v of [...violations, ...console]) problems.push(`${url}: ${v}`)
        await page.close()
      }
      expect(problems).toEqual([])
      expect(pageUrls.length).toBeGreaterThanOrEqual(20)
      report(
        `access: ${pageUrls.length} pages (public, pay, admin signed in, download, outbox) rendered in Chromium ` +
          `under their CSP with 0 violations`,
      )
    } finally {
      await browser?.close()
    }
  })
})
