import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import type { ChainFeed, ChainSource } from '@shop/chain'
import { payFromTestWallet } from '@shop/chain/simulator'
import { slugs } from '@shop/cms/engine'
import type { Product } from '@shop/cms/engine'
import { STREAM_TRUST_FRAMES, STREAM_TRUST_WINDOW_MS } from '../../src/watch/stream'
import { startPaymentWorker } from '../../src/worker'
import type { PaymentsHarness } from './support'
import {
  connectSimulatorFeed,
  createOrder,
  getOrder,
  payInTestMode,
  paymentsOf,
  productIdOf,
  simulatorClient,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

/**
 * A second, independent chain source (ARC's stand-in in the simulator) follows every payment by
 * its txid: a double-spent payment leaves PAYMENT_DETECTED within 15 s with the push stream on
 * or off and with WhatsOnChain down, its copy back on the shelf and the owner alerted; a payment
 * one source cannot see and the other can is kept; PAID needs a merkle proof the shop verified,
 * and a forged path or header is shown to the owner, never a confirmation.
 */

const ALERTS_TO = 'owner-second-source@example.com'
const DOUBLE_SPEND_DEADLINE_MS = 15_000

let h: PaymentsHarness
let feed: ChainFeed | undefined
let printedId: number
let pdfId: number
const mempoolFrames: number[] = []

beforeAll(async () => {
  h = await startPaymentsHarness({
    env: { CONFIRMATIONS_REQUIRED: '1', OWNER_EMAIL: ALERTS_TO },
  })
  printedId = await productIdOf(h.shop.payload, 'PHYSICAL')
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  feed?.close()
  await h?.close()
})

/** The push stream on (the simulator's, carrying its background mempool) until it is trusted. */
async function streamOn() {
  feed = connectSimulatorFeed(h, mempoolFrames)
  await waitFor(async () => feed!.connected())
  await waitFor(
    async () =>
      mempoolFrames.filter((at) => at >= Date.now() - STREAM_TRUST_WINDOW_MS).length >=
      STREAM_TRUST_FRAMES,
  )
  await h.worker.nextPass()
}

function streamOff() {
  feed?.close()
  feed = undefined
}

const stock = async () =>
  ((await h.shop.payload.findByID({ collection: slugs.products, id: printedId })) as Product)
    .currentStock

const alertsAbout = async (orderId: string) =>
  (
    (
      await h.shop.payload.find({
        collection: slugs.emailOutbox,
        where: { and: [{ order: { equals: orderId } }, { to: { equals: ALERTS_TO } }] },
        depth: 0,
        pagination: false,
      })
    ).docs as { key: string }[]
  ).map((m) => m.key)

/**
 * A printed order paid in full and detected, past its expiry (a detected payment keeps it
 * waiting for its block): a double-spend then expires it and puts its copy back.
 */
async function detectedPastExpiry(): Promise<{ orderId: string; txid: string; held: number }> {
  const orderId = await createOrder(h.shop, printedId)
  const held = await stock()
  const txid = await payInTestMode(h.shop, orderId)
  await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
  // ARC follows it: submitted, and seen on the network.
  await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
  await h.shop.payload.update({
    collection: slugs.orders,
    id: orderId,
    data: { gatewayExpiresAt: new Date(Date.now() - 1_000).toISOString() },
  })
  await h.worker.nextPass()
  expect((await getOrder(h.shop.payload, orderId)).status).toBe('PAYMENT_DETECTED')
  return { orderId, txid, held }
}

async function doubleSpend(txid: string): Promise<number> {
  const response = await fetch(`${h.simulator.url}/simulator/double-spend`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ txid }),
  })
  expect(response.status).toBe(200)
  return Date.now()
}

/** The order leaves PAYMENT_DETECTED within the target; how long it took. */
async function leavesDetected(orderId: string, since: number): Promise<number> {
  await waitFor(
    async () => (await getOrder(h.shop.payload, orderId)).status !== 'PAYMENT_DETECTED',
    { timeoutMs: DOUBLE_SPEND_DEADLINE_MS + 5_000, intervalMs: 100 },
  )
  return Date.now() - since
}

