import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { payFromTestWallet } from '@shop/chain/simulator'
import type { ChainSource } from '@shop/chain'
import { slugs } from '@shop/cms/engine'
import type { PaymentsHarness } from './support'
import { paymentsOf as paymentsOfOrder } from './support'
import {
  api,
  createOrder,
  getOrder,
  payInTestMode,
  productIdOf,
  startPaymentsHarness,
  waitFor,
} from './support'

/**
 * Whether a payment is on time is decided by the chain's time, not the worker's clock when it
 * records it: the moment a look at the chain began, and the times of blocks. So a payment
 * broadcast in time but seen after expiry (the worker or the chain source down, or the last
 * second before expiry) is recorded on time and its order is paid, not expired.
 */

const GRACE_MS = 3_000

let h: PaymentsHarness
let pdfId: number

beforeAll(async () => {
  // The worker runs only when a test says so (stopped across expiry, or in the last second).
  h = await startPaymentsHarness({
    worker: false,
    env: { PAYMENT_GRACE_SECONDS: String(GRACE_MS / 1000), CONFIRMATIONS_REQUIRED: '1' },
  })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

/** An order expiring `ms` from now. */
async function orderExpiringIn(ms: number) {
  const id = await createOrder(h.shop, pdfId)
  const expiresAt = Date.now() + ms
  await h.shop.payload.update({
    collection: slugs.orders,
    id,
    data: { gatewayExpiresAt: new Date(expiresAt).toISOString() },
  })
  return { id, expiresAt }
}

const pay = (orderId: string, amountBSV?: string) => payInTestMode(h.shop, orderId, amountBSV)
const mine = async () =>
  expect((await api(h.shop, '/api/test-mode/mine', { body: {} })).status).toBe(200)
const paymentsOf = (orderId: string) => paymentsOfOrder(h.shop.payload, orderId)
/**
 * Runs worker passes until the order is in `status` (a pass can fail on a loaded machine, for
 * example on a chain call that times out; the worker's next pass repeats it, as here).
 */
const passUntil = (orderId: string, status: string) =>
  waitFor(async () => {
    await h.worker.runOnce()
    const order = await getOrder(h.shop.payload, orderId)
    return order.status === status ? order : null
  })

/** Waits (on the clock, the condition itself) until `at` has passed. */
const until = (at: number) =>
  waitFor(async () => Date.now() > at, { timeoutMs: at - Date.now() + 5_000 })

describe('time from the chain', () => {
  it('pays an order whose on-time payment the stopped worker only sees after expiry', async () => {
    const { id, expiresAt } = await orderExpiringIn(1_500)
    await pay(id)
    await mine() // in a block well before the deadline
    await until(expiresAt + GRACE_MS + 500)

    const order = await passUntil(id, 'PAID')
    expect(order.flags).toMatchObject({ paidLate: false, paidPartial: false })
    expect((await paymentsOf(id)).map((p) => p.late)).toEqual([false])
  })

  it('pays an order whose payment was mined while the chain source was down across expiry', async () => {
    const { id, expiresAt } = await orderExpiringIn(1_500)
    const order = await getOrder(h.shop.payload, id)
    h.simulator.setOutage(true)
    // Paid and mined straight into the simulated chain while its API is down.
    const direct: ChainSource = {
      getTipHeight: async () => h.simulator.state.height,
      getAddressHistories: async () => new Map(),
      getBlockTime: async (height) => new Date(h.simulator.state.blockTime(height)! * 1000),
      getTransactionStatus: async (txid: string) =>
        h.simulator.state.status(txid) ? ('mempool' as const) : ('unknown' as const),
      getTransactionHex: async (txid) => h.simulator.state.getHex(txid)!,
      broadcast: async (hex) => h.simulator.state.submit(hex),
    }
    await payFromTestWallet({
      chain: direct,
      wocUrl: h.simulator.wocUrl,
      network: 'test',
      address: order.paymentAddress,
      satoshis: order.amountSatoshiExpected,
    })
    h.simulator.state.mine()
    await h.worker.runOnce() // fails: the source is down
    expect((await getOrder(h.shop.payload, id)).status).toBe('AWAITING_PAYMENT')
    await until(expiresAt + GRACE_MS + 500)
    await h.worker.runOnce()
    expect((await getOrder(h.shop.payload, id)).status).toBe('AWAITING_PAYMENT')

    h.simulator.setOutage(false)
    await passUntil(id, 'PAID')
    expect((await paymentsOf(id)).map((p) => p.late)).toEqual([false])
  })

  it('counts a payment sent in the last second, seen before the deadline, as on time', async () => {
    const { id, expiresAt } = await orderExpiringIn(1_000)
    await until(expiresAt - 300)
    await pay(id) // unconfirmed, broadcast in the last second
    await until(expiresAt + 100) // past expiry, within the grace period
    await passUntil(id, 'PAYMENT_DETECTED')

    await mine()
    await until(expiresAt + GRACE_MS + 500)
    const order = await passUntil(id, 'PAID')
    expect(order.flags).toMatchObject({ paidLate: false })
  })

  it('expires an order no look found paid by its deadline, and flags a full late payment as late only', async () => {
    const { id, expiresAt } = await orderExpiringIn(500)
    await until(expiresAt + GRACE_MS + 200)
    await passUntil(id, 'EXPIRED')

    // Block times have whole seconds: pay when even a rounded-down block time is past the deadline.
    await until(expiresAt + GRACE_MS + 1_500)
    await pay(id)
    await mine()
    // Expired orders are looked at less often: pass until the payment is recorded.
    const order = await waitFor(async () => {
      await h.worker.runOnce()
      const seen = await getOrder(h.shop.payload, id)
      return (seen.amountSatoshiReceived ?? 0) > 0 ? seen : null
    })
    expect(order.status).toBe('EXPIRED')
    expect(order.flags).toEqual({
      paidLate: true,
      paidPartial: false,
      paidOver: false,
      paidInvalid: false,
    })
    expect((await paymentsOf(id)).map((p) => p.late)).toEqual([true])
  })
})
