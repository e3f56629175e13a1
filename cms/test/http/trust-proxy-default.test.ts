import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import { ordersWithForgedAddresses } from './forwardedFor'

/**
 * Issue 14, finding 6: `trust proxy` was fixed at one hop in production while the shop could be
 * reached directly, so a forged X-Forwarded-For gave every request a fresh rate-limit bucket.
 * By default nobody is trusted.
 */

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ env: { ORDER_CREATE_RATE_LIMIT: '2', TRUST_PROXY: '' } })
})

afterAll(async () => {
  await shop?.close()
})

describe('TRUST_PROXY unset', () => {
  it('keeps one rate-limit bucket per connection whatever X-Forwarded-For claims', async () => {
    expect(await ordersWithForgedAddresses(shop)).toEqual([201, 201, 429, 429])
  })
})
