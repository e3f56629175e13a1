import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'

import type { ChainFeed, ChainSource, HistoryScope } from '@shop/chain'
import { connectChainFeed } from '@shop/chain'
import { slugs } from '@shop/cms/engine'
import { loadEnv } from '@shop/cms/process'
import type { PaymentsHarness } from './payments/support'
import {
  api,
  createOrder,
  getOrder,
  payInTestMode,
  productIdOf,
  simulatorClient,
  startPaymentsHarness,
  waitFor,
} from './payments/support'
import type { PaymentWorker } from '../src/worker'
import { startPaymentWorker } from '../src/worker'

/**
 * WhatsOnChain pushes every new mempool transaction and block (WoC Sockets V2), and the worker
 * listens (decision 016): polling alone, a payment made just after its order's look would wait for
 * the next look, and a block for the next tip check. Here the worker polls once a minute, so only
 * the push stream can make it see a payment or a block within seconds.
 */

const MINUTE = 60_000
let h: PaymentsHarness
let worker: PaymentWorker
/** The worker the stream's messages go to. */
let listener: PaymentWorker
let feed: ChainFeed
let pdfId: number
/** Every address-history call the worker made. */
const calls: { scope: HistoryScope | 'confirmed'; addresses: readonly string[] }[] = []
/** Addresses whose transactions the looks do not see (an address index lagging its stream). */
const hidden = new Set<string>()
/** The transactions and blocks the stream has carried so far. */
const heard = new Set<string>()
const blocks = new Set<number>()
/** The transactions the worker asked WhatsOnChain for. */
const fetched: string[] = []

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  const client = simulatorClient(h.simulator)
  const chain: ChainSource = {
    ...client,
    getTransactionHex: async (txid) => {
      fetched.push(txid)
      return client.getTransactionHex(txid)
    },
    getAddressHistories: async (addresses, scope = 'all', options) => {
      calls.push({ scope, addresses })
      const found = await client.getAddressHistories(addresses, scope, options)
      for (const address of hidden) found.delete(address)
      return found
    },
  }
  worker = startPaymentWorker({
    payload: h.shop.payload,
    chain,
    logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never,
    settings: { ...loadEnv(), workerFastPollMs: MINUTE, workerSlowPollMs: MINUTE },
  })
  await worker.nextPass()
  listener = worker
  feed = connectChainFeed({
    url: h.simulator.socketUrl,
    onTransaction: (tx) => {
      heard.add(tx.txid)
      listener.pushed.transaction(tx)
    },
    onBlock: ({ height }) => {
      blocks.add(height)
      listener.pushed.block(height)
    },
    reconnectDelayMs: () => 50,
  })
  await waitFor(async () => feed.connected())
})

afterAll(async () => {
  feed?.close()
  await worker?.stop()
  await h?.close()
})

const statusOf = async (id: string) => (await getOrder(h.shop.payload, id)).status

