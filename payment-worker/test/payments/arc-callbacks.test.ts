import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'

import type { ChainFeed } from '@shop/chain'
import { ARC_CALLBACK_PATH, arcCallbackToken, slugs } from '@shop/cms/engine'
import type { Product } from '@shop/cms/engine'
import { ASK_AT_MS } from '../../src/watch/followSchedule'
import { STREAM_TRUST_FRAMES, STREAM_TRUST_WINDOW_MS } from '../../src/watch/stream'
import type { PaymentsHarness } from './support'
import {
  connectSimulatorFeed,
  createOrder,
  getOrder,
  payInTestMode,
  paymentsOf,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

/**
 * ARC's callbacks (the simulator's stand-in posts them as ARC's Callbacker does) reach the shop's
 * receiver, and the worker asks ARC about the payment at once: a double-spend long after the
 * follow schedule's frequent asks, which the trusted push stream does not carry (WhatsOnChain's
 * node keeps the spend it saw first), still leaves PAYMENT_DETECTED within 15 s. A callback
 * decides nothing by itself: one ARC's own answer contradicts changes nothing, and the asks it
 * brings forward are the schedule's own.
 */

const ALERTS_TO = 'owner-arc-callbacks@example.com'
const DOUBLE_SPEND_DEADLINE_MS = 15_000
/** The schedule's asks within its first minute: a later double-spend waits for the next. */
const FIRST_MINUTE_ASKS = ASK_AT_MS.filter((at) => at <= 60_000).length

let h: PaymentsHarness
let feed: ChainFeed | undefined
let printedId: number
/** How far the worker's clock runs ahead of the wall clock. */
let ahead = 0
const mempoolFrames: number[] = []

beforeAll(async () => {
  h = await startPaymentsHarness({
    env: { CONFIRMATIONS_REQUIRED: '1', OWNER_EMAIL: ALERTS_TO },
    clock: () => Date.now() + ahead,
  })
  printedId = await productIdOf(h.shop.payload, 'PHYSICAL')
  feed = connectSimulatorFeed(h, mempoolFrames)
  await waitFor(async () => feed!.connected())
})

afterEach(() => {
  h.simulator.setArcCallbacks(true)
})

afterAll(async () => {
  feed?.close()
  await h?.close()
})

/** The stream trusted again: enough mempool frames heard since the clock last moved. */
async function streamTrusted(since: number) {
  await waitFor(
    async () =>
      mempoolFrames.filter((at) => at >= Math.max(since, Date.now() - STREAM_TRUST_WINDOW_MS))
        .length >= STREAM_TRUST_FRAMES,
  )
  await h.worker.nextPass()
}

const stock = async () =>
  ((await h.shop.payload.findByID({ collection: slugs.products, id: printedId })) as Product)
    .currentStock

const arcAsksAbout = (txid: string) =>
  h.simulator.arcRequestRecords().filter((r) => r.path === `/v1/tx/${txid}`).length

/**
 * A printed order paid and detected, then past its expiry (a detected payment keeps it waiting
 * for its block) and a minute and a bit later on the worker's clock: the follow schedule's
 * first-minute asks are made, and its next is a minute away.
 */
async function detectedAMinuteAgo() {
  const orderId = await createOrder(h.shop, printedId)
  const held = await stock()
  const txid = await payInTestMode(h.shop, orderId)
  await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
  await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.arcStatus)
  await h.shop.payload.update({
    collection: slugs.orders,
    id: orderId,
    data: { gatewayExpiresAt: new Date(Date.now() - 1_000).toISOString() },
  })
  const movedAt = Date.now()
  ahead += 61_000
  // The submission was the first ask; the rest of the first minute's are asked by txid.
  await waitFor(async () => arcAsksAbout(txid) >= FIRST_MINUTE_ASKS - 1)
  await streamTrusted(movedAt)
  expect((await getOrder(h.shop.payload, orderId)).status).toBe('PAYMENT_DETECTED')
  return { orderId, txid, held }
}

/** The competing spend, which the push stream does not carry. */
async function doubleSpendUnrelayed(txid: string): Promise<{ at: number; competitor: string }> {
  const response = await fetch(`${h.simulator.url}/simulator/double-spend`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ txid, relayed: false }),
  })
  expect(response.status).toBe(200)
  return { at: Date.now(), competitor: ((await response.json()) as { txid: string }).txid }
}

