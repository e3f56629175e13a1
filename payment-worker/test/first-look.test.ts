import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainSource, HistoryScope } from '@shop/chain'
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
 * A payment made right after checkout (a wallet already open on the pay screen) is looked for at
 * once: the worker plans one call at a time and picks up new orders between calls, so a new order
 * waits neither for the rest of a pass busy with older orders nor for the next pass's start; and
 * an order younger than the last block the worker saw is first looked for in the mempool only,
 * one call instead of two.
 */

const OLDER = 200
let h: PaymentsHarness
let worker: PaymentWorker
let pdfId: number
/** Moves the worker's clock on. */
let moveClock: (ms: number) => void
/** Every address-history call the worker made: its scope and addresses. */
const calls: { scope: HistoryScope | 'confirmed'; addresses: readonly string[] }[] = []
/** Runs inside the worker's next address-history call, before it is answered. */
let duringNextCall: (() => Promise<void>) | undefined
/** Runs inside every address-history call, before it is answered. */
let duringEveryCall:
  ((scope: HistoryScope | 'confirmed', addresses: readonly string[]) => Promise<void>) | undefined

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  // Expired orders still watched for late payments, all due: the pass always has older work.
  await insertExpiredOrders(h.shop.payload, {
    productId: pdfId,
    count: OLDER,
    firstIndex: 2_000_000,
  })
  const client = simulatorClient(h.simulator)
  const chain: ChainSource = {
    ...client,
    // The worker's budget: 6 requests a second (the simulator itself answers more).
    requestsPerSecond: 6,
    getAddressHistories: async (addresses, scope = 'all') => {
      calls.push({ scope, addresses })
      const during = duringNextCall
      duringNextCall = undefined
      await during?.()
      await duringEveryCall?.(scope, addresses)
      return client.getAddressHistories(addresses, scope)
    },
  }
  ;({ worker, moveClock } = await startWorkerPastTip(h, {
    chain,
    // Six calls a pass (6 requests/s, one-second passes): older orders fill them.
    settings: { workerFastPollMs: 1000 },
  }))
  // Its first pass saw the tip (a minute ago by its clock) and started on older orders.
})

afterAll(async () => {
  await worker?.stop()
  await h?.close()
})

describe('a payment made right after checkout', () => {
  it('is looked for within the pass during which the order was placed, in the mempool only', async () => {
    let orderId = ''
    let address = ''
    // The buyer checks out and pays while the worker asks about older orders.
    duringNextCall = async () => {
      orderId = await createOrder(h.shop, pdfId)
      address = (await getOrder(h.shop.payload, orderId)).paymentAddress
      const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
      expect(paid.status).toBe(200)
    }
    // Each look at the order, with the order's status when it was asked.
    const seen: string[] = []
    duringEveryCall = async (scope, addresses) => {
      if (address && addresses.includes(address))
        seen.push(`${scope}: ${(await getOrder(h.shop.payload, orderId)).status}`)
    }
    try {
      await worker.runOnce()
      expect(orderId).not.toBe('')
      expect(seen.length).toBeGreaterThan(0)
      // The first look may come before the payment (the pass looks for new orders while an
      // older look is under way); the next, a fast poll later, finds it.
      await waitFor(async () => {
        await worker.runOnce()
        return (await getOrder(h.shop.payload, orderId)).status === 'PAYMENT_DETECTED'
      })
    } finally {
      duringEveryCall = undefined
    }
    // Until the payment was seen, every look was a mempool-only one (a detected order's next
    // look is a full one).
    const waiting = seen.filter((look) => look.endsWith(': AWAITING_PAYMENT'))
    expect(waiting.length).toBeGreaterThan(0)
    expect(new Set(waiting)).toEqual(new Set(['unconfirmed: AWAITING_PAYMENT']))
  })

  it('is still found when it was mined before the order was first looked at', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    expect(paid.status).toBe(200)
    h.simulator.state.mine(1)
    // The mempool no longer has it; the block's tip change asks for a full look. The worker's
    // clock moves past its tip interval, so its next pass reads the tip.
    moveClock(10_000)
    const before = calls.length
    await waitFor(async () => {
      await worker.runOnce()
      return (await getOrder(h.shop.payload, orderId)).status !== 'AWAITING_PAYMENT'
    })
    expect(['PAYMENT_DETECTED', 'PAID']).toContain((await getOrder(h.shop.payload, orderId)).status)
    const looks = calls.slice(before).filter((c) => c.addresses.includes(paymentAddress))
    expect(looks.map((c) => c.scope)).toContain('all')
  })

  it('is recorded by a full look that asks for the mempool and the blocks in one call', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    const { paymentAddress } = await getOrder(h.shop.payload, orderId)
    // A block after checkout: the order's next look must include confirmed transactions (the
    // worker's clock moves past its tip interval, so its next pass reads the tip first).
    h.simulator.state.mine(1)
    moveClock(10_000)
    const paid = await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })
    expect(paid.status).toBe(200)
    const seen: string[] = []
    // The calls made while the order was still unpaid: those that looked for its payment (a
    // look after it was found, for a block's confirmation, is another matter).
    duringEveryCall = async (scope, addresses) => {
      if (!addresses.includes(paymentAddress)) return
      const { status } = await getOrder(h.shop.payload, orderId)
      if (status === 'AWAITING_PAYMENT') seen.push(`${scope}: ${status}`)
    }
    try {
      await waitFor(async () => {
        await worker.runOnce()
        return (await getOrder(h.shop.payload, orderId)).status === 'PAYMENT_DETECTED'
      })
    } finally {
      duringEveryCall = undefined
    }
    // One call (WhatsOnChain's history/all) found it: no second call waits for a free request.
    expect(seen).toEqual(['all: AWAITING_PAYMENT'])
  })
})
