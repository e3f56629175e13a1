import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { countRateLimitHit, resetRateLimit, sweepRateLimits } from '../../src/db/rateLimits'
import { slugs } from '../../src/collections/slugs'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/** The shared rate-limit counter (server/rateLimitStore.ts) on the shop's real database. */
let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop()
})

afterAll(async () => {
  await shop?.close()
})

const hit = (key: string, windowMs = 60_000, delta: 1 | -1 = 1) =>
  countRateLimitHit({ payload: shop.payload, key, windowMs, delta })

describe('the shared rate-limit counter', () => {
  it('counts concurrent hits exactly once each, in one window', async () => {
    const results = await Promise.all(Array.from({ length: 25 }, () => hit('burst')))
    expect(results.map((r) => r.hits).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    )
    expect(new Set(results.map((r) => r.resetAt.getTime())).size).toBe(1)
  })

  it('takes a skipped request back, never below zero', async () => {
    await hit('skip')
    await hit('skip')
    expect((await hit('skip', 60_000, -1)).hits).toBe(1)
    expect((await hit('skip', 60_000, -1)).hits).toBe(0)
    expect((await hit('skip', 60_000, -1)).hits).toBe(0)
    expect((await hit('skip')).hits).toBe(1)
  })

  it('starts a new window once the last one ended, and forgets ended windows when swept', async () => {
    const first = await hit('window', 150)
    await hit('window', 150)
    expect((await hit('window', 150)).hits).toBe(3)
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, first.resetAt.getTime() - Date.now()) + 20),
    )
    const next = await hit('window', 150)
    expect(next.hits).toBe(1)
    expect(next.resetAt.getTime()).toBeGreaterThan(first.resetAt.getTime())

    await sweepRateLimits({ payload: shop.payload, before: new Date(Date.now() + 1_000) })
    const left = await shop.payload.find({
      collection: slugs.rateLimits,
      where: { key: { equals: 'window' } },
    })
    expect(left.totalDocs).toBe(0)
    await hit('reset')
    await resetRateLimit({ payload: shop.payload, key: 'reset' })
    expect((await hit('reset')).hits).toBe(1)
  })
})
