import type { Router } from 'express'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { arcCallbackToken, slugs } from '@shop/cms/engine'
import { productForm, runSql, validFields } from '@shop/cms/testing'
import { XHR } from '@shop/cms/testing'
import {
  SHIPPING,
  api,
  createOrder,
  productIdOf,
  waitFor,
  waitForStatus,
} from '@shop/payment-worker/testing'
import { shopEngine } from './support/engine'
import { recordFingerprint } from './support/fingerprint'
import {
  RAW_SEGMENTS,
  headerText,
  hostileJson,
  hostileShortString,
  hostileString,
  objectText,
  percentEncode,
  pollutionKey,
} from './support/hostile'
import type { RawResponse } from './support/http'
import { hasClearReason, rawRequest } from './support/http'
import { fmt, hardening, report } from './support/settings'
import type { HardeningShop } from './support/shop'
import { ADMIN, startHardeningShop } from './support/shop'

/**
 * Bad input: generated requests against every public and admin endpoint. Every
 * answer must be a 4xx with a reason or a 2xx/3xx; never a 5xx, never a hang, and nothing stored
 * may change unless the shop said yes (2xx to a state-changing call). On SQLite by default and on
 * PostgreSQL with `TEST_DB_ENGINE=postgres`, whose stricter types (4-byte ids) answer differently.
 */

type Endpoint = {
  method: string
  /** Express-style path; `:name` segments are filled from `ids[name]` or hostile strings. */
  path: string
  admin: boolean
  body: 'none' | 'json' | 'multipart'
  /** A valid body, mutated one field at a time (and the field names for random bodies). */
  valid?: Record<string, unknown>
  query?: string[]
  /** Headers a well-formed call carries (the generated headers still override them). */
  headers?: () => Record<string, string>
}

let h: HardeningShop
let ids: Record<string, string[]> = {}
let adminCookie = ''
let endpoints: Endpoint[] = []
const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort()

const PUBLIC: Endpoint[] = [
  { method: 'GET', path: '/healthz', admin: false, body: 'none' },
  { method: 'GET', path: '/api/products', admin: false, body: 'none' },
  { method: 'GET', path: '/api/products/:productId', admin: false, body: 'none' },
  ...['papers', 'timeline', 'bsv-price', 'shop-config'].map((name): Endpoint => ({
    method: 'GET',
    path: `/api/${name}`,
    admin: false,
    body: 'none',
  })),
  ...['legal', 'faqs', 'tools', 'wallets', 'papers-page'].map((name): Endpoint => ({
    method: 'GET',
    path: `/api/content/${name}`,
    admin: false,
    body: 'none',
  })),
  { method: 'POST', path: '/api/orders/create', admin: false, body: 'json' },
  { method: 'GET', path: '/api/orders/:orderId/info', admin: false, body: 'none' },
  { method: 'GET', path: '/api/orders/:orderId/payment-status', admin: false, body: 'none' },
  {
    method: 'POST',
    path: '/api/test-mode/orders/:orderId/pay',
    admin: false,
    body: 'json',
    valid: { amountBSV: '0.0001' },
  },
  { method: 'POST', path: '/api/test-mode/mine', admin: false, body: 'json', valid: {} },
  {
    method: 'POST',
    path: '/api/arc/callback',
    admin: false,
    body: 'json',
    // doc/arc.json's doubleSpendAttempted example, with ARC's Bearer token.
    valid: {
      timestamp: '2024-03-26T16:02:29.655390092Z',
      competingTxs: ['505097ba93702491a8a8e5c195a3d2706baf9d43af5e8898aeace0e251f240d2'],
      txid: '3d7770a2c3bbf890fe69ad33faadd3efb470b60d05b071eaa86e6597d480e111',
      txStatus: 'DOUBLE_SPEND_ATTEMPTED',
    },
    headers: () => ({ authorization: `Bearer ${arcCallbackToken(h.shop.payload)}` }),
  },
  { method: 'GET', path: '/api/:unknown', admin: false, body: 'none' },
  { method: 'GET', path: '/download/pdf/:token', admin: false, body: 'none' },
  { method: 'GET', path: '/test-mode/outbox', admin: false, body: 'none' },
  { method: 'GET', path: '/media/:file', admin: false, body: 'none' },
  { method: 'GET', path: '/documents/:file', admin: false, body: 'none' },
  { method: 'GET', path: '/:page', admin: false, body: 'none' },
]

