import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { EmailOutbox } from '@shop/cms/engine'
import { sharedShopEnv, spawnTs } from './payments/spawn'
import type { PaymentsHarness } from './payments/support'
import { createWhatsOnChainClient } from '@shop/chain'
import { startPaymentWorker } from '../src/worker'
import {
  api,
  createOrder,
  getOrder,
  payInTestMode,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './payments/support'

// 0 confirmations: the crashing worker would otherwise fulfil in the same pass it records.
let h: PaymentsHarness
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness({ worker: false, env: { CONFIRMATIONS_REQUIRED: '0' } })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
})

afterAll(async () => {
  await h?.close()
})

const pay = (orderId: string) => payInTestMode(h.shop, orderId)

const runCrashingWorker = async (crashAt: string) => {
  const worker = spawnTs('payment-worker/src/main.ts', {
    ...sharedShopEnv(),
    LOG_LEVEL: 'warn',
    // The crashed worker's lease runs out before the next one can start its passes.
    WORKER_LEASE_SECONDS: '2',
    WORKER_CRASH_AT: crashAt,
  })
  const code = await Promise.race([
    worker.exited,
    new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 90_000)),
  ])
  if (code === 'timeout') worker.child.kill('SIGKILL')
  expect(code, worker.output()).toBe(86)
}

describe('a worker killed between recording a payment and delivering the order', () => {
  it('leaves no payment half-recorded and fulfils exactly once after a restart', async () => {
    const afterRecord = await createOrder(h.shop, pdfId)
    const beforeFulfil = await createOrder(h.shop, pdfId)
    // One order paid: its look's new payment is judged on its own (a look's several are
    // recorded together with their orders' statuses, below).
    await pay(afterRecord)

    // Dies right after writing the Payment row, inside the transaction that settles its order:
    // the payment and the order's totals are one step, so neither is left written, and the
    // chain still shows the payment to the next worker.
    await runCrashingWorker('after-record')
    const payments = await h.shop.payload.find({
      collection: slugs.payments,
      where: { order: { in: [afterRecord, beforeFulfil] } },
    })
    expect(payments.totalDocs).toBe(0)
    expect((await getOrder(h.shop.payload, afterRecord)).amountSatoshiReceived ?? 0).toBe(0)
    await pay(beforeFulfil)

    // Dies while making an order PAID, just before its delivery is queued. The status and its
    // queued delivery commit together (the Orders seam), so the death leaves neither: no order
    // is PAID without its token, and the recorded payments are still there.
    await runCrashingWorker('before-fulfil')
    const orders = await Promise.all(
      [afterRecord, beforeFulfil].map((id) => getOrder(h.shop.payload, id)),
    )
    expect(orders.filter((o) => o.status === 'PAID' && !o.fulfilledAt)).toEqual([])
    expect(orders.some((o) => o.status !== 'PAID')).toBe(true)
    expect(
      (
        await h.shop.payload.count({
          collection: slugs.downloadTokens,
          where: { order: { in: [afterRecord, beforeFulfil] } },
        })
      ).totalDocs,
    ).toBe(orders.filter((o) => o.status === 'PAID').length)

    // A healthy worker (in this process) finishes the job.
    await h.worker.runOnce()
    for (const id of [afterRecord, beforeFulfil]) {
      const order = await waitForStatus(h.shop.payload, id, 'PAID')
      await waitFor(async () => (await getOrder(h.shop.payload, id)).fulfilledAt)
      expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
      const tokens = await h.shop.payload.find({
        collection: slugs.downloadTokens,
        where: { order: { equals: id } },
      })
      expect(tokens.totalDocs).toBe(1)
      const recorded = await h.shop.payload.find({
        collection: slugs.payments,
        where: { order: { equals: id } },
      })
      expect(recorded.totalDocs).toBe(1)
      const mails = (
        await h.shop.payload.find({
          collection: slugs.emailOutbox,
          where: { order: { equals: id } },
        })
      ).docs as EmailOutbox[]
      expect(mails.map((m) => m.kind).sort()).toEqual(['order-created', 'order-paid'])
    }
    // More passes change nothing.
    await h.worker.runOnce()
    await h.worker.runOnce()
    expect(
      (
        await h.shop.payload.count({
          collection: slugs.downloadTokens,
          where: { order: { in: [afterRecord, beforeFulfil] } },
        })
      ).totalDocs,
    ).toBe(2)
  })
})

describe('a payment already in a block when the worker first sees the order', () => {
  it('is found by the first look, without waiting for another block', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await pay(orderId)
    // Mined before the worker looked: the transaction is no longer in the mempool.
    expect((await api(h.shop, '/api/test-mode/mine', { body: {} })).status).toBe(200)
    await h.worker.runOnce()
    await h.worker.runOnce()
    const order = await getOrder(h.shop.payload, orderId)
    expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
    expect(order.status).toBe('PAID')
  })
})

