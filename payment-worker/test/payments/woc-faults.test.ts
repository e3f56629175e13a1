import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { PaymentsHarness } from './support'
import {
  api,
  createOrder,
  getOrder,
  paymentsOf,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

/**
 * The payment worker against WhatsOnChain as its documentation describes it, the simulator's
 * faults switched on: a history cut at its page limit, an address whose history always errors, a
 * transaction every index loses for a while, and bursts of 429. None of them may keep a buyer's
 * money without delivering, or stop the worker watching the other orders.
 */

let h: PaymentsHarness
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness({ env: { CONFIRMATIONS_REQUIRED: '1' } })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

const pay = async (orderId: string) => {
  const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
  expect(paid.status).toBe(200)
  return paid.body.txid as string
}

/** The order's payments as stored, each with when it was invalidated, if ever. */
const invalidated = async (orderId: string) =>
  (await paymentsOf(h.shop.payload, orderId)).filter((p) => p.invalidatedAt)

describe('a payment among dust', () => {
  it('is found past the page limit when 25 dust outputs share its block: the order is PAID', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    // Anyone may send dust to an address shown on screen; all of it lands in the same block.
    for (let i = 0; i < 25; i += 1) h.simulator.state.mint(paymentAddress, 546)
    h.simulator.state.mine(1)
    await waitForStatus(h.shop.payload, orderId, 'PAID')
    expect((await getOrder(h.shop.payload, orderId)).amountSatoshiReceived).toBeGreaterThan(0)
  })
})

describe('an address whose history always errors', () => {
  it("does not stop another order's payment from being detected and confirmed; its own order is shown to the owner", async () => {
    const stuck = await createOrder(h.shop, pdfId)
    const other = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, stuck)
    h.simulator.setFaults({ historyErrorAddresses: [paymentAddress] })
    try {
      await pay(other)
      await waitForStatus(h.shop.payload, other, 'PAYMENT_DETECTED', 10_000)
      h.simulator.state.mine(1)
      await waitForStatus(h.shop.payload, other, 'PAID', 10_000)
      // The order behind the failing address waits, never judged on a history it did not get,
      // and the owner is told why.
      await waitFor(async () => Boolean((await getOrder(h.shop.payload, stuck)).attention))
      const order = await getOrder(h.shop.payload, stuck)
      expect(order.status).toBe('AWAITING_PAYMENT')
      expect(order.attention).toMatch(/could not read this order's payment address/)
    } finally {
      h.simulator.clearFaults()
    }
    // Read again, its order is judged as usual and the notice goes.
    await pay(stuck)
    await waitForStatus(h.shop.payload, stuck, 'PAYMENT_DETECTED', 15_000)
    await waitFor(async () => !(await getOrder(h.shop.payload, stuck)).attention, {
      timeoutMs: 15_000,
    })
  })
})

describe('a transaction every index loses for a while', () => {
  it('around its block: the order ends PAID and its payment is never marked invalid', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const txid = await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
    // Lost by every index, ARC's too (a payment ARC still has is kept without missing looks).
    h.simulator.setFaults({ loseTxid: { txid, seconds: 600 }, arcForgotten: [txid] })
    try {
      // Mined while lost: full looks no longer find it, and lookups answer 404.
      for (let look = 1; look <= 2; look += 1) {
        h.simulator.state.mine(1)
        await waitFor(
          async () => {
            const [payment] = await paymentsOf(h.shop.payload, orderId)
            return (payment?.missingLooks ?? 0) >= look
          },
          { timeoutMs: 15_000 },
        )
        expect(await invalidated(orderId)).toEqual([])
      }
    } finally {
      h.simulator.clearFaults()
    }
    h.simulator.state.mine(1)
    await waitForStatus(h.shop.payload, orderId, 'PAID', 15_000)
    expect(await invalidated(orderId)).toEqual([])
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect(payment).toMatchObject({ missingLooks: 0, missingSince: null })
  })
})

describe('bursts of 429 with Retry-After', () => {
  it('are waited out: detection resumes, and no request goes inside the window', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const order = await getOrder(h.shop.payload, orderId)
    const since = Date.now()
    h.simulator.setFaults({ burst429: { count: 3, retryAfterSeconds: 1 } })
    // Paid straight into the simulated chain (its API is answering 429 now).
    h.simulator.state.mint(order.paymentAddress, order.amountSatoshiExpected)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED', 15_000)
    const answered = h.simulator.requests().filter((r) => r.at >= since)
    expect(answered.filter((r) => r.status === 429).length).toBeGreaterThanOrEqual(1)
    expect(answered.filter((r) => r.insideRetryAfter)).toEqual([])
  })
})
