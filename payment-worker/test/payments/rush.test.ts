import type { Where } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { Order } from '@shop/cms/engine'
import { createPrintedBook } from '@shop/cms/testing'
import { sharedShopEnv, spawnTs } from './spawn'
import type { Received } from './smtpInbox'
import { startSmtpInbox } from './smtpInbox'
import type { PaymentsHarness } from './support'
import { api, productIdOf, SHIPPING, startPaymentsHarness, waitFor } from './support'

/**
 * A launch: a rush of orders paid at once and confirmed by one block, settled by a worker in a
 * process of its own that is SIGKILLed once part of the rush is settled. Every order ends PAID
 * (a printed one then PROCESSING_DELIVERY) exactly once, is delivered once and mailed once, and
 * the printed book's stock is exact. The rates are printed; `npm run bench` (rush) holds the
 * targets.
 */
const RUSH = 300
const PRINTED = 30
const STOCK = 40

let smtp: Awaited<ReturnType<typeof startSmtpInbox>>
let inbox: Received[]
let h: PaymentsHarness
let pdfId: number
let bookId: number
const children: ReturnType<typeof spawnTs>[] = []

beforeAll(async () => {
  smtp = await startSmtpInbox()
  inbox = smtp.inbox
  h = await startPaymentsHarness({
    worker: false,
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      CONFIRMATIONS_REQUIRED: '1',
      WORKER_FAST_POLL_MS: '1000',
      WORKER_SLOW_POLL_MS: '5000',
      WOC_MAX_REQUESTS_PER_SECOND: '50',
      MAX_OPEN_ORDERS_PER_CLIENT: '10000',
      ORDER_CREATE_RATE_LIMIT: '10000',
    },
  })
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  bookId = await createPrintedBook(h.shop.payload, { name: 'Rush print', stock: STOCK })
}, 60_000)

afterAll(async () => {
  for (const c of children) if (c.child.exitCode === null) c.child.kill('SIGKILL')
  await h?.close()
  await smtp?.close()
})

const startWorker = () => {
  const worker = spawnTs('payment-worker/src/main.ts', {
    ...sharedShopEnv(),
    LOG_LEVEL: 'warn',
    // The killed worker's lease runs out soon, so the next one takes over within seconds.
    WORKER_LEASE_SECONDS: '3',
  })
  children.push(worker)
  return worker
}

const countWhere = async (where: Where) =>
  (await h.shop.payload.count({ collection: slugs.orders, where })).totalDocs

const settled: Where = { status: { in: ['PAID', 'PROCESSING_DELIVERY', 'SHIPPED'] } }

describe('a rush of paid orders', () => {
  it('settles every order once, delivers and mails each once, after a SIGKILL in the middle', async () => {
    const ids: string[] = []
    for (let i = 0; i < RUSH; i++) {
      const printed = i < PRINTED
      const { status, body } = await api(h.shop, '/api/orders/create', {
        body: {
          productId: printed ? bookId : pdfId,
          userEmail: `buyer-${i}@example.com`,
          tokenAddress: null,
          ...SHIPPING,
        },
      })
      expect(status, JSON.stringify(body)).toBe(201)
      ids.push(String(body.orderId))
    }
    const rushOrders = async () =>
      (
        await h.shop.payload.find({
          collection: slugs.orders,
          where: { id: { in: ids } },
          limit: RUSH,
          depth: 0,
        })
      ).docs as Order[]
    const orders = await rushOrders()

    const worker = startWorker()
    const paidAt = Date.now()
    for (const order of orders)
      h.simulator.state.mint(order.paymentAddress, order.amountSatoshiExpected)
    await waitFor(
      async () => (await countWhere({ status: { equals: 'PAYMENT_DETECTED' } })) === RUSH,
      {
        timeoutMs: 120_000,
        intervalMs: 50,
      },
    )
    const detectedMs = Date.now() - paidAt

    const minedAt = Date.now()
    h.simulator.state.mine()
    // Killed once part of the rush is settled and before all of it is mailed.
    await waitFor(async () => (await countWhere(settled)) > 0, {
      timeoutMs: 120_000,
      intervalMs: 20,
    })
    worker.child.kill('SIGKILL')
    await worker.exited
    const atKill = await countWhere(settled)
    startWorker()

    await waitFor(async () => (await countWhere(settled)) === RUSH, {
      timeoutMs: 180_000,
      intervalMs: 50,
    })
    const settledMs = Date.now() - minedAt
    const paidMail = (to: string) =>
      inbox.filter((m) => m.to === to && m.subject.startsWith('Payment received'))
    await waitFor(async () => orders.every((o) => paidMail(o.userEmail).length > 0), {
      timeoutMs: 180_000,
      intervalMs: 50,
    }).catch(async (error) => {
      // What the workers said, to tell a slow rush from a lost message.
      const missing = orders.filter((o) => paidMail(o.userEmail).length === 0).map((o) => o.id)
      const rows = await h.shop.payload.find({
        collection: slugs.emailOutbox,
        where: { and: [{ order: { in: missing } }, { kind: { equals: 'order-paid' } }] },
        depth: 0,
        limit: 5,
      })
      console.log(`[rush] ${missing.length} orders without a paid e-mail`, rows.docs)
      for (const c of children) console.log(c.output().slice(-4000))
      throw error
    })
    const mailedMs = Date.now() - minedAt
    console.log(
      `[rush] ${RUSH} orders: detected in ${detectedMs} ms; settled ${(RUSH / (settledMs / 1000)).toFixed(1)} orders/s (${settledMs} ms from the block, ${atKill} before the kill); paid e-mails ${mailedMs} ms after the block`,
    )

    const after = await rushOrders()
    await waitFor(async () => {
      const fulfilled = await countWhere({ id: { in: ids }, fulfilledAt: { exists: true } })
      return fulfilled === RUSH
    })
    for (const order of after) {
      const paidMoves = (order.history ?? []).filter((e) => e.toStatus === 'PAID')
      expect(paidMoves, order.id).toHaveLength(1)
    }
    const tokens = await h.shop.payload.find({
      collection: slugs.downloadTokens,
      where: { order: { in: ids } },
      limit: 0,
      pagination: false,
      depth: 0,
    })
    expect(tokens.docs).toHaveLength(RUSH - PRINTED)
    const payments = await h.shop.payload.count({
      collection: slugs.payments,
      where: { order: { in: ids } },
    })
    expect(payments.totalDocs).toBe(RUSH)
    for (const order of orders) expect(paidMail(order.userEmail), order.userEmail).toHaveLength(1)
    const book = await h.shop.payload.findByID({ collection: slugs.products, id: bookId, depth: 0 })
    expect(book.currentStock).toBe(STOCK - PRINTED)
  }, 600_000)
})