/** What each admin route expects; a route the router gains later is fuzzed with generic bodies. */
const ADMIN_BODIES: Record<string, Pick<Endpoint, 'body' | 'valid' | 'query'>> = {
  'POST /login': { body: 'json', valid: { email: 'nobody@example.com', password: 'not-it-1' } },
  'PUT /change-password': {
    body: 'json',
    valid: { currentPassword: 'not-the-password', newPassword: 'a-new-password-1' },
  },
  'POST /products': { body: 'multipart', valid: validFields },
  'PUT /products/:id': { body: 'multipart', valid: validFields },
  'POST /orders/:id/ship': { body: 'json', valid: { trackingNumber: 'TRACK-123' } },
  'GET /orders': { body: 'none', query: ['page'] },
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']

beforeAll(async () => {
  // The rate limits have their own tests (access); here they would only hide the routes' logic.
  h = await startHardeningShop({
    env: { ORDER_CREATE_RATE_LIMIT: '100000', DOWNLOAD_RATE_LIMIT: '100000' },
  })
  const { payload } = h.shop
  adminCookie = h.admin.cookie!
  const digital = String(await productIdOf(payload, 'DIGITAL'))
  const physical = String(await productIdOf(payload, 'PHYSICAL'))
  PUBLIC.find((e) => e.path === '/api/orders/create')!.valid = {
    productId: digital,
    userEmail: 'buyer@example.com',
    tokenAddress: null,
    ...SHIPPING,
  }

  // A paid and fulfilled PDF order gives a real download token; a physical one awaits shipping.
  const paid = await createOrder(h.shop, Number(digital))
  const shipped = await createOrder(h.shop, Number(physical))
  for (const id of [paid, shipped])
    expect((await api(h.shop, `/api/test-mode/orders/${id}/pay`, { body: {} })).status).toBe(200)
  expect((await api(h.shop, '/api/test-mode/mine', { body: {} })).status).toBe(200)
  await h.worker.runOnce()
  await waitForStatus(payload, paid, 'PAID')
  await waitForStatus(payload, shipped, 'PROCESSING_DELIVERY')
  const downloadUrl = await waitFor(async () => {
    const status = await api(h.shop, `/api/orders/${paid}/payment-status`)
    return status.body.downloadUrl as string | null
  })
  const token = downloadUrl.split('/').pop()!
  const open = await createOrder(h.shop, Number(digital))
  const media = await payload.find({ collection: slugs.media, limit: 1 })
  const documents = await payload.find({ collection: slugs.documents, limit: 1 })

  ids = {
    productId: [digital, physical, '999999'],
    id: [digital, physical, paid, shipped, open, '00000000-0000-4000-8000-000000000000'],
    orderId: [paid, shipped, open, '00000000-0000-4000-8000-000000000000'],
    token: [token, 'A'.repeat(43)],
    file: [String(media.docs[0]?.filename), String(documents.docs[0]?.filename)],
    page: ['store', 'admin', 'papers', 'index.html'],
    unknown: ['nothing-here'],
  }

  expect(ids.file, 'a cover and a document to fetch').not.toContain('undefined')

  // Every admin route, read from the admin router itself.
  const { adminRouter, listAdminRoutes } = await import('@shop/cms/app')
  const { createLogger } = await import('@shop/cms/process')
  const routes = listAdminRoutes(
    adminRouter({ payload, logger: createLogger('silent'), publicUrl: h.shop.url }) as Router,
  )
  endpoints = [
    ...PUBLIC,
    ...routes.map(({ method, path }): Endpoint => ({
      method,
      path: `/api/admin${path}`,
      admin: true,
      ...(ADMIN_BODIES[`${method} ${path}`] ?? { body: method === 'GET' ? 'none' : 'json' }),
    })),
  ]
})

afterAll(async () => {
  await h?.close()
})

type Case = {
  method: string
  segments: Record<string, string>
  query: [string, string][]
  headers: Record<string, string>
  body: Body
}

type Body =
  | { kind: 'raw'; text: string; type: string | null }
  | { kind: 'multipart'; fields: Record<string, string>; file?: [string, string] }
  | null

const rawBody = ([text, type]: [string, string | null]): Body => ({ kind: 'raw', text, type })

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/xml',
  'application/json; boundary=--x',
  null,
)

