import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import { ordersWithForgedAddresses } from './forwardedFor'

/**
 * By default nobody is trusted as a proxy: with `trust proxy` fixed at one hop while the shop
 * can be reached directly, a forged X-Forwarded-For would give every request a fresh rate-limit
 * bucket.
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
