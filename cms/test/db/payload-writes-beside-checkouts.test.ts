import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { createStaff } from '../admin/client'
import { SHIPPING, productIdOf } from '../payments/support'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Finding 1 of issue 14: Payload writes on its own (forgot-password's request stamp, login
 * attempt counters, unlock, preferences, document locks, sessions) beside the shop's writes.
 * A write Payload makes outside the transaction it has just opened used to wait on the shop's
 * writer queue, which that same transaction held: the process deadlocked and every checkout
 * answered 500. Every write must go through one discipline that cannot deadlock.
 */

const OWNER = { email: 'writer-owner@example.com', password: 'a-long-owner-passphrase-42' }

let shop: TestShop
let productId: number
let ownerCookie: string

async function cms(path: string, init: RequestInit = {}, cookie?: string) {
  const headers = new Headers(init.headers)
  if (init.body && !headers.has('content-type')) headers.set('content-type', 'application/json')
  if (cookie) {
    headers.set('cookie', cookie)
    headers.set('sec-fetch-site', 'same-origin') // as from a page of the shop (Payload's CSRF check)
  }
  try {
    const response = await fetch(`${shop.url}/cms/api${path}`, {
      ...init,
      headers,
      signal: AbortSignal.timeout(20_000),
    })
    await response.arrayBuffer()
    return `${path} ${response.status}`
  } catch (error) {
    // A hung request (the deadlock) is reported as such rather than thrown.
    return `${path} ${(error as Error).name}`
  }
}

const failed = (answer: string) => !/ [1-4]\d\d$/.test(answer)

async function checkout(i: number) {
  try {
    return await tryCheckout(i)
  } catch (error) {
    return { status: (error as Error).name, orderId: undefined }
  }
}

async function tryCheckout(i: number) {
  const response = await fetch(`${shop.url}/api/orders/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      productId,
      userEmail: `writer-buyer-${i}@example.com`,
      tokenAddress: null,
      ...SHIPPING,
    }),
    signal: AbortSignal.timeout(20_000),
  })
  const body = (await response.json()) as { orderId?: string }
  return { status: response.status, orderId: body.orderId }
}

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, env: { ORDER_CREATE_RATE_LIMIT: '1000' } })
  productId = await productIdOf(shop.payload, 'PHYSICAL')
  await shop.payload.update({
    collection: slugs.products,
    id: productId,
    data: { currentStock: 500, totalStock: 500 },
  })
  await createStaff({ payload: shop.payload, ...OWNER, role: 'admin' })
  const response = await fetch(`${shop.url}/cms/api/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(OWNER),
  })
  expect(response.status).toBe(200)
  ownerCookie = response.headers.getSetCookie()[0]!.split(';')[0]!
})

afterAll(async () => {
  await shop?.close()
})

describe('Payload writes on its own beside checkouts', () => {
  it('answers every auth, preference and lock call and every checkout, with no 5xx and no lost order', async () => {
    const payloadCalls: (() => Promise<string>)[] = [
      () =>
        cms('/staff/forgot-password', {
          method: 'POST',
          body: JSON.stringify({ email: OWNER.email }),
        }),
      () =>
        cms('/staff/forgot-password', {
          method: 'POST',
          body: JSON.stringify({ email: 'nobody@example.com' }),
        }),
      () =>
        cms('/staff/login', {
          method: 'POST',
          body: JSON.stringify({ email: OWNER.email, password: 'wrong-password-wrong' }),
        }),
      () =>
        cms('/staff/login', {
          method: 'POST',
          body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password-wrong' }),
        }),
      () =>
        cms(
          '/staff/unlock',
          { method: 'POST', body: JSON.stringify({ email: OWNER.email }) },
          ownerCookie,
        ),
      () =>
        cms(
          '/payload-preferences/writer-test',
          { method: 'POST', body: JSON.stringify({ value: { columns: ['id'] } }) },
          ownerCookie,
        ),
      () => cms('/staff/me', {}, ownerCookie),
      () => cms('/staff/refresh-token', { method: 'POST' }, ownerCookie),
      () =>
        cms(
          '/payload-locked-documents',
          {
            method: 'POST',
            body: JSON.stringify({
              document: { relationTo: slugs.papers, value: 1 },
              globalSlug: null,
            }),
          },
          ownerCookie,
        ),
      () =>
        cms('/staff/first-register', {
          method: 'POST',
          body: JSON.stringify({ email: 'intruder@example.com', password: 'x'.repeat(20) }),
        }),
    ]

    const rounds = 3
    const calls: Promise<string>[] = []
    const checkouts: Promise<{ status: number | string; orderId?: string }>[] = []
    for (let round = 0; round < rounds; round += 1) {
      for (const call of payloadCalls) calls.push(call())
      for (let i = 0; i < 5; i += 1) checkouts.push(checkout(round * 5 + i))
    }
    const statuses = await Promise.all(calls)
    const done = await Promise.all(checkouts)

    expect(statuses.filter(failed)).toEqual([])
    expect(done.map((d) => d.status)).toEqual(done.map(() => 201))

    const stored = await shop.payload.find({
      collection: slugs.orders,
      where: { id: { in: done.map((d) => d.orderId!) } },
      limit: 100,
      depth: 0,
    })
    expect(stored.totalDocs).toBe(done.length)

    // The shop still writes afterwards: nothing was left holding the writer.
    expect((await checkout(999)).status).toBe(201)
  })
})