function jsonBody(valid: Record<string, unknown> | undefined): fc.Arbitrary<string> {
  const base = valid ?? {}
  const fields = Object.keys(base)
  const mutated = fields.length
    ? fc
        .tuple(fc.constantFrom(...fields), fc.option(hostileJson, { nil: undefined }))
        .map(([field, value]) =>
          objectText(Object.entries(base).map(([k, v]) => [k, k === field ? value : v])),
        )
    : hostileJson.map((value) => JSON.stringify(value))
  const keys = fc.oneof(pollutionKey, fc.constantFrom(...fields, 'id', 'role'), hostileShortString)
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.subarray(fields),
          fc.array(fc.tuple(keys, hostileJson), { maxLength: 4 }),
          fc.array(hostileJson, { minLength: fields.length, maxLength: fields.length }),
        )
        .map(([kept, extra, values]) =>
          objectText([...kept.map((k, i): [string, unknown] => [k, values[i]]), ...extra]),
        ),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(pollutionKey, fc.constantFrom('polluted', 'isAdmin', 'role', 'status'))
        .map(
          ([key, prop]) =>
            `{${JSON.stringify(key)}:${key === 'constructor' ? `{"prototype":{"${prop}":"yes"}}` : `{"${prop}":"yes"}`}${
              fields.length ? `,${JSON.stringify(base).slice(1)}` : '}'
            }`,
        ),
    },
    { weight: 1, arbitrary: hostileJson.map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 1, arbitrary: hostileString },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 70_000, max: 300_000 })
        .map((n) => JSON.stringify({ ...base, pad: 'x'.repeat(n) })),
    },
  )
}

async function multipartOf(fields: Record<string, string>, file?: [string, string]) {
  const form = productForm(fields)
  if (file) form.append(file[0], new Blob([Buffer.from('not really a file')]), file[1])
  const response = new Response(form)
  return {
    text: Buffer.from(await response.arrayBuffer()),
    type: response.headers.get('content-type'),
  }
}

function multipartFields(valid: Record<string, unknown>): fc.Arbitrary<Record<string, string>> {
  const base = valid as Record<string, string>
  const fields = Object.keys(base)
  return fc.oneof(
    fc
      .tuple(fc.constantFrom(...fields), fc.option(hostileString, { nil: undefined }))
      .map(([field, value]) => {
        const copy: Record<string, string> = { ...base }
        if (value === undefined) delete copy[field]
        else copy[field] = value
        return copy
      }),
    fc
      .dictionary(
        fc.oneof(pollutionKey, fc.constantFrom(...fields), hostileShortString),
        hostileShortString,
        {
          maxKeys: 6,
        },
      )
      .map((extra) => Object.fromEntries(Object.entries(extra))),
  )
}

