import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import { createStaff } from '@shop/cms/testing'
import type { Order } from '@shop/cms/engine'
import { sharedShopEnv, spawnTs } from './spawn'
import type { PaymentsHarness } from './support'
import { SHIPPING, startPaymentsHarness, waitFor } from './support'

/** Download attempts one client may make per minute, in both processes together. */
const LIMIT = 6
let h: PaymentsHarness
let second: ReturnType<typeof spawnTs>
let secondUrl: string

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false, env: { DOWNLOAD_RATE_LIMIT: String(LIMIT) } })
  second = spawnTs('payment-worker/test/payments/fixtures/web-process.ts', {
    ...sharedShopEnv(),
    DOWNLOAD_RATE_LIMIT: String(LIMIT),
    LOG_LEVEL: 'warn',
  })
  secondUrl = await waitFor(async () => /\{"url":"([^"]+)"\}/.exec(second.output())?.[1], {
    timeoutMs: 90_000,
    intervalMs: 50,
  }).catch((error: unknown) => {
    throw new Error(`the second web process did not start: ${String(error)}\n${second.output()}`)
  })
})

afterAll(async () => {
  second?.child.kill('SIGTERM')
  await second?.exited
  await h?.close()
})

describe('two web processes selling the last copies', () => {
  it('sells exactly 10 copies to 40 concurrent buyers and never goes below zero', async () => {
    const product = await h.shop.payload.create({
      collection: slugs.products,
      data: {
        name: 'Ten copies',
        type: 'PHYSICAL',
        priceEUR: 20,
        totalStock: 10,
        currentStock: 10,
        isAvailable: true,
      },
    })
    const buy = (base: string, i: number) =>
      fetch(`${base}/api/orders/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          productId: product.id,
          userEmail: `buyer${i}@example.com`,
          tokenAddress: null,
          ...SHIPPING,
        }),
      }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as { success: boolean; orderId?: string; error?: string },
      }))

    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => buy(i % 2 === 0 ? h.shop.url : secondUrl, i)),
    )
    const sold = results.filter((r) => r.status === 201)
    expect(sold).toHaveLength(10)
    expect(results.filter((r) => r.status === 409).map((r) => r.body.error)).toEqual(
      Array(30).fill('This book is out of stock.'),
    )

    const stock = (await h.shop.payload.findByID({ collection: slugs.products, id: product.id }))
      .currentStock
    expect(stock).toBe(0)
    const orders = (
      await h.shop.payload.find({
        collection: slugs.orders,
        where: { product: { equals: product.id } },
        limit: 100,
      })
    ).docs as Order[]
    expect(orders).toHaveLength(10)
    expect(new Set(orders.map((o) => o.addressIndex)).size).toBe(10)
    expect(new Set(orders.map((o) => o.paymentAddress)).size).toBe(10)
    // Each process answered every one of its 20 buyers: an order or a clear refusal.
    for (const side of [0, 1]) {
      const answers = results.filter((_, i) => i % 2 === side)
      expect(answers.every((r) => r.status === 201 || r.status === 409)).toBe(true)
    }
  })
})

describe('two web processes behind one proxy', () => {
  it('enforce one rate limit per client between them', async () => {
    // A prober alternating between the processes: each would otherwise count only its own half.
    const statuses: number[] = []
    for (let i = 0; i < 2 * LIMIT; i += 1) {
      const base = i % 2 === 0 ? h.shop.url : secondUrl
      statuses.push((await fetch(`${base}/download/pdf/not-a-token-${i}`)).status)
    }
    expect(statuses.filter((status) => status !== 429)).toHaveLength(LIMIT)
    expect(statuses.slice(LIMIT)).toEqual(Array.from({ length: LIMIT }, () => 429))
  })

  it('space one account’s sign-in attempts together (decision 007)', async () => {
    const owner = { email: 'two-doors@example.com', password: 'Quartz-ledger-owner-7193' }
    await createStaff({ payload: h.shop.payload, ...owner, role: 'admin' })
    const login = (base: string, password: string) =>
      fetch(`${base}/api/admin/login`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-requested-with': 'XMLHttpRequest',
          origin: base,
        },
        body: JSON.stringify({ email: owner.email, password }),
      }).then((r) => r.status)
    // Five wrong passwords, alternating between the processes: three free, then 1 s and 2 s.
    // Counted per process (three and two), none would have waited.
    const started = Date.now()
    const wrong: number[] = []
    for (let i = 0; i < 5; i += 1)
      wrong.push(await login(i % 2 === 0 ? h.shop.url : secondUrl, `wrong-password-${i}`))
    expect(wrong).toEqual([401, 401, 401, 401, 401])
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900)
    // The owner still gets in (after the account's next turn), and that clears the account.
    expect(await login(secondUrl, owner.password)).toBe(200)
    const after = Date.now()
    expect(await login(h.shop.url, owner.password)).toBe(200)
    expect(Date.now() - after).toBeLessThan(2_000)
  })
})
