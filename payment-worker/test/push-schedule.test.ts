import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainFeed, ChainSource } from '@shop/chain'
import { connectChainFeed } from '@shop/chain'
import { loadEnv } from '@shop/cms/process'
import type { PaymentsHarness } from './payments/support'
import {
  api,
  createOrder,
  getOrder,
  productIdOf,
  simulatorClient,
  startPaymentsHarness,
  waitFor,
} from './payments/support'
import type { PaymentWorker } from '../src/worker'
import { startPaymentWorker } from '../src/worker'
import { STREAM_TRUST_FRAMES, STREAM_TRUST_WINDOW_MS } from '../src/watch/stream'

/**
 * While WhatsOnChain's push stream is connected and carries mempool transactions (watch/stream.ts)
 * it carries every payment and block first, so
 * the worker looks at a fresh order every five minutes instead of every half second (the
 * calls an order costs over its life, decision 019); the moment the stream drops, the polling
 * schedule comes back and fresh orders are looked at at once.
 */

let h: PaymentsHarness
let worker: PaymentWorker
let feed: ChainFeed
let pdfId: number
/**
 * The worker's clock runs ten seconds behind the web process's: the orders the tests place
 * come well after the stream connected and after the last block, by the worker's clock too.
 */
const behind = 10_000
/** When the stream carried each mempool transaction. */
const mempoolFrames: number[] = []
/** The addresses each history call asked about. */
const asked: string[][] = []

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  const client = simulatorClient(h.simulator)
  const chain: ChainSource = {
    ...client,
    getAddressHistories: async (addresses, scope, options) => {
      asked.push([...addresses])
      return client.getAddressHistories(addresses, scope, options)
    },
  }
  // Polling alone, a fresh order is looked for every 100 ms (WORKER_FAST_POLL_MS in these tests).
  worker = startPaymentWorker({
    payload: h.shop.payload,
    chain,
    logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never,
    settings: loadEnv(),
    clock: () => Date.now() - behind,
  })
  // The worker reads the chain's tip once it watches an order: orders placed after that
  // reading are younger than the last block it saw, their first look a mempool one.
  await createOrder(h.shop, pdfId)
  await worker.nextPass()
  await worker.nextPass()
  feed = connectChainFeed({
    url: h.simulator.socketUrl,
    onTransaction: (tx) => {
      mempoolFrames.push(Date.now())
      worker.pushed.transaction(tx)
    },
    onBlock: ({ height }) => worker.pushed.block(height),
    onStatus: ({ connected }) => worker.pushed.connected(connected),
    reconnectDelayMs: () => 50,
  })
  await waitFor(async () => feed.connected())
  // The stream earns the worker's trust by carrying mempool transactions (the simulator's
  // background traffic, as on mainnet).
  await waitFor(
    async () =>
      mempoolFrames.filter((at) => at >= Date.now() - STREAM_TRUST_WINDOW_MS).length >=
      STREAM_TRUST_FRAMES,
  )
  // The first order's next look, due on the polling schedule, is made: then the stream's.
  for (let i = 0; i < 3; i += 1) await worker.nextPass()
})

afterAll(async () => {
  feed?.close()
  await worker?.stop()
  await h?.close()
})

const looksAt = (address: string) => asked.filter((a) => a.includes(address)).length
const statusOf = async (id: string) => (await getOrder(h.shop.payload, id)).status

describe('the looks while the push stream is connected', () => {
  it('leave a fresh order to the stream: no look for many passes, its payment judged from the push', async () => {
    const callsBefore = asked.length
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    // Twenty passes, two seconds: polling alone would have looked at it twenty times.
    for (let i = 0; i < 20; i += 1) await worker.nextPass()
    expect(looksAt(paymentAddress)).toBe(0)
    expect(asked.length).toBe(callsBefore)
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    await waitFor(async () => (await statusOf(orderId)) === 'PAYMENT_DETECTED', {
      timeoutMs: 10_000,
    })
    expect(looksAt(paymentAddress)).toBe(0)
  })

  it('come back the moment the stream drops: a fresh order is looked at in the next pass', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    for (let i = 0; i < 5; i += 1) await worker.nextPass()
    expect(looksAt(paymentAddress)).toBe(0)
    // WhatsOnChain drops the stream (and refuses it for now).
    h.simulator.setPush(false)
    await waitFor(async () => !feed.connected())
    await worker.nextPass()
    await worker.nextPass()
    expect(looksAt(paymentAddress)).toBeGreaterThan(0)
    // And keep coming, every fast poll, as before the stream.
    const looks = looksAt(paymentAddress)
    for (let i = 0; i < 5; i += 1) await worker.nextPass()
    expect(looksAt(paymentAddress)).toBeGreaterThan(looks)
  })
})
