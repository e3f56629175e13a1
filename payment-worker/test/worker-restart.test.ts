import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../cms/src/collections/slugs'
import type { EmailOutbox } from '../../cms/src/payload-types'
import { sharedShopEnv, spawnTs } from '../../cms/test/payments/spawn'
import type { PaymentsHarness } from '../../cms/test/payments/support'
import {
  api,
  createOrder,
  getOrder,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from '../../cms/test/payments/support'

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

const runCrashingWorker = async (crashAt: string) => {
  const worker = spawnTs('payment-worker/src/main.ts', {
    ...sharedShopEnv(),
    LOG_LEVEL: 'warn',
    WORKER_CRASH_AT: crashAt,
  })
  const code = await Promise.race([
    worker.exited,
    new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 90_000)),
  ])
  if (code === 'timeout') worker.child.kill('SIGKILL')
  expect(code, worker.output()).toBe(86)
}

describe('a worker killed between recording a payment and fulfilling the order', () => {
  it('loses no payment and fulfils exactly once after a restart', async () => {
    const afterRecord = await createOrder(h.shop, pdfId)
    const beforeFulfil = await createOrder(h.shop, pdfId)
    for (const id of [afterRecord, beforeFulfil]) {
      expect((await api(h.shop, `/api/test-mode/orders/${id}/pay`, { body: {} })).status).toBe(200)
    }

    // Dies right after writing the first Payment row: nothing settled yet.
    await runCrashingWorker('after-record')
    const payments = await h.shop.payload.find({
      collection: slugs.payments,
      where: { order: { in: [afterRecord, beforeFulfil] } },
    })
    expect(payments.totalDocs).toBeGreaterThanOrEqual(1)

    // Dies after settling an order as PAID, before its download token exists.
    await runCrashingWorker('before-fulfil')
    const paidButNotFulfilled = await waitFor(async () => {
      const orders = await Promise.all(
        [afterRecord, beforeFulfil].map((id) => getOrder(h.shop.payload, id)),
      )
      return orders.some((o) => o.status === 'PAID' && !o.fulfilledAt) ? orders : null
    })
    expect(paidButNotFulfilled.length).toBe(2)

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
    expect((await api(h.shop, `/api/test-mode/orders/${orderId}/pay`, { body: {} })).status).toBe(
      200,
    )
    // Mined before the worker looked: the transaction is no longer in the mempool.
    expect((await api(h.shop, '/api/test-mode/mine', { body: {} })).status).toBe(200)
    await h.worker.runOnce()
    await h.worker.runOnce()
    const order = await getOrder(h.shop.payload, orderId)
    expect(order.amountSatoshiReceived).toBe(order.amountSatoshiExpected)
    expect(order.status).toBe('PAID')
  })
})