describe('a double-spent 0-conf payment', () => {
  for (const stream of ['on', 'off'] as const)
    it(`leaves PAYMENT_DETECTED within 15 s with the push stream ${stream}, its copy back, the owner alerted`, async () => {
      if (stream === 'on') await streamOn()
      else streamOff()
      const { orderId, txid, held } = await detectedPastExpiry()
      const at = await doubleSpend(txid)
      expect(await leavesDetected(orderId, at)).toBeLessThan(DOUBLE_SPEND_DEADLINE_MS)
      const order = await waitForStatus(h.shop.payload, orderId, 'EXPIRED')
      expect(order.flags?.paidInvalid).toBe(true)
      expect(await stock()).toBe(held + 1)
      await waitFor(async () =>
        (await alertsAbout(orderId)).includes(`owner-settle:${orderId}:paidInvalid`),
      )
      // Invalid on the chain's evidence (WhatsOnChain's spent output), ARC not contradicting.
      const [payment] = await waitFor(async () => {
        const found = await paymentsOf(h.shop.payload, orderId)
        return found[0]?.invalidatedAt ? found : null
      })
      expect(payment?.invalidReason).toMatch(/double-spent/)
      expect(payment?.invalidReason).toMatch(
        /ARC does not contradict it \(DOUBLE_SPEND_ATTEMPTED\)/,
      )
    })

  it('leaves PAYMENT_DETECTED within 15 s while WhatsOnChain is down, on ARC\u2019s report alone as doubt', async () => {
    streamOff()
    const { orderId, txid, held } = await detectedPastExpiry()
    h.simulator.setOutage(true)
    try {
      const at = await doubleSpend(txid)
      expect(await leavesDetected(orderId, at)).toBeLessThan(DOUBLE_SPEND_DEADLINE_MS)
      const order = await getOrder(h.shop.payload, orderId)
      expect(order.status).toBe('EXPIRED')
      expect(await stock()).toBe(held + 1)
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      // In doubt, not invalid: one source's word is no evidence.
      expect(payment?.doubtedAt).toEqual(expect.any(String))
      expect(payment?.doubtReason).toMatch(/ARC reports a competing spend/)
      expect(payment?.invalidatedAt ?? null).toBeNull()
    } finally {
      h.simulator.setOutage(false)
    }
    // WhatsOnChain back: its spent-output answer is the evidence.
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.invalidatedAt, {
      timeoutMs: 20_000,
    })
  })
})

