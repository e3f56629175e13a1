import os from 'node:os'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { connectChainFeed, createWhatsOnChainClient } from '@shop/chain'
import type { ChainSource } from '@shop/chain'
import { slugs } from '@shop/cms/engine'
import { createLeaseHolder } from '../src/lease'
import { startPaymentWorker } from '../src/worker'
import type { PaymentWorker } from '../src/worker'
import type { PaymentsHarness } from './payments/support'
import {
  createOrder,
  paymentsOf,
  payInTestMode,
  productIdOf,
  recordingLogger,
  simulatorClient,
  startPaymentsHarness,
  waitFor,
} from './payments/support'

/**
 * The lease says the worker is alive, not that it makes progress: renewed on its own timer, it
 * holds through a chain outage far longer than itself, and through a look that waits on the
 * request budget for a hundred raw transactions. WORKER_LEASE_SECONDS=10, as in production.
 */

const LEASE_MS = 10_000
const OUTAGE_MS = Number(process.env.LEASE_TEST_OUTAGE_MS ?? 90_000)

let h: PaymentsHarness
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false, env: { CONFIRMATIONS_REQUIRED: '1' } })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

/** A worker in this process, holding the real lease, its log kept. */
async function leasedWorker(chain: ChainSource) {
  const { loadEnv } = await import('@shop/cms/process')
  const { logs, logger } = recordingLogger()
  const lease = createLeaseHolder({
    payload: h.shop.payload,
    holder: `${os.hostname()}:lease-liveness`,
    ttlMs: LEASE_MS,
    logger,
  })
  const worker = startPaymentWorker({
    payload: h.shop.payload,
    chain,
    logger,
    settings: loadEnv(),
    lease,
  })
  /** What says the lease was lost, or a write refused for it. */
  const leaseLost = () =>
    logs.filter(({ msg, obj }) => {
      const err = obj.err as Error | undefined
      return (
        msg.startsWith('payment worker lost its lease') ||
        err?.name === 'LeaseLostError' ||
        String(err?.message).includes('lease was lost')
      )
    })
  return { worker, logs, leaseLost }
}

const paymentCount = async (orderId: string) =>
  (
    await h.shop.payload.count({
      collection: slugs.payments,
      where: { order: { equals: orderId } },
    })
  ).totalDocs

const detected = async (orderId: string) => (await paymentsOf(h.shop.payload, orderId)).length > 0

describe('the worker lease is liveness, not progress', () => {
  it(`holds through a ${OUTAGE_MS / 1000} s chain outage; a payment right after it is detected within 10 s`, async () => {
    const { worker, leaseLost } = await leasedWorker(simulatorClient(h.simulator))
    const feed = connectChainFeed({
      url: h.simulator.socketUrl,
      onTransaction: (tx) => worker.pushed.transaction(tx),
      onBlock: ({ height }) => worker.pushed.block(height),
      onStatus: ({ connected }) => worker.pushed.connected(connected),
    })
    try {
      await waitFor(async () => feed.connected())
      const orderId = await createOrder(h.shop, pdfId)
      await worker.nextPass()
      h.simulator.setOutage(true)
      const outageEnds = Date.now() + OUTAGE_MS
      await waitFor(async () => Date.now() >= outageEnds, {
        timeoutMs: OUTAGE_MS + 5_000,
        intervalMs: 500,
      })
      h.simulator.setOutage(false)
      const endedAt = Date.now()
      await payInTestMode(h.shop, orderId)
      await waitFor(() => detected(orderId), { timeoutMs: 10_000, intervalMs: 50 })
      console.log(`[lease] a payment after the outage detected in ${Date.now() - endedAt} ms`)
      expect(leaseLost()).toEqual([])
    } finally {
      feed.close()
      await worker.stop()
    }
  })

  it('holds through a look at an address with 100 transactions under 3 requests a second', async () => {
    // WhatsOnChain's free budget: each raw transaction is read at its pace (about 35 s).
    const chain = createWhatsOnChainClient({ baseUrl: h.simulator.wocUrl, maxRequestsPerSecond: 3 })
    const busy = await createOrder(h.shop, pdfId)
    const other = await createOrder(h.shop, pdfId)
    const [busyOrder, otherOrder] = await Promise.all(
      [busy, other].map((id) =>
        h.shop.payload.findByID({ collection: slugs.orders, id, depth: 0 }),
      ),
    )
    const part = Math.ceil(Number(busyOrder!.amountSatoshiExpected) / 100)
    for (let i = 0; i < 100; i += 1) h.simulator.state.mint(busyOrder!.paymentAddress, part)
    h.simulator.state.mint(otherOrder!.paymentAddress, Number(otherOrder!.amountSatoshiExpected))
    const { worker, leaseLost } = await leasedWorker(chain)
    try {
      await waitFor(async () => (await paymentCount(busy)) === 100 && (await detected(other)), {
        timeoutMs: 90_000,
        intervalMs: 250,
      })
      expect(leaseLost()).toEqual([])
    } finally {
      await (worker as PaymentWorker).stop()
    }
  })
})
