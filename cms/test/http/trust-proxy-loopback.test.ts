import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'
import { ordersWithForgedAddresses } from './forwardedFor'

let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({ env: { ORDER_CREATE_RATE_LIMIT: '2', TRUST_PROXY: 'loopback' } })
})

afterAll(async () => {
  await shop?.close()
})

describe('TRUST_PROXY=loopback (a proxy on the same machine)', () => {
  it("takes each client's address from the proxy's X-Forwarded-For", async () => {
    // Four clients behind the proxy, each with its own bucket.
    expect(await ordersWithForgedAddresses(shop)).toEqual([201, 201, 201, 201])
  })
})