describe('the "order created" e-mail', () => {
  const createdMails = async (orderId: string, status?: EmailOutbox['status']) =>
    (
      await h.shop.payload.count({
        collection: slugs.emailOutbox,
        where: {
          and: [
            { key: { equals: `order-created:${orderId}` } },
            ...(status ? [{ status: { equals: status } }] : []),
          ],
        },
      })
    ).totalDocs
  /** The send-email jobs still waiting (none once the worker's jobs step has run them). */
  const waitingMailJobs = async () =>
    (
      await h.shop.payload.count({
        collection: 'payload-jobs',
        where: { taskSlug: { equals: 'send-email' } },
      })
    ).totalDocs

  it('is queued once, by checkout with the order, never again by a worker that sees the order', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    // In checkout's own write: no worker has seen the order yet.
    expect(await createdMails(orderId)).toBe(1)
    await h.worker.runOnce()
    expect(await createdMails(orderId)).toBe(1)
    // The worker's jobs step sent it.
    expect(await createdMails(orderId, 'sent')).toBe(1)

    // A restarted worker (new memory, same database) sees the order as new: still one e-mail.
    const { loadEnv } = await import('@shop/cms/process')
    const restarted = startPaymentWorker({
      payload: h.shop.payload,
      chain: createWhatsOnChainClient({ baseUrl: h.simulator.wocUrl, maxRequestsPerSecond: 200 }),
      logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
      settings: loadEnv(),
      autoStart: false,
    })
    await restarted.runOnce()
    await restarted.stop()
    expect(await createdMails(orderId)).toBe(1)
    expect(await createdMails(orderId, 'sent')).toBe(1)
  })

  it('is not sent for an order that had already expired when the worker first saw it', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    await h.shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { gatewayExpiresAt: new Date(Date.now() - 1000).toISOString() },
    })
    await h.worker.runOnce()
    await h.worker.runOnce()
    // The worker expired the order and ran its jobs, the message's among them: not sent.
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('EXPIRED')
    expect(await waitingMailJobs()).toBe(0)
    expect(await createdMails(orderId, 'sent')).toBe(0)
  })
})

const tokensOf = async (orderId: string) =>
  (
    await h.shop.payload.count({
      collection: slugs.downloadTokens,
      where: { order: { equals: orderId } },
    })
  ).totalDocs

const paidMailsOf = async (orderId: string) =>
  (
    await h.shop.payload.count({
      collection: slugs.emailOutbox,
      where: { and: [{ order: { equals: orderId } }, { kind: { equals: 'order-paid' } }] },
    })
  ).totalDocs

describe('a worker killed inside the job that delivers a paid order', () => {
  it('leaves the order paid with its delivery queued; the next worker delivers it once', async () => {
    const orderId = await createOrder(h.shop, pdfId)
    // Made PAID by another door (the owner marking it paid): the change queues its delivery.
    await h.shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { status: 'PAID' },
    })
    const queued = async () =>
      (
        await h.shop.payload.find({
          collection: 'payload-jobs',
          where: { 'input.orderId': { equals: orderId } },
          depth: 0,
        })
      ).docs
    const paid = await getOrder(h.shop.payload, orderId)
    expect(paid.status).toBe('PAID')
    expect(paid.fulfilledAt ?? null).toBeNull()
    expect(await queued()).toHaveLength(1)

    // Dies inside the delivery, just before delivering: nothing of it commits, and the job is
    // still queued (its first try runs in the deliveries' own transaction, deliverTogether).
    await runCrashingWorker('before-fulfil')
    const cut = await getOrder(h.shop.payload, orderId)
    expect(cut.status).toBe('PAID')
    expect(cut.fulfilledAt ?? null).toBeNull()
    expect(await tokensOf(orderId)).toBe(0)
    expect((await queued()).map((job) => job.completedAt ?? null)).toEqual([null])

    // The next worker to hold the lease puts the job back and runs it.
    const { loadEnv } = await import('@shop/cms/process')
    const next = startPaymentWorker({
      payload: h.shop.payload,
      chain: createWhatsOnChainClient({ baseUrl: h.simulator.wocUrl, maxRequestsPerSecond: 200 }),
      logger: { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} },
      settings: loadEnv(),
      autoStart: false,
    })
    try {
      await next.runOnce()
      const delivered = await getOrder(h.shop.payload, orderId)
      expect(delivered.fulfilledAt).toEqual(expect.any(String))
      expect(await tokensOf(orderId)).toBe(1)
      expect(await paidMailsOf(orderId)).toBe(1)
      expect(await queued()).toEqual([])
      // More passes change nothing.
      await next.runOnce()
      await h.worker.runOnce()
      expect(await tokensOf(orderId)).toBe(1)
      expect(await paidMailsOf(orderId)).toBe(1)
      expect((await getOrder(h.shop.payload, orderId)).fulfilledAt).toBe(delivered.fulfilledAt)
    } finally {
      await next.stop()
    }
  })
})

describe("a worker killed while recording a look's new payments", () => {
  it("leaves neither the payments nor their orders' statuses, which commit together", async () => {
    const orders = [await createOrder(h.shop, pdfId), await createOrder(h.shop, pdfId)]
    for (const id of orders) await pay(id)
    // Dies right after recording the first order's payment, inside the group's transaction.
    // Before, each payment committed on its own first: the death left it recorded, its order
    // still waiting.
    await runCrashingWorker('after-record')
    const recorded = await h.shop.payload.count({
      collection: slugs.payments,
      where: { order: { in: orders } },
    })
    expect(recorded.totalDocs).toBe(0)
    for (const id of orders)
      expect((await getOrder(h.shop.payload, id)).status).toBe('AWAITING_PAYMENT')

    // The next worker records and settles both, once each.
    await h.worker.runOnce()
    for (const id of orders) {
      const order = await waitForStatus(h.shop.payload, id, 'PAID')
      expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
      const payments = await h.shop.payload.count({
        collection: slugs.payments,
        where: { order: { equals: id } },
      })
      expect(payments.totalDocs).toBe(1)
    }
  })
})
