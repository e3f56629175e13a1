import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import { sqlite } from '@shop/cms/testing'
import type { PaymentsHarness } from './payments/support'
import {
  api,
  createOrder,
  productIdOf,
  startPaymentsHarness,
  waitForStatus,
  watchedOrderRow,
} from './payments/support'
import { createWhatsOnChainClient } from '@shop/chain'
import type { PaymentWorker } from '../src/worker'
import { startPaymentWorker } from '../src/worker'

// A chain source limited like WhatsOnChain (here 10 requests/s), watched by a call log.
const LIMIT_PER_SECOND = 10
const WATCHED = 2600

let h: PaymentsHarness
let worker: PaymentWorker
/** [time, calls answered by the simulator so far], sampled every 50 ms. */
const samples: [number, number][] = []
let sampler: NodeJS.Timeout | undefined

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false, env: { WORKER_FAST_POLL_MS: '100' } })
  const pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  // Watched orders beyond any page size: 300 fresh ones awaiting payment and 2,300 expired
  // ones still inside the monitoring window.
  const now = Date.now()
  const rows = Array.from({ length: WATCHED }, (_, i) => {
    const createdAt = i < 300 ? now - i * 1000 : now - 30 * 60_000 - i * 20_000
    return watchedOrderRow({
      productId: pdfId,
      index: 1_000_000 + i,
      createdAt,
      status: createdAt + 20 * 60_000 > now ? 'AWAITING_PAYMENT' : 'EXPIRED',
    })
  })
  await sqlite(h.shop.payload).batch(rows, 'write')

  const chain = createWhatsOnChainClient({
    baseUrl: h.simulator.wocUrl,
    maxRequestsPerSecond: LIMIT_PER_SECOND,
    retries: 0,
  })
  const { loadEnv } = await import('@shop/cms/process')
  sampler = setInterval(() => samples.push([Date.now(), h.simulator.apiRequests()]), 50)
  worker = startPaymentWorker({
    payload: h.shop.payload,
    chain,
    logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never,
    settings: loadEnv(),
  })
})

afterAll(async () => {
  clearInterval(sampler)
  await worker?.stop()
  await h?.close()
})

describe('the worker with thousands of watched orders', () => {
  it('detects a new payment quickly while staying within the chain source limit', async () => {
    const pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
    const orderId = await createOrder(h.shop, pdfId)
    // Let the worker take in the watch list and start its rounds.
    await worker.nextPass()
    await worker.nextPass()
    const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    expect(paid.status).toBe(200)
    const started = Date.now()
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED', 10_000)
    const detectionMs = Date.now() - started
    // 301 fresh orders are 16 mempool calls a round: about 1.6 s at 10 calls/s.
    expect(detectionMs).toBeLessThan(4000)

    // Enough calls for the limit to be tested: a fast detection made only 30 before this check
    // (a fresh-clone CI run), so the worker's rounds go on until it has made more.
    await vi.waitFor(() => expect(h.simulator.apiRequests()).toBeGreaterThan(30), {
      timeout: 15_000,
    })
    // No second ever saw more calls arrive than the limit allows. The client spaces its sends
    // exactly; arrivals jitter with the event loops of both ends, hence two of slack.
    let worst = 0
    for (let i = 0, j = 0; i < samples.length; i += 1) {
      while (samples[i]![0] - samples[j]![0] > 1000) j += 1
      worst = Math.max(worst, samples[i]![1] - samples[j]![1])
    }
    expect(worst).toBeLessThanOrEqual(LIMIT_PER_SECOND + 2)
  })

  it('confirms a payment while blocks come faster than one round of full looks', async () => {
    const pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
    const orderId = await createOrder(h.shop, pdfId)
    const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    expect(paid.status).toBe(200)
    // Each block asks for a full look at the 300 fresh orders: 30 calls, 3 s at 10 calls/s.
    // Blocks every 400 ms must not keep sending the same first orders to the front.
    const miner = setInterval(() => h.simulator.state.mine(1), 400)
    try {
      const order = await waitForStatus(h.shop.payload, orderId, 'PAID', 20_000)
      expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
    } finally {
      clearInterval(miner)
    }
  })
})
