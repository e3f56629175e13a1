import { expect } from 'vitest'

import { SHIPPING, productIdOf } from '../support/shopApi'
import type { TestShop } from '../support/testShop'

/**
 * Order creations from one client that claims a new address (X-Forwarded-For) on each request,
 * against ORDER_CREATE_RATE_LIMIT=2: the statuses answered.
 */
export async function ordersWithForgedAddresses(shop: TestShop): Promise<number[]> {
  const productId = await productIdOf(shop.payload, 'PHYSICAL')
  const statuses: number[] = []
  for (let i = 0; i < 4; i += 1) {
    const response = await fetch(`${shop.url}/api/orders/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i + 1}` },
      body: JSON.stringify({ productId, userEmail: `forged${i}@example.com`, ...SHIPPING }),
    })
    await response.arrayBuffer()
    statuses.push(response.status)
  }
  expect(statuses[0]).toBe(201)
  return statuses
}
