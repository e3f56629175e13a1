import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainSource } from '@shop/chain'
import type { PaymentWorker } from '../src/worker'
import type { PaymentsHarness } from './payments/support'
import {
  createOrder,
  getOrder,
  productIdOf,
  simulatorClient,
  startPaymentsHarness,
  startWorkerPastTip,
  waitFor,
} from './payments/support'

/**
 * At 10,000 watched orders, at the request limit a look at fresh orders waits up to a second for
 * its request. Planned before that wait, the call would go without an order placed meanwhile,
 * which would wait for the next call. So the worker asks the chain for room first, and when it
 * had to wait, reads new orders and plans the call again. Here the test
 * decides when there is room.
 */

let h: PaymentsHarness
let worker: PaymentWorker
let pdfId: number
/** While set, asking for room waits for it. */
let room: Promise<void> | undefined
let makeRoom = () => {}
let roomAsked = 0
/** How many looks had been made each time the worker asked for room. */
const looksWhenAsked: number[] = []
/** The addresses of each look, in order. */
const looks: (readonly string[])[] = []

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  const client = simulatorClient(h.simulator)
  const chain: ChainSource = {
    ...client,
    // The worker's budget: 6 requests a second (the simulator itself answers more).
    requestsPerSecond: 6,
    waitForRoom: async () => {
      roomAsked += 1
      looksWhenAsked.push(looks.length)
      if (!room) return false
      await room
      return true
    },
    getAddressHistories: async (addresses, scope, options) => {
      looks.push(addresses)
      return client.getAddressHistories(addresses, scope, options)
    },
  }
  worker = (
    await startWorkerPastTip(h, {
      chain,
      settings: { workerFastPollMs: 1000 },
    })
  ).worker
  // Its first pass saw the tip (a minute ago by its clock): orders placed from now on are first
  // looked for in the mempool only.
})

afterAll(async () => {
  makeRoom()
  await worker?.stop()
  await h?.close()
})

const addressOf = async (orderId: string) =>
  (await getOrder(h.shop.payload, orderId)).paymentAddress

describe("a look at fresh orders, at the chain's request limit", () => {
  it('is planned once its request can go: an order placed while it waited is in it', async () => {
    const first = await addressOf(await createOrder(h.shop, pdfId))
    room = new Promise((resolve) => (makeRoom = resolve))
    const asked = roomAsked
    const seen = looks.length
    const pass = worker.runOnce()
    try {
      // The worker has a fresh order to look for and waits for room.
      await waitFor(async () => roomAsked > asked)
      const placedMeanwhile = await addressOf(await createOrder(h.shop, pdfId))
      makeRoom()
      room = undefined
      await waitFor(async () => looks.length > seen)
      // Before, the call planned before the wait went with the first order only.
      expect(looks[seen]).toEqual(expect.arrayContaining([first, placedMeanwhile]))
    } finally {
      makeRoom()
      room = undefined
      await pass
    }
  })

  it('asks for room only when it has a fresh look to make', async () => {
    await createOrder(h.shop, pdfId)
    const asks = looksWhenAsked.length
    await worker.runOnce()
    const asked = looksWhenAsked.slice(asks)
    expect(asked.length).toBeGreaterThan(0)
    // A look followed each time. Asking after the last look too, with nothing left to ask, kept
    // a quiet shop's pass waiting for the request limit, a second each (detection with ten
    // watched orders went from 0.25 to 0.65 s in the benchmark).
    for (const looksThen of asked) expect(looks.length).toBeGreaterThan(looksThen)
  })
})
