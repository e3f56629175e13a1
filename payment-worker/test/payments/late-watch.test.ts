import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import { WEEK_WATCH_INTERVAL_MS } from '../../src/watch/interval'
import type { PaymentsHarness } from './support'
import {
  api,
  createOrder,
  getOrder,
  paymentsOf,
  productIdOf,
  startPaymentsHarness,
} from './support'

/**
 * A late payment on day 2: an order that expired 26 hours ago is still
 * watched, every 30 minutes, and money sent to it then is recorded and flagged for the owner.
 * The worker's clock is moved by the test (its passes are run one by one); the chain, the
 * database and the shop are real.
 */
const HOUR = 3_600_000
let h: PaymentsHarness
let offset = 0
const clock = () => Date.now() + offset

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false, clock })
})

afterAll(async () => {
  await h?.close()
})

describe('a late payment on day 2', () => {
  it('is recorded within the half-hour interval of the first week, and flagged to settle', async () => {
    const orderId = await createOrder(h.shop, await productIdOf(h.shop.payload, 'DIGITAL'))
    await h.shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { gatewayExpiresAt: new Date(Date.now() - 26 * HOUR).toISOString() },
    })
    await h.worker.runOnce()
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('EXPIRED')

    const paidAt = clock()
    const { status } = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    expect(status).toBe(200)

    // Not looked at again before its interval: day-2 orders cost one call per 30 minutes.
    offset += 60_000
    await h.worker.runOnce()
    expect(await paymentsOf(h.shop.payload, orderId)).toHaveLength(0)

    // Within the interval it is seen, wherever the first look fell in it.
    let seenAfter = 0
    for (let minutes = 2; minutes <= 31 && seenAfter === 0; minutes += 1) {
      offset += 60_000
      await h.worker.runOnce()
      if ((await paymentsOf(h.shop.payload, orderId)).length > 0) seenAfter = clock() - paidAt
    }
    expect(seenAfter).toBeGreaterThan(0)
    expect(seenAfter).toBeLessThanOrEqual(WEEK_WATCH_INTERVAL_MS + 60_000)
    console.log(
      `[late watch] a payment 26 h after expiry was recorded ${Math.round(seenAfter / 60_000)} min after it was sent (worker clock)`,
    )

    const order = await getOrder(h.shop.payload, orderId)
    expect(order.status).toBe('EXPIRED')
    expect(order.flags).toMatchObject({ paidLate: true, paidPartial: false })
    expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect(payment?.late).toBe(true)
  })
})