describe('two sources that disagree', () => {
  it('keep a payment WhatsOnChain cannot find while ARC has it, then PAID on the proof', async () => {
    streamOff()
    const orderId = await createOrder(h.shop, pdfId)
    const txid = await payInTestMode(h.shop, orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
    h.simulator.setFaults({ loseTxid: { txid, seconds: 600 } })
    h.simulator.state.mine(1)
    try {
      const paid = await waitForStatus(h.shop.payload, orderId, 'PAID', 20_000)
      expect(paid.flags?.paidInvalid).toBe(false)
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      expect(payment?.invalidatedAt ?? null).toBeNull()
      expect(payment?.proofVerifiedAt).toEqual(expect.any(String))
      expect(payment?.proofSources).toMatch(/path from ARC/)
    } finally {
      h.simulator.clearFaults()
    }
  })

  it('keep a payment ARC forgot while WhatsOnChain has it, then PAID on its proof', async () => {
    streamOff()
    const orderId = await createOrder(h.shop, pdfId)
    const txid = await payInTestMode(h.shop, orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
    h.simulator.setFaults({ arcForgotten: [txid] })
    try {
      h.simulator.state.mine(1)
      await waitForStatus(h.shop.payload, orderId, 'PAID', 20_000)
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      expect(payment?.proofSources).toMatch(/path from WhatsOnChain/)
    } finally {
      h.simulator.clearFaults()
    }
  })
})

describe('WhatsOnChain down for a whole order\u2019s life', () => {
  it('the order reaches PAID through ARC and the push stream, on time', async () => {
    await streamOn()
    const orderId = await createOrder(h.shop, pdfId)
    const order = await getOrder(h.shop.payload, orderId)
    const since = Date.now()
    h.simulator.setOutage(true)
    try {
      // The buyer's wallet broadcasts elsewhere: the push stream carries the payment.
      const direct: ChainSource = {
        getTipHeight: async () => h.simulator.state.height,
        getAddressHistories: async () => new Map(),
        getBlockTime: async (height) => new Date(h.simulator.state.blockTime(height)! * 1000),
        getTransactionStatus: async () => 'mempool',
        getTransactionHex: async (txid) => h.simulator.state.getHex(txid)!,
        broadcast: async (hex) => h.simulator.state.submit(hex),
      }
      const txid = await payFromTestWallet({
        chain: direct,
        wocUrl: h.simulator.wocUrl,
        network: 'test',
        address: order.paymentAddress,
        satoshis: order.amountSatoshiExpected,
      })
      await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED', 15_000)
      await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
      h.simulator.state.mine(1)
      const paid = await waitForStatus(h.shop.payload, orderId, 'PAID', 20_000)
      expect(paid.flags?.paidLate).toBe(false)
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      expect(payment?.late).toBe(false)
      expect(payment?.proofSources).toMatch(/path from ARC; header from the push stream/)
      // ARC's calls for this order's whole life: its submission and the asks about its txid.
      const arcCalls = h.simulator
        .arcRequestRecords()
        .filter(
          (r) =>
            r.at >= since &&
            (r.path.includes(txid) || (r.method === 'POST' && r.path === '/v1/tx')),
        )
      expect(arcCalls.length).toBeGreaterThan(1)
      expect(arcCalls.length).toBeLessThanOrEqual(15)
    } finally {
      h.simulator.setOutage(false)
      streamOff()
    }
  })
})

describe('PAID on a proof the shop verifies', () => {
  it('never on a forged merkle path or a header that does not match: shown to the owner', async () => {
    streamOff()
    const orderId = await createOrder(h.shop, pdfId)
    const txid = await payInTestMode(h.shop, orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
    h.simulator.setFaults({ arcForgotten: [txid], forgedProofs: [txid] })
    const height = h.simulator.state.mine(1)
    try {
      const [refused] = await waitFor(async () => {
        const found = await paymentsOf(h.shop.payload, orderId)
        return found[0]?.proofProblem ? found : null
      })
      expect(refused?.proofProblem).toMatch(/does not lead to the merkle root/)
      expect(refused?.blockHeight).toBe(height)
      expect(refused?.proofVerifiedAt ?? null).toBeNull()
      // More looks and another block: still not PAID while every proof it gets is forged.
      h.simulator.setFaults({ arcForgotten: [txid], forgedHeaders: [height] })
      h.simulator.state.mine(1)
      await h.worker.nextPass()
      await h.worker.nextPass()
      expect((await getOrder(h.shop.payload, orderId)).status).toBe('PAYMENT_DETECTED')
    } finally {
      h.simulator.clearFaults()
    }
    // The true proof, once it is given, confirms it.
    await waitForStatus(h.shop.payload, orderId, 'PAID', 20_000)
  })
})

describe('a block that confirms many payments at once', () => {
  it('is proven with one header from WhatsOnChain and ARC asked in lists, not once a payment', async () => {
    streamOff()
    const PAYMENTS = 12
    const orders: string[] = []
    for (let i = 0; i < PAYMENTS; i++) orders.push(await createOrder(h.shop, pdfId))
    for (const orderId of orders) await payInTestMode(h.shop, orderId)
    for (const orderId of orders) await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    const since = Date.now()
    const height = h.simulator.state.mine(1)
    for (const orderId of orders) await waitForStatus(h.shop.payload, orderId, 'PAID', 20_000)
    const headerAsks = h.simulator
      .requests()
      .filter((r) => r.at >= since && r.path === `/block/height/${height}`)
    const arcAsks = h.simulator.arcRequestRecords().filter((r) => r.at >= since)
    // Before, each payment's proof asked for the header and ARC's word itself: 12 calls each.
    expect(headerAsks.length).toBe(1)
    expect(arcAsks.length).toBeLessThanOrEqual(PAYMENTS / 3)
    expect(arcAsks.some((r) => r.method === 'POST' && r.path === '/v1/txs')).toBe(true)
    // Every payment's proof rests on ARC's path and WhatsOnChain's header.
    for (const orderId of orders) {
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      expect(payment?.proofSources).toMatch(/path from ARC; header from WhatsOnChain/)
    }
  })
})

describe('a payment in doubt before its deadline', () => {
  /**
   * A detected payment, double-spent while WhatsOnChain is down (no look can race the doubt):
   * in doubt on ARC's report, its order waiting again, and WhatsOnChain's address history empty
   * once it is back.
   */
  async function doubtedWhileWhatsOnChainDown() {
    streamOff()
    const orderId = await createOrder(h.shop, printedId)
    const txid = await payInTestMode(h.shop, orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
    h.simulator.setOutage(true)
    await doubleSpend(txid)
    const waiting = await waitForStatus(h.shop.payload, orderId, 'AWAITING_PAYMENT')
    expect(waiting.flags?.paidInvalid).toBe(true)
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect([Boolean(payment?.doubtedAt), payment?.invalidatedAt ?? null]).toEqual([true, null])
    return orderId
  }

  const invalidated = (orderId: string) =>
    waitFor(async () => {
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      return payment?.invalidatedAt ? payment : null
    })

  it('is judged invalid on WhatsOnChain\u2019s evidence once it is back, though no payment shows on the address', async () => {
    // Before, an open order with nothing on its address and nothing counted was judged without
    // reading its payments: the doubt waited for the order's deadline (20 minutes).
    const orderId = await doubtedWhileWhatsOnChainDown()
    h.simulator.setOutage(false)
    const payment = await invalidated(orderId)
    expect(payment.invalidReason).toMatch(/double-spent/)
  })

  it('is judged invalid by a worker that restarts meanwhile (it knows the doubt from the order)', async () => {
    const orderId = await doubtedWhileWhatsOnChainDown()
    await h.worker.stop()
    h.simulator.setOutage(false)
    const { loadEnv } = await import('@shop/cms/process')
    const restarted = startPaymentWorker({
      payload: h.shop.payload,
      chain: simulatorClient(h.simulator),
      logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
      settings: loadEnv(),
      autoStart: false,
    })
    try {
      await restarted.runOnce()
      await restarted.runOnce()
      const [payment] = await paymentsOf(h.shop.payload, orderId)
      expect(payment?.invalidReason).toMatch(/double-spent/)
    } finally {
      await restarted.stop()
    }
  })
})
