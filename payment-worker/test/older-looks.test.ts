import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainSource } from '@shop/chain'
import type { EmailOutbox } from '@shop/cms/engine'
import { slugs } from '@shop/cms/engine'
import type { PaymentsHarness } from './payments/support'
import {
  api,
  createOrder,
  getOrder,
  productIdOf,
  startPaymentsHarness,
  insertExpiredOrders,
  simulatorClient,
  startWorkerPastTip,
  waitFor,
} from './payments/support'
import type { PaymentWorker } from '../src/worker'

/**
 * At 10,000 watched orders, while buyers wait, a look at older orders waits for a request the
 * budget leaves them (one a second without an API key). The worker's pass does not wait with it:
 * otherwise a payment made meanwhile would be looked for only once that look is answered.
 * Here the chain holds every such look until the test lets it go.
 */

// Enough for every pass of the file to find older orders due (a pass may look at 120).
const OLDER = 1200
let h: PaymentsHarness
let worker: PaymentWorker
let pdfId: number
/** Looks at older orders wait for this while it is set. */
let hold: Promise<void> | undefined
let letGo = () => {}
let backgroundCalls = 0
/** The addresses of every other look. */
const otherLooks: (readonly string[])[] = []

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  // Expired orders still watched for late payments, all due: every pass has older work.
  await insertExpiredOrders(h.shop.payload, {
    productId: pdfId,
    count: OLDER,
    firstIndex: 3_000_000,
  })
  const client = simulatorClient(h.simulator)
  const chain: ChainSource = {
    ...client,
    // The worker's budget: 6 requests a second (the simulator itself answers more).
    requestsPerSecond: 6,
    getAddressHistories: async (addresses, scope, options) => {
      if (options?.background) {
        backgroundCalls += 1
        await hold
      } else otherLooks.push(addresses)
      return client.getAddressHistories(addresses, scope, options)
    },
  }
  worker = (
    await startWorkerPastTip(h, {
      chain,
      settings: { workerFastPollMs: 200 },
    })
  ).worker
  // Its first pass saw the tip (a minute ago by its clock): orders placed from now on are first
  // looked for in the mempool only.
})

/**
 * Runs a pass whose first look at older orders waits (background calls are held) until `during`
 * is done; `during` gets the background calls made before it and the pass. The pass is awaited
 * after the look is let go.
 */
async function whileOlderLookHeld(during: (before: number, pass: Promise<void>) => Promise<void>) {
  hold = new Promise((resolve) => (letGo = resolve))
  const before = backgroundCalls
  const pass = worker.runOnce()
  try {
    await waitFor(async () => backgroundCalls > before)
    await during(before, pass)
  } finally {
    letGo()
    hold = undefined
    await pass
  }
}

/** The buyer pays; the worker sees it within five seconds. */
async function payAndSeeDetected(orderId: string) {
  const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
  expect(paid.status).toBe(200)
  await waitFor(
    async () => (await getOrder(h.shop.payload, orderId)).status === 'PAYMENT_DETECTED',
    { timeoutMs: 5000 },
  )
}

/** The order's "paid" e-mail in the outbox, once queued. */
async function paidMailOf(orderId: string) {
  const { docs } = await h.shop.payload.find({
    collection: slugs.emailOutbox,
    where: { order: { equals: orderId }, kind: { equals: 'order-paid' } },
    depth: 0,
  })
  return docs[0] as EmailOutbox | undefined
}

afterAll(async () => {
  letGo()
  await worker?.stop()
  await h?.close()
})

describe('a look at older orders waiting for its request', () => {
  it("does not hold up a waiting buyer's payment", async () => {
    // A buyer at the pay screen: the pass's looks at older orders are background ones.
    const orderId = await createOrder(h.shop, pdfId)
    await whileOlderLookHeld(async (before) => {
      // The buyer pays while that look waits. Before, the pass waited for the held look: the
      // payment stayed unseen until it ended.
      await payAndSeeDetected(orderId)
      expect(backgroundCalls).toBe(before + 1)
    })
  })

  it('looks at older orders one at a time, and ends its pass once the held look is answered', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    let ended = false
    await whileOlderLookHeld(async (before, pass) => {
      void pass.then(() => (ended = true))
      // The buyer's order is looked for again and again meanwhile (every 200 ms)...
      const seen = otherLooks.length
      await waitFor(
        async () => otherLooks.slice(seen).filter((a) => a.includes(paymentAddress)).length >= 2,
        { timeoutMs: 5000 },
      )
      // ...while no second look at older orders begins, and the pass waits for the first.
      expect(backgroundCalls).toBe(before + 1)
      expect(ended).toBe(false)
    })
    expect(ended).toBe(true)
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('AWAITING_PAYMENT')
  })

  it('sees a block mined meanwhile: the paid order is confirmed while the older look waits', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await whileOlderLookHeld(async (before) => {
      await payAndSeeDetected(orderId)
      h.simulator.state.mine(1)
      // The tip was read only at a pass's start: a pass waiting for its older look never saw
      // the block (the benchmark's order stayed unpaid for minutes).
      await waitFor(async () => (await getOrder(h.shop.payload, orderId)).status === 'PAID', {
        timeoutMs: 5000,
      })
      expect(backgroundCalls).toBe(before + 1)
    })
  })

  it('delivers and mails the order it made PAID while the older look waits', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await whileOlderLookHeld(async (before) => {
      await payAndSeeDetected(orderId)
      h.simulator.state.mine(1)
      // The jobs ran only after the pass's looks: with a long history, a pass's older looks
      // took seconds, and the buyer's download link and receipt waited for them.
      await waitFor(async () => (await paidMailOf(orderId))?.status === 'sent', {
        timeoutMs: 5000,
      })
      expect((await getOrder(h.shop.payload, orderId)).fulfilledAt).toBeTruthy()
      expect(backgroundCalls).toBe(before + 1)
    })
  })

  it('reads new orders a few times a second meanwhile, not in a busy loop', async () => {
    const payload = h.shop.payload
    const find = payload.find.bind(payload)
    let reads = 0
    payload.find = ((args: Parameters<typeof find>[0]) => {
      if (args.collection === 'orders') reads += 1
      return find(args)
    }) as typeof payload.find
    // A buyer waits: the pass's looks at older orders are background ones.
    await createOrder(h.shop, pdfId)
    try {
      await whileOlderLookHeld(async () => {
        const counted = reads
        await new Promise((resolve) => setTimeout(resolve, 1000))
        // Every 250 ms: about four reads in the second. A 50 ms tick read twenty, and kept the
        // worker at two thirds of a core through the benchmark's rush.
        expect(reads - counted).toBeGreaterThanOrEqual(2)
        expect(reads - counted).toBeLessThanOrEqual(6)
      })
    } finally {
      payload.find = find
    }
  })
})
