import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { PaymentsHarness } from './support'
import {
  createOrder,
  getOrder,
  paymentsOf,
  payThenLoseUntilInvalid,
  productIdOf,
  startPaymentsHarness,
  waitForStatus,
} from './support'

/**
 * A payment absent from every index long enough is marked invalid, and one seen again is
 * restored: its order is judged anew, never left without the money the chain shows. Here the
 * span of absence is 0 minutes (PAYMENT_MISSING_MINUTES), so three full looks without it are
 * enough.
 */

let h: PaymentsHarness
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness({ env: { PAYMENT_MISSING_MINUTES: '0' } })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

describe('a payment that leaves every index and comes back', () => {
  it('is marked invalid after three full looks without it, then restored when seen again: the order is PAID', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    try {
      // Each block asks for a full look at the order; none finds the payment.
      await payThenLoseUntilInvalid(h, orderId)
    } finally {
      h.simulator.clearFaults()
    }
    const [gone] = await paymentsOf(h.shop.payload, orderId)
    expect(gone!.invalidReason).toMatch(/^Dropped: absent from every index/)
    await waitForStatus(h.shop.payload, orderId, 'AWAITING_PAYMENT')

    // Back in the indexes (it was mined meanwhile): restored, and the order is paid by it.
    h.simulator.state.mine(1)
    await waitForStatus(h.shop.payload, orderId, 'PAID', 15_000)
    const [restored] = await paymentsOf(h.shop.payload, orderId)
    expect(restored).toMatchObject({ invalidatedAt: null, invalidReason: null, missingLooks: 0 })
    expect(h.logs.some((l) => l.msg === 'payment restored: the chain has it again')).toBe(true)
    const order = await getOrder(h.shop.payload, orderId)
    expect(order.flags?.paidInvalid).toBe(false)
  })
})
