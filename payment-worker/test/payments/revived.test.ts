import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { PaymentsHarness } from './support'
import {
  createOrder,
  getOrder,
  paymentsOf,
  payThenLoseUntilInvalid,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

/**
 * Reversible to the end: an order that expired while its payment was judged missing or invalid,
 * whose payment the chain then shows mined, is PAID and delivered once, with its copy taken
 * again; a printed copy sold out meanwhile goes to the owner as needing attention. The span of
 * absence is 0 minutes (PAYMENT_MISSING_MINUTES), so three full looks without it are enough.
 */

let h: PaymentsHarness

beforeAll(async () => {
  h = await startPaymentsHarness({ env: { PAYMENT_MISSING_MINUTES: '0' } })
})

afterAll(async () => {
  await h?.close()
})

const stockOf = async (productId: number) =>
  Number(
    (await h.shop.payload.findByID({ collection: slugs.products, id: productId, depth: 0 }))
      .currentStock,
  )

/** Pays the order, then loses its payment until it is invalid and the order has expired. */
async function expireWhileItsPaymentIsGone(orderId: string): Promise<string> {
  const txid = await payThenLoseUntilInvalid(h, orderId)
  // Its deadline passes while the payment is gone (the harness gives no grace).
  await h.shop.payload.update({
    collection: slugs.orders,
    id: orderId,
    data: { gatewayExpiresAt: new Date(Date.now() - 1_000).toISOString() },
  })
  await waitForStatus(h.shop.payload, orderId, 'EXPIRED', 15_000)
  return txid
}

describe('an order expired while its payment was gone', () => {
  it('is PAID and delivered once when the payment is mined, its copy taken again', async () => {
    const productId = await productIdOf(h.shop.payload, 'DIGITAL')
    const stockAtStart = await stockOf(productId)
    const orderId = await createOrder(h.shop, productId)
    await expireWhileItsPaymentIsGone(orderId)
    expect(await stockOf(productId)).toBe(stockAtStart)

    // Back in the indexes, and mined: the payment was first seen before the deadline.
    h.simulator.clearFaults()
    h.simulator.state.mine(1)
    await waitForStatus(h.shop.payload, orderId, 'PAID', 15_000)
    const order = await waitFor(async () => {
      const o = await getOrder(h.shop.payload, orderId)
      return o.fulfilledAt ? o : null
    })
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect(payment).toMatchObject({ invalidatedAt: null, late: false })
    expect(order.flags?.paidLate).toBe(false)
    expect(order.downloadToken).toBeTruthy()
    expect(await stockOf(productId)).toBe(stockAtStart - 1)

    // Delivered once: more blocks and looks change nothing.
    h.simulator.state.mine(2)
    await h.worker.nextPass()
    await h.worker.nextPass()
    const tokens = await h.shop.payload.count({
      collection: slugs.downloadTokens,
      where: { order: { equals: orderId } },
    })
    expect(tokens.totalDocs).toBe(1)
    expect(await stockOf(productId)).toBe(stockAtStart - 1)
    const history = (await getOrder(h.shop.payload, orderId)).history ?? []
    expect(history.filter((e) => e.toStatus === 'PAID' && e.fromStatus !== 'PAID')).toHaveLength(1)
  })

  it('goes to the owner as needing attention when its printed copy sold out meanwhile', async () => {
    const productId = await productIdOf(h.shop.payload, 'PHYSICAL')
    const orderId = await createOrder(h.shop, productId)
    await expireWhileItsPaymentIsGone(orderId)
    // The last copies are sold meanwhile.
    await h.shop.payload.update({
      collection: slugs.products,
      id: productId,
      data: { currentStock: 0 },
    })
    h.simulator.clearFaults()
    h.simulator.state.mine(1)
    const order = await waitFor(
      async () => {
        const o = await getOrder(h.shop.payload, orderId)
        return o.attentionSince ? o : null
      },
      { timeoutMs: 15_000 },
    )
    expect(order.status).toBe('EXPIRED')
    expect(order.attention).toMatch(/No copy of this product is left/)
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect(payment).toMatchObject({ invalidatedAt: null, late: false })
    expect(await stockOf(productId)).toBe(0)
  })
})
