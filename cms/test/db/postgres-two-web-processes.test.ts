import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { LOGIN_RATE_LIMIT } from '../../src/api/admin/auth'
import { slugs } from '../../src/collections/slugs'
import { loadEnv } from '../../src/config/env'
import { clientKeyOf, TOO_MANY_WAITING } from '../../src/operations/orders/limitOpenOrders'
import { createPrintedBook, SHIPPING } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import type { WebProcess } from '../support/webProcess'
import { startWebProcess } from '../support/webProcess'

/**
 * Two web processes on one PostgreSQL database, as compose runs them behind Caddy (`web`,
 * `web-2`): one client's burst of checkouts, sent to both at once, gets no more unpaid orders
 * than the open-order limit allows it, and the per-client rate limits count its requests to
 * both together. The client is who the shop says it is behind a proxy on the same machine
 * (TRUST_PROXY=loopback): the address in X-Forwarded-For.
 */

const SECRET = 'test-secret-test-secret-test-secret-0123'
/** The shop's own limits: the web processes below run with the defaults. */
const defaults = loadEnv({ NODE_ENV: 'test' })
let shop: TestShop
let webs: WebProcess[] = []
let productId: number

beforeAll(async () => {
  // The schema pushed by the test shop; the two web processes push nothing and seed nothing.
  shop = await startTestShop({ engine: 'postgres', seed: false, env: { PAYLOAD_SECRET: SECRET } })
  productId = await createPrintedBook(shop.payload, { name: 'Shared shelf', stock: 100 })
  webs = await Promise.all(
    [1, 2].map(() =>
      startWebProcess({
        env: () => ({
          NODE_ENV: 'test',
          DATA_DIR: shop.dataDir,
          DATABASE_URI: shop.databaseUri,
          DB_PUSH: 'false',
          SEED: 'never',
          PAYLOAD_SECRET: SECRET,
          TRUST_PROXY: 'loopback',
        }),
      }),
    ),
  )
}, 180_000)

afterAll(async () => {
  await Promise.all(webs.map((web) => web.stop()))
  await shop?.close()
})

type Answer = { status: number; error?: string; message?: string; orderId?: string }

/** The i-th request of a burst goes to web process i % 2, as the client at `address`. */
async function post(i: number, address: string, path: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${webs[i % 2]!.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': address,
      'x-requested-with': 'XMLHttpRequest',
    },
    body: JSON.stringify(body),
  })
  return { status: response.status, ...((await response.json()) as Omit<Answer, 'status'>) }
}

const checkout = (i: number, address: string, userEmail: string) =>
  post(i, address, '/api/orders/create', {
    productId,
    userEmail,
    tokenAddress: null,
    ...SHIPPING,
  })

/** How many answers of each kind: `201`, `429: <error>`. */
const tally = (answers: Answer[]) => {
  const counts: Record<string, number> = {}
  for (const a of answers) {
    const key = a.status === 201 ? '201' : `${a.status}: ${a.error ?? a.message}`
    counts[key] = (counts[key] ?? 0) + 1
  }
  return counts
}

const unpaidOrders = async (where: Record<string, { equals: string }>) =>
  (
    await shop.payload.find({
      collection: slugs.orders,
      where: { ...where, status: { equals: 'AWAITING_PAYMENT' } },
      limit: 0,
    })
  ).totalDocs

describe('two web processes on one PostgreSQL database', () => {
  it("keep one client's open-order limit against a burst of checkouts sent to both", async () => {
    const limit = defaults.maxOpenOrdersPerClient
    const address = '198.51.100.7'
    // Another e-mail address each, so only the client's limit applies.
    const answers = await Promise.all(
      Array.from({ length: 4 * limit }, (_, i) => checkout(i, address, `buyer${i}@example.com`)),
    )
    expect(tally(answers)).toEqual({
      '201': limit,
      [`429: ${TOO_MANY_WAITING}`]: 3 * limit,
    })
    // Each process had twice the limit sent to it: both refused some.
    const refusedBy = new Set(answers.flatMap((a, i) => (a.status === 429 ? [i % 2] : [])))
    expect(refusedBy.size).toBe(2)
    // Stored as this client's, under the key both processes derive from its address.
    expect(await unpaidOrders({ clientKey: { equals: clientKeyOf(shop.payload, address) } })).toBe(
      limit,
    )
  })

  it("keep one e-mail address's open-order limit against checkouts from many clients", async () => {
    const limit = defaults.maxOpenOrdersPerEmail
    const answers = await Promise.all(
      Array.from({ length: 4 * limit }, (_, i) =>
        checkout(i, `198.51.100.${100 + i}`, 'one-reader@example.com'),
      ),
    )
    expect(tally(answers)).toEqual({
      '201': limit,
      [`429: ${TOO_MANY_WAITING}`]: 3 * limit,
    })
    expect(await unpaidOrders({ userEmail: { equals: 'one-reader@example.com' } })).toBe(limit)
  })

  it("count one client's checkouts on both against one rate limit", async () => {
    const limit = defaults.orderCreateRateLimit
    // Requests the limiter counts before reading them: no order is placed (400), so the
    // open-order limit plays no part.
    const answers = await Promise.all(
      Array.from({ length: limit + 10 }, (_, i) =>
        post(i, '198.51.100.8', '/api/orders/create', {}),
      ),
    )
    expect(tally(answers)).toEqual({
      '400: Please choose a book.': limit,
      '429: Too many orders from your connection. Please wait a minute and try again.': 10,
    })
  })

  it("count one client's failed sign-ins on both against one rate limit", async () => {
    const { limit } = LOGIN_RATE_LIMIT
    // Malformed attempts: refused (400) before any password is checked, still counted.
    const answers = await Promise.all(
      Array.from({ length: limit + 10 }, (_, i) =>
        post(i, '198.51.100.9', '/api/admin/login', { email: `guess${i}@example.com` }),
      ),
    )
    expect(tally(answers)).toEqual({
      '400: Password is required.': limit,
      '429: Too many sign-in attempts. Try again later.': 10,
    })
  })
})