function caseFor(endpoint: Endpoint): fc.Arbitrary<Case> {
  const names = [...endpoint.path.matchAll(/:(\w+)/g)].map((m) => m[1]!)
  const segment = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...(ids[name] ?? ['1'])).map(percentEncode) },
      { weight: 4, arbitrary: hostileShortString.map(percentEncode) },
      { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
    )
  const segments = fc.record(Object.fromEntries(names.map((n) => [n, segment(n)])))
  const queryKeys = fc.oneof(
    fc.constantFrom(
      ...(endpoint.query ?? []),
      'page',
      'page[]',
      'limit',
      'where[id][equals]',
      'depth',
    ),
    pollutionKey,
    fc.constant('constructor[prototype][polluted]'),
    hostileShortString,
  )
  const query = fc.array(fc.tuple(queryKeys, hostileShortString), { maxLength: 4 })
  const present = (record: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as Record<
      string,
      string
    >
  // Mostly ordinary headers, so that generated bodies reach the routes' logic; sometimes
  // hostile credentials, origins and encodings.
  const ordinary = fc
    .record(
      {
        accept: fc.constantFrom('*/*', 'application/json', 'text/html', 'image/*', 'x/y;q=abc'),
        'accept-language': headerText,
        'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x', '*;q=0'),
        range: fc.constantFrom(
          'bytes=0-10',
          'bytes=-1',
          'bytes=999999999-',
          'bytes=a-b',
          'lines=1-2',
        ),
        'if-none-match': headerText,
        'if-modified-since': fc.constantFrom('Wed, 21 Oct 2099 07:28:00 GMT', 'not a date'),
        'if-match': fc.constantFrom('"x"', '*'),
        'if-unmodified-since': fc.constantFrom('Wed, 21 Oct 1970 07:28:00 GMT', 'not a date'),
        'x-forwarded-for': headerText,
        'x-forwarded-proto': fc.constantFrom('https', 'gopher', ''),
        'x-forwarded-host': headerText,
      },
      { requiredKeys: [] },
    )
    .map(present)
  const hostile = fc
    .record(
      {
        'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'x-unknown'),
        cookie: fc.oneof(headerText, fc.constant('payload-token=garbage')),
        origin: fc.constantFrom('https://evil.example', 'null', 'not a url'),
        referer: fc.constantFrom('https://evil.example/x', 'garbage'),
        'x-requested-with': fc.constantFrom('XMLHttpRequest', 'fetch', ''),
        authorization: fc.oneof(headerText, fc.constant('JWT garbage'), fc.constant('Bearer x')),
      },
      { requiredKeys: [] },
    )
    .map(present)
  const headers = fc.oneof(
    { weight: 2, arbitrary: fc.constant({}) },
    { weight: 4, arbitrary: ordinary },
    {
      weight: 1,
      arbitrary: fc.tuple(ordinary, hostile).map(([a, b]) => ({ ...a, ...b })),
    },
  )
  const method = fc.oneof(
    { weight: 8, arbitrary: fc.constant(endpoint.method) },
    { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
  )
  const body: fc.Arbitrary<Body> =
    endpoint.body === 'none'
      ? fc.oneof(
          { weight: 4, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.tuple(jsonBody({}), contentTypes).map(rawBody) },
        )
      : endpoint.body === 'json'
        ? fc.tuple(jsonBody(endpoint.valid), contentTypes).map(rawBody)
        : fc.oneof(
            {
              weight: 4,
              arbitrary: fc
                .tuple(
                  multipartFields(endpoint.valid ?? {}),
                  fc.option(
                    fc.tuple(
                      fc.constantFrom('coverImageFile', 'digitalFile', 'other', '__proto__'),
                      hostileShortString,
                    ),
                    { nil: undefined },
                  ),
                )
                .map(([fields, file]): Body => ({ kind: 'multipart', fields, file })),
            },
            {
              weight: 1,
              arbitrary: fc.tuple(jsonBody(endpoint.valid), contentTypes).map(rawBody),
            },
          )
  return fc.record({ method, segments, query, headers, body })
}

const fuzzed = { cases: 0, byStatus: new Map<number, number>(), unchangedChecks: 0 }