describe('the push stream', () => {
  it('has a payment judged the moment it reaches the mempool, with no look at its address', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    // The worker's pass reads the new order and looks at it once: nothing paid yet.
    await worker.runOnce()
    await waitFor(async () => calls.some((c) => c.addresses.includes(paymentAddress)))
    const looksBefore = calls.filter((c) => c.addresses.includes(paymentAddress)).length

    const paidAt = Date.now()
    const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    expect(paid.status).toBe(200)
    const { txid } = paid.body as { txid: string }
    // Its next look is a minute away: only the push can have it seen now.
    await waitFor(async () => (await statusOf(orderId)) === 'PAYMENT_DETECTED', {
      timeoutMs: 10_000,
    })
    expect(Date.now() - paidAt).toBeLessThan(MINUTE / 6)
    expect(calls.filter((c) => c.addresses.includes(paymentAddress))).toHaveLength(looksBefore)
    // The stream carried its raw hex, which hashes to its id: not asked for either.
    expect(fetched).not.toContain(txid)
    const order = await getOrder(h.shop.payload, orderId)
    expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
  })

  it('has a new block looked at at once: the detected order is paid without waiting for a pass', async () => {
    // A block just before checkout: the order's first look is due to be a full one, and its
    // pushed payment must not put that look off.
    const before = h.simulator.state.mine(1)
    await waitFor(async () => blocks.has(before))
    await worker.runOnce()
    const orderId = await createOrder(h.shop, pdfId)
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    await waitFor(async () => (await statusOf(orderId)) === 'PAYMENT_DETECTED', {
      timeoutMs: 10_000,
    })
    const minedAt = Date.now()
    h.simulator.state.mine(1)
    await waitFor(async () => (await statusOf(orderId)) === 'PAID', { timeoutMs: 10_000 })
    expect(Date.now() - minedAt).toBeLessThan(MINUTE / 6)
  })

  it('has an order read at once when a push pays an address the worker does not watch yet, though looks miss it', async () => {
    await worker.runOnce()
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    // WhatsOnChain's address index may lag its stream: the looks see nothing at this address.
    hidden.add(paymentAddress)
    const paidAt = Date.now()
    await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    // No pass is due for a minute: the push alone has the order read and its payment judged.
    await waitFor(async () => (await statusOf(orderId)) === 'PAYMENT_DETECTED', {
      timeoutMs: 10_000,
    })
    expect(Date.now() - paidAt).toBeLessThan(MINUTE / 6)
    const order = await getOrder(h.shop.payload, orderId)
    expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
  })

  it('has a payment to an order deep in a rush judged at once, before the worker reads the rush', async () => {
    // Thirty orders at once, more than the worker would read ahead of its next pass.
    const rush: string[] = []
    for (let i = 0; i < 30; i += 1) rush.push(await createOrder(h.shop, pdfId))
    const last = rush.at(-1)!
    const paidAt = Date.now()
    await api(h.shop, `/api/test-mode/orders/${last}/pay`, { body: {} })
    // No pass is due for a minute: the push alone has the order looked up and judged.
    await waitFor(async () => (await statusOf(last)) === 'PAYMENT_DETECTED', {
      timeoutMs: 10_000,
    })
    expect(Date.now() - paidAt).toBeLessThan(MINUTE / 6)
    expect(await statusOf(rush[0]!)).toBe('AWAITING_PAYMENT')
  })

  it('judges a crowd of pushed payments together: payments and statuses in a few transactions', async () => {
    const crowd: string[] = []
    for (let i = 0; i < 10; i += 1) crowd.push(await createOrder(h.shop, pdfId))
    // The worker has read them, looked at them and sent their "order created" e-mails.
    await worker.runOnce()
    // The stream's messages are held, then handed over at once, as a rush's arrive.
    const held: Parameters<PaymentWorker['pushed']['transaction']>[0][] = []
    listener = { ...worker, pushed: { ...worker.pushed, transaction: (tx) => held.push(tx) } }
    try {
      for (const id of crowd) await payInTestMode(h.shop, id)
      await waitFor(async () => held.length >= crowd.length)
    } finally {
      listener = worker
    }
    const begun = vi.spyOn(h.shop.payload.db, 'beginTransaction')
    try {
      for (const tx of held) worker.pushed.transaction(tx)
      await waitFor(
        async () => (await Promise.all(crowd.map(statusOf))).every((s) => s === 'PAYMENT_DETECTED'),
        { timeoutMs: 10_000 },
      )
    } finally {
      begun.mockRestore()
    }
    // The first push is judged alone (the others come while it is); the nine after it in one
    // transaction. Each payment was recorded in a transaction of its own and its order's change
    // in another: twenty for ten.
    expect(begun.mock.calls.length).toBeLessThanOrEqual(4)
    for (const id of crowd) {
      const order = await getOrder(h.shop.payload, id)
      expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
    }
  })

  it('judges a pushed payment on time by when the stream carried it, not when the worker got to it', async () => {
    // A worker that has not run its first pass yet (starting, or taking over): it keeps what the
    // stream says and gets to the order only after its expiry.
    const late = startPaymentWorker({
      payload: h.shop.payload,
      chain: simulatorClient(h.simulator),
      logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} } as never,
      settings: { ...loadEnv(), workerFastPollMs: MINUTE, workerSlowPollMs: MINUTE },
      autoStart: false,
    })
    await worker.stop()
    listener = late
    try {
      const orderId = await createOrder(h.shop, pdfId)
      // It expires two seconds from now (no grace in these tests).
      const expiresAt = Date.now() + 2000
      await h.shop.payload.update({
        collection: slugs.orders,
        id: orderId,
        data: { gatewayExpiresAt: new Date(expiresAt).toISOString() },
      })
      const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
      const { txid } = paid.body as { txid: string }
      await waitFor(async () => heard.has(txid))
      expect(Date.now()).toBeLessThan(expiresAt)
      await waitFor(async () => Date.now() > expiresAt + 200)
      expect(await statusOf(orderId)).toBe('AWAITING_PAYMENT')
      await late.runOnce()
      await waitFor(async () => (await statusOf(orderId)) !== 'AWAITING_PAYMENT', {
        timeoutMs: 10_000,
      })
      expect(await statusOf(orderId)).toBe('PAYMENT_DETECTED')
    } finally {
      await late.stop()
    }
  })
})
