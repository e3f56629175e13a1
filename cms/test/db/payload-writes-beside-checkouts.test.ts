import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { createStaff } from '../admin/client'
import { productIdOf, SHIPPING } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import { answeredWithout5xx, payloadWritesBesideCheckouts } from './payloadWritesScenario'

/**
 * Payload writes on its own beside the shop's writes (decision 008). A write Payload makes
 * outside the transaction it has just opened must not wait on the shop's writer queue, which that
 * same transaction holds: the process would deadlock and every checkout answer 500 until a
 * restart.
 * (The hardening suite runs the same scenario for longer: hardening/payload-writes.test.ts.)
 */

const WRITES_OWNER = {
  email: 'writer-owner@example.com',
  password: 'Quartz-ledger-owner-7193',
}

let shop: TestShop
let productId: number
let ownerCookie: string

beforeAll(async () => {
  shop = await startTestShop({ withCms: true, env: { ORDER_CREATE_RATE_LIMIT: '1000' } })
  productId = await productIdOf(shop.payload, 'PHYSICAL')
  await shop.payload.update({
    collection: slugs.products,
    id: productId,
    data: { currentStock: 500, totalStock: 500 },
  })
  await createStaff({ payload: shop.payload, ...WRITES_OWNER, role: 'admin' })
  const response = await fetch(`${shop.url}/cms/api/staff/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(WRITES_OWNER),
  })
  expect(response.status).toBe(200)
  ownerCookie = response.headers.getSetCookie()[0]!.split(';')[0]!
})

afterAll(async () => {
  await shop?.close()
})

describe('Payload writes on its own beside checkouts', () => {
  it.each([
    ['sign-in', '/cms/api/staff/login'],
    ['password reset', '/cms/api/staff/forgot-password'],
  ])("a %s waiting for its turn holds none of the shop's writes", async (kind, door) => {
    const account = { email: `guessed-${kind.replace(' ', '-')}@example.com` }
    await createStaff({
      payload: shop.payload,
      ...account,
      password: 'Quartz-ledger-owner-7193',
      role: 'admin',
    })
    const attempt = async (i: number) => {
      const response = await fetch(`${shop.url}${door}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: `wrong-guess-${i}` }),
      })
      await response.arrayBuffer()
      return { status: response.status, at: performance.now() }
    }
    // Three free attempts, then the fourth waits 1 s for its turn and the fifth 3 s (decision
    // 007). A reset request waited inside Payload's transaction, holding the shop's write lock:
    // the checkout waited behind it (and under a rush, checkouts were turned away as busy).
    const attempts = Array.from({ length: 5 }, (_, i) => attempt(i))
    await Promise.race(attempts)
    const checkout = await fetch(`${shop.url}/api/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        productId,
        userEmail: `buyer-beside-${kind.replace(' ', '-')}@example.com`,
        tokenAddress: null,
        ...SHIPPING,
      }),
    })
    const checkoutAt = performance.now()
    expect(checkout.status).toBe(201)
    const answered = await Promise.all(attempts)
    expect(answered.map((a) => a.status)).toEqual(Array(5).fill(kind === 'sign-in' ? 401 : 200))
    // The two attempts still waiting for their turns answer after the checkout.
    expect(answered.filter((a) => a.at > checkoutAt).length).toBeGreaterThanOrEqual(2)
  })

  it('answers every auth, preference and lock call and every checkout, with no 5xx and no lost order', async () => {
    const result = await payloadWritesBesideCheckouts({
      shop,
      productId,
      owner: WRITES_OWNER,
      ownerCookie,
      rounds: 3,
    })
    expect(result.answers.filter((a) => !answeredWithout5xx(a))).toEqual([])
    expect(result.checkouts.map((c) => c.status)).toEqual(result.checkouts.map(() => 201))
    expect(result.lost).toBe(0)

    // The shop still writes afterwards: nothing was left holding the writer.
    const again = await payloadWritesBesideCheckouts({
      shop,
      productId,
      owner: WRITES_OWNER,
      ownerCookie,
      rounds: 1,
      checkoutsPerRound: 1,
    })
    expect(again.checkouts[0]!.status).toBe(201)
  })
})