describe("ARC's callbacks", () => {
  it('bring a late double-spend out of PAYMENT_DETECTED within 15 s, the stream trusted and silent on it', async () => {
    const { orderId, txid, held } = await detectedAMinuteAgo()
    const asksBefore = arcAsksAbout(txid)
    const { at, competitor } = await doubleSpendUnrelayed(txid)
    await waitFor(
      async () => (await getOrder(h.shop.payload, orderId)).status !== 'PAYMENT_DETECTED',
      { timeoutMs: DOUBLE_SPEND_DEADLINE_MS, intervalMs: 100 },
    )
    expect(Date.now() - at).toBeLessThan(DOUBLE_SPEND_DEADLINE_MS)
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('EXPIRED')
    expect(await stock()).toBe(held + 1)
    // ARC called back, with the token; the worker asked ARC itself before it doubted.
    const sent = h.simulator.arcCallbacks().filter((c) => c.body.txid === txid)
    expect(sent.map((c) => c.body.txStatus)).toContain('DOUBLE_SPEND_ATTEMPTED')
    expect(
      sent.every((c) => c.authorization === `Bearer ${arcCallbackToken(h.shop.payload)}`),
    ).toBe(true)
    // Taken by the shop (the stand-in notes the answer once it has it).
    await waitFor(async () =>
      h.simulator
        .arcCallbacks()
        .some(
          (c) =>
            c.body.txid === txid &&
            c.body.txStatus === 'DOUBLE_SPEND_ATTEMPTED' &&
            c.outcome === 200,
        ),
    )
    expect(arcAsksAbout(txid)).toBeGreaterThan(asksBefore)
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect(payment?.doubtReason).toContain(competitor)
    // Invalid on WhatsOnChain's evidence, ARC not contradicting it.
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId))[0]?.invalidatedAt)
    await waitFor(async () =>
      (
        await h.shop.payload.find({
          collection: slugs.emailOutbox,
          where: { and: [{ order: { equals: orderId } }, { to: { equals: ALERTS_TO } }] },
          depth: 0,
        })
      ).docs.some((m) => (m as { key: string }).key === `owner-settle:${orderId}:paidInvalid`),
    )
    // Each callback was kept, then taken by the worker.
    const kept = await h.shop.payload.find({
      collection: slugs.arcCallbacks,
      where: { txid: { equals: txid } },
      depth: 0,
    })
    expect(kept.docs.map((d) => d.txStatus)).toContain('DOUBLE_SPEND_ATTEMPTED')
    await waitFor(
      async () =>
        (
          await h.shop.payload.find({
            collection: slugs.arcCallbacks,
            where: { and: [{ txid: { equals: txid } }, { takenAt: { exists: false } }] },
            depth: 0,
          })
        ).docs.length === 0,
    )
  })

  it('without them the same double-spend waits for the schedule’s next ask', async () => {
    h.simulator.setArcCallbacks(false)
    const { orderId, txid } = await detectedAMinuteAgo()
    const asksBefore = arcAsksAbout(txid)
    await doubleSpendUnrelayed(txid)
    // Nothing asks ARC until the schedule's next ask, a minute away on the worker's clock.
    await h.worker.nextPass()
    await h.worker.nextPass()
    expect(arcAsksAbout(txid)).toBe(asksBefore)
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('PAYMENT_DETECTED')
    // The schedule's next ask comes (the clock moved to it), and finds the competitor.
    ahead += 60_000
    await waitFor(
      async () => (await getOrder(h.shop.payload, orderId)).status !== 'PAYMENT_DETECTED',
      { timeoutMs: DOUBLE_SPEND_DEADLINE_MS, intervalMs: 100 },
    )
  })

  it('decide nothing alone: a callback ARC’s own answer contradicts leaves the payment counted', async () => {
    const { orderId, txid } = await detectedAMinuteAgo()
    const asksBefore = arcAsksAbout(txid)
    const response = await fetch(`${h.shop.url}${ARC_CALLBACK_PATH}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${arcCallbackToken(h.shop.payload)}`,
      },
      body: JSON.stringify({
        timestamp: new Date().toISOString(),
        txid,
        txStatus: 'DOUBLE_SPEND_ATTEMPTED',
        competingTxs: ['ab'.repeat(32)],
      }),
    })
    expect(response.status).toBe(200)
    // The worker asks ARC at once (one of the schedule's asks, brought forward)...
    await waitFor(async () => arcAsksAbout(txid) > asksBefore)
    await h.worker.nextPass()
    // ...and ARC says it is seen on the network, nothing competing: nothing changes.
    const [payment] = await paymentsOf(h.shop.payload, orderId)
    expect(payment?.arcStatus).toBe('SEEN_ON_NETWORK')
    expect(payment?.doubtedAt ?? null).toBeNull()
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('PAYMENT_DETECTED')
    // The callback took the schedule's next slot: no ask is added over the payment's life.
    expect(arcAsksAbout(txid)).toBe(asksBefore + 1)
  })
})
