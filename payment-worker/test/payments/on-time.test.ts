import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { connectChainFeed } from '@shop/chain'
import type { ChainFeed } from '@shop/chain'
import type { PaymentWorker } from '../../src/worker'
import type { PaymentsHarness } from './support'
import {
  api,
  createOrder,
  getOrder,
  paymentsOf,
  payInTestMode,
  productIdOf,
  simulatorClient,
  startPaymentsHarness,
  startWorkerByHand,
  waitFor,
} from './support'

/**
 * On time means on time, by the worker's own schedule: ORDER_EXPIRY_MINUTES=16 with the default
 * 60 s of grace, and a buyer who pays 90 s before the deadline (930 s after checkout). The
 * worker runs by hand on a clock that moves a second a pass, from the order's first minute, so
 * its looks fall where its schedule puts them over the order's whole life.
 */

const EXPIRY_MINUTES = 16
const GRACE_SECONDS = 60
const PAY_AT_S = EXPIRY_MINUTES * 60 + GRACE_SECONDS - 90

let h: PaymentsHarness
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness({
    worker: false,
    env: {
      ORDER_EXPIRY_MINUTES: String(EXPIRY_MINUTES),
      PAYMENT_GRACE_SECONDS: String(GRACE_SECONDS),
      CONFIRMATIONS_REQUIRED: '1',
      // The shop's defaults, not the harness's quicker ones.
      WORKER_FAST_POLL_MS: '500',
      WORKER_SLOW_POLL_MS: '10000',
    },
  })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

/** A worker by hand whose clock reads `age` seconds after the order's checkout. */
async function workerAtAge(createdAt: number) {
  const at = { age: 0 }
  const worker = await startWorkerByHand(h, {
    chain: simulatorClient(h.simulator),
    settings: {},
    clock: () => createdAt + at.age * 1000,
  })
  /** One pass a second of the order's life, from its age now to `to`, or until `done`. */
  const live = async (to: number, done?: () => Promise<boolean>) => {
    for (; at.age <= to; at.age += 1) {
      await worker.runOnce()
      if (done && (await done())) return at.age
    }
    return undefined
  }
  return { worker, at, live }
}

async function payNearTheDeadline(stream?: (worker: PaymentWorker) => ChainFeed) {
  const orderId = await createOrder(h.shop, pdfId)
  const order = await getOrder(h.shop.payload, orderId)
  const createdAt = new Date(order.createdAt).getTime()
  const { worker, live } = await workerAtAge(createdAt)
  const feed = stream?.(worker)
  try {
    if (feed) await waitFor(async () => feed.connected())
    await live(PAY_AT_S - 1)
    await payInTestMode(h.shop, orderId)
    // The buyer paid on time: the next looks see it, whatever the stream says.
    const seenAt = await live(PAY_AT_S + 15, async () => {
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      return payment !== undefined
    })
    expect(seenAt, 'detected within 15 s of the payment').toBeDefined()
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect(payment!.late).toBe(false)
    // Past the deadline: a detected payment holds, the order never expires.
    await live(EXPIRY_MINUTES * 60 + GRACE_SECONDS + 30)
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('PAYMENT_DETECTED')
    expect((await api(h.shop, '/api/test-mode/mine', { body: {} })).status).toBe(200)
    await live(EXPIRY_MINUTES * 60 + GRACE_SECONDS + 90, async () => {
      return (await getOrder(h.shop.payload, orderId)).status === 'PAID'
    })
    const paid = await getOrder(h.shop.payload, orderId)
    expect(paid.status).toBe('PAID')
    expect(paid.flags?.paidLate).toBe(false)
    const statuses = (paid.history ?? []).map((entry) => entry.toStatus)
    expect(statuses).not.toContain('EXPIRED')
  } finally {
    feed?.close()
    await worker.stop()
  }
}

describe('a payment 90 s before the deadline', () => {
  it('is detected within 15 s and on time, polling alone', async () => {
    await payNearTheDeadline()
  })

  it('is detected within 15 s and on time with a deaf stream (connected, no mempool frames)', async () => {
    h.simulator.setFaults({ deafStream: true })
    try {
      await payNearTheDeadline((worker) => {
        const feed = connectChainFeed({
          url: h.simulator.socketUrl,
          onTransaction: (tx) => worker.pushed.transaction(tx),
          onBlock: ({ height }) => worker.pushed.block(height),
          onStatus: ({ connected }) => worker.pushed.connected(connected),
        })
        return feed
      })
      await waitFor(async () => h.simulator.pushClients() === 0)
    } finally {
      h.simulator.clearFaults()
    }
  })
})