async function send(endpoint: Endpoint, c: Case): Promise<{ path: string; response: RawResponse }> {
  let path = endpoint.path.replace(/:(\w+)/g, (_m, name: string) => c.segments[name] ?? '')
  if (c.query.length)
    path += `?${c.query.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v)}`).join('&')}`
  const headers: Record<string, string> = { ...endpoint.headers?.(), ...c.headers }
  if (endpoint.admin) {
    // Mostly a well-formed admin call (deep paths); the generated headers still override it.
    headers.cookie = c.headers.cookie ?? adminCookie
    headers['x-requested-with'] = c.headers['x-requested-with'] ?? XHR['X-Requested-With']
  }
  let body: Buffer | string | undefined
  if (c.body?.kind === 'multipart') {
    const built = await multipartOf(c.body.fields, c.body.file)
    body = built.text
    headers['content-type'] = built.type!
  } else if (c.body) {
    body = c.body.text
    if (c.body.type) headers['content-type'] = c.body.type
  }
  const response = await rawRequest({ baseUrl: h.shop.url, method: c.method, path, headers, body })
  return { path, response }
}

describe('a product id past the database integer', () => {
  it('is an unknown product (404), not a query the database refuses (500)', async () => {
    // PostgreSQL's ids are 4-byte integers (`serial`): 2147483648 is the first past them, and the
    // server refuses it in a query ("value out of range for type integer"). SQLite's have 8 bytes.
    const answers: string[] = []
    for (const id of ['2147483648', '9007199254740993']) {
      for (const [method, path, json] of [
        ['GET', `/products/${id}`, undefined],
        ['PUT', `/products/${id}`, {}],
        ['DELETE', `/products/${id}`, undefined],
        ['POST', `/products/${id}/restore`, {}],
      ] as const) {
        const response = await h.admin.request(method, path, { json })
        answers.push(`${method} ${path} ${response.status}`)
      }
      const checkout = await api(h.shop, '/api/orders/create', {
        body: { productId: id, userEmail: 'buyer@example.com', tokenAddress: null, ...SHIPPING },
      })
      answers.push(`checkout of ${id} ${checkout.status}`)
    }
    expect(answers).toEqual(
      ['2147483648', '9007199254740993'].flatMap((id) => [
        `GET /products/${id} 404`,
        `PUT /products/${id} 404`,
        `DELETE /products/${id} 404`,
        `POST /products/${id}/restore 404`,
        `checkout of ${id} 404`,
      ]),
    )
  })
})

describe('bad input on every endpoint', () => {
  it('answers generated requests with a 4xx and a reason or a correct 2xx; never a 5xx, a hang or an unwanted change', async () => {
    const fingerprint = recordFingerprint(h.shop.payload)
    expect(endpoints.length).toBeGreaterThanOrEqual(PUBLIC.length + 14)
    // The fingerprint sees a write beneath Payload, on either engine: one column of one row.
    const unwritten = await fingerprint()
    expect(await fingerprint()).toBe(unwritten)
    await runSql(h.shop.payload, 'UPDATE staff SET name = ? WHERE email = ?', [
      'Ada Owner, fingerprinted',
      ADMIN.email,
    ])
    expect(await fingerprint(), 'a write the fingerprint missed').not.toBe(unwritten)

    for (const endpoint of endpoints) {
      await fc.assert(
        fc.asyncProperty(caseFor(endpoint), async (c) => {
          const before = await fingerprint()
          const { path, response } = await send(endpoint, c)
          fuzzed.cases += 1
          fuzzed.byStatus.set(response.status, (fuzzed.byStatus.get(response.status) ?? 0) + 1)
          const what = `${c.method} ${path.slice(0, 200)} -> ${response.status} ${response.text.slice(0, 200)}`
          expect(response.status, what).toBeGreaterThanOrEqual(200)
          expect(response.status, what).toBeLessThan(500)
          if (response.status >= 400 && c.method !== 'HEAD')
            expect(hasClearReason(response), `no reason given: ${what}`).toBe(true)
          const readOnly =
            ['GET', 'HEAD', 'OPTIONS'].includes(c.method) && !path.startsWith('/download/')
          if (response.status >= 400 || readOnly) {
            expect(await fingerprint(), `a refused or read-only call changed data: ${what}`).toBe(
              before,
            )
            fuzzed.unchangedChecks += 1
          }
          // A successful sign-out ends the admin's session: sign in again (not over HTTP, where
          // the fuzzed failed sign-ins have used up this address's attempts).
          if (endpoint.path === '/api/admin/logout' && response.status === 200) {
            const { token } = await h.shop.payload.login({ collection: slugs.staff, data: ADMIN })
            adminCookie = `payload-token=${token}`
          }
        }),
        { numRuns: hardening.fuzzRuns, endOnFailure: true },
      )
    }

    // Nothing reached Object.prototype through "__proto__" or "constructor.prototype" keys.
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined()

    const statuses = [...fuzzed.byStatus.entries()].sort(([a], [b]) => a - b)
    const serverErrors = statuses.filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0)
    report(
      `bad input (${shopEngine(h.shop.payload)}): ${fmt(fuzzed.cases)} cases on ${endpoints.length} endpoints, ${serverErrors} server errors, 0 hangs, ` +
        `${fmt(fuzzed.unchangedChecks)} refused/read-only answers checked unchanged, 0 unexpected changes, ` +
        `prototype clean (statuses ${statuses.map(([s, n]) => `${s}:${n}`).join(' ')})`,
    )
    expect(serverErrors).toBe(0)
    expect(fuzzed.cases).toBeGreaterThanOrEqual(endpoints.length * hardening.fuzzRuns)
  })
})
