import crypto from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { Order, Product } from '@shop/cms/engine'
import type { AdminClient } from '@shop/cms/testing'
import { runSql, signedInNewAdmin } from '@shop/cms/testing'
import type { PaymentsHarness } from './support'
import {
  api,
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
 * Every exception is settled from the admin, never by a raw status write in /cms: the owner marks
 * an order paid (an expired one takes a copy
 * again, or is refused when none is left), cancels it (its copy goes back), records a refund or
 * settles it, each through the transition table, asked why, and shown in the order's history.
 * The owner can also ask for a look at the chain for any order, however old.
 */

const OWNER = { email: 'settling-owner@example.com', password: 'Quartz-ledger-owner-7193' }
const NOTE = 'The buyer wrote to us: the payment left their wallet late.'
const ALERTS_TO = 'alerts@example.com'

/** The owner's alerts about one order, once the worker has sent `count` of them. */
const alertsAbout = (orderId: string, count = 1) =>
  waitFor(async () => {
    const found = await h.shop.payload.find({
      collection: slugs.emailOutbox,
      where: { and: [{ order: { equals: orderId } }, { to: { equals: ALERTS_TO } }] },
      depth: 0,
      pagination: false,
    })
    const docs = found.docs as { key: string; status: string }[]
    return docs.length >= count && docs.every((d) => d.status === 'sent') ? docs : null
  })

const WEBHOOK_SECRET = 'webhook-secret-for-tests-0123'
type Delivery = { signature: string; body: string; json: Record<string, unknown> }
/** The owner's webhook receiver: it fails each delivery's first attempt, then accepts. */
const deliveries: Delivery[] = []
const receiver = http.createServer((req, res) => {
  let body = ''
  req.on('data', (chunk) => (body += chunk))
  req.on('end', () => {
    const json = JSON.parse(body) as Record<string, unknown>
    const firstTry = !deliveries.some((d) => d.json.deliveryId === json.deliveryId)
    deliveries.push({ signature: String(req.headers['shop-sig']), body, json })
    res.statusCode = firstTry ? 500 : 204
    res.end()
  })
})

let h: PaymentsHarness
let admin: AdminClient
let printedId: number

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const { port } = receiver.address() as AddressInfo
  h = await startPaymentsHarness({
    env: {
      CONFIRMATIONS_REQUIRED: '1',
      OWNER_EMAIL: ALERTS_TO,
      WEBHOOK_URL: `http://127.0.0.1:${port}/hooks/shop`,
      WEBHOOK_SECRET,
    },
  })
  printedId = await productIdOf(h.shop.payload, 'PHYSICAL')
  admin = await signedInNewAdmin(h.shop, OWNER)
})

afterAll(async () => {
  await h?.close()
  await new Promise<void>((resolve) => receiver.close(() => resolve()))
})

const stock = async () =>
  ((await h.shop.payload.findByID({ collection: slugs.products, id: printedId })) as Product)
    .currentStock
const pay = (orderId: string, amountBSV?: string) => payInTestMode(h.shop, orderId, amountBSV)
const mine = () => api(h.shop, '/api/test-mode/mine', { body: {} })
/** Moves an order's expiry into the past: the worker expires it at its next look. */
const expire = async (orderId: string, agoMs = 1000) => {
  await h.shop.payload.update({
    collection: slugs.orders,
    id: orderId,
    data: { gatewayExpiresAt: new Date(Date.now() - agoMs).toISOString() },
  })
  return waitForStatus(h.shop.payload, orderId, 'EXPIRED')
}
const act = async (orderId: string, action: string, body: Record<string, unknown>) => {
  const response = await admin.request('POST', `/orders/${orderId}/${action}`, { json: body })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
const detail = async (orderId: string) =>
  (await (await admin.request('GET', `/orders/${orderId}`)).json()) as {
    status: string
    needsSettling: boolean
    settledAt: string | null
    recheckRequestedAt: string | null
    flags: Record<string, boolean>
    history: { action: string; by: string; note: string | null; txid: string | null }[]
  }
const exceptions = async () =>
  ((await (await admin.request('GET', '/stats')).json()) as { ordersWithPaymentExceptions: number })
    .ordersWithPaymentExceptions

/** An order that expired unpaid, then received its full amount late (confirmed). */
async function lateFullPayment() {
  const orderId = await createOrder(h.shop, printedId)
  await expire(orderId)
  await pay(orderId)
  await mine()
  await waitFor(async () => (await getOrder(h.shop.payload, orderId)).flags?.paidLate)
  return orderId
}

describe('mark as paid', () => {
  it('settles a full late payment: the copy is taken again, the book delivered, the history says who and why', async () => {
    const orderId = await lateFullPayment()
    const before = await detail(orderId)
    // A full payment that only came late is "paid late", not partial.
    expect(before.flags).toMatchObject({ paidLate: true, paidPartial: false })
    expect(before.needsSettling).toBe(true)
    // The owner hears of it (OWNER_EMAIL), once per kind of exception.
    expect((await alertsAbout(orderId)).map((m) => m.key)).toEqual([
      `owner-settle:${orderId}:paidLate`,
    ])
    const open = await exceptions()
    const shelf = await stock()

    expect(await act(orderId, 'mark-paid', { note: '  ' })).toMatchObject({
      status: 400,
      body: { error: 'Say why in the note.' },
    })
    const marked = await act(orderId, 'mark-paid', { note: NOTE })
    expect(marked.body).toMatchObject({ status: 'PROCESSING_DELIVERY' })
    expect(marked.status).toBe(200)
    // A printed book: paid, then waiting for delivery in the same change.
    expect(marked.body.status).toBe('PROCESSING_DELIVERY')
    expect(await stock()).toBe(shelf - 1)
    const after = await detail(orderId)
    expect(after.needsSettling).toBe(false)
    expect(after.settledAt).toEqual(expect.any(String))
    expect(after.history).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'mark-paid', by: OWNER.email, note: NOTE }),
        expect.objectContaining({ action: 'status', by: 'system' }),
      ]),
    )
    expect(await exceptions()).toBe(open - 1)
    const stored = (await getOrder(h.shop.payload, orderId)) as Order
    expect(stored.paidAt).toEqual(expect.any(String))
    expect(stored.stockReleasedAt ?? null).toBeNull()
  })

  it('refuses when no copy is left, and changes nothing', async () => {
    const orderId = await lateFullPayment()
    const shelf = await stock()
    await runSql(h.shop.payload, 'UPDATE products SET current_stock = 0 WHERE id = ?', [printedId])
    try {
      const refused = await act(orderId, 'mark-paid', { note: NOTE })
      expect(refused.status).toBe(409)
      expect(String(refused.body.error)).toMatch(/No copy of this product is left/)
      const still = await detail(orderId)
      expect(still.status).toBe('EXPIRED')
      expect(still.needsSettling).toBe(true)
      expect(still.history.some((e) => e.action === 'mark-paid')).toBe(false)
      expect(await stock()).toBe(0)
    } finally {
      await runSql(h.shop.payload, 'UPDATE products SET current_stock = ? WHERE id = ?', [
        shelf,
        printedId,
      ])
    }
  })
})

describe('cancel and refund', () => {
  it('cancels an underpaid order (its copy goes back), then records the refund', async () => {
    const orderId = await createOrder(h.shop, printedId)
    const held = await stock()
    await pay(orderId, '0.00001000')
    await waitForStatus(h.shop.payload, orderId, 'UNDERPAID')

    const cancelled = await act(orderId, 'cancel', { note: 'Buyer asked to cancel.' })
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.status).toBe('CANCELLED')
    expect(await stock()).toBe(held + 1)
    // Final: nothing moves it again, and the answer says why.
    expect(await act(orderId, 'cancel', { note: 'again' })).toMatchObject({
      status: 409,
      body: { error: 'Order is CANCELLED: it cannot be cancelled.' },
    })
    expect(await act(orderId, 'mark-paid', { note: 'no' })).toMatchObject({ status: 409 })

    expect(await act(orderId, 'refund', { note: 'Sent back.', txid: 'not-a-txid' })).toMatchObject({
      status: 400,
      body: { error: 'The refund transaction id must be 64 hexadecimal characters.' },
    })
    const refundTxid = 'ab'.repeat(32)
    const refunded = await act(orderId, 'refund', { note: 'Sent back.', txid: refundTxid })
    expect(refunded.status).toBe(200)
    expect(refunded.body.status).toBe('CANCELLED')
    const after = await detail(orderId)
    expect(after.history.map((e) => e.action)).toEqual(
      expect.arrayContaining(['status', 'cancel', 'refund']),
    )
    expect(after.history.find((e) => e.action === 'refund')).toMatchObject({
      by: OWNER.email,
      note: 'Sent back.',
      txid: refundTxid,
    })
    // The worker still records money sent to a cancelled order.
    await pay(orderId, '0.00002000')
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId)).length === 2)
  })
})

describe('settle', () => {
  it('settles an overpayment; new money raises it again', async () => {
    const orderId = await createOrder(h.shop, printedId)
    const order = await getOrder(h.shop.payload, orderId)
    const over = ((order.amountSatoshiExpected + 5000) / 1e8).toFixed(8)
    await pay(orderId, over)
    await mine()
    await waitFor(async () => (await getOrder(h.shop.payload, orderId)).flags?.paidOver)
    expect((await detail(orderId)).needsSettling).toBe(true)
    expect((await alertsAbout(orderId, 2)).map((m) => m.key).sort()).toEqual([
      `owner-paid:${orderId}`,
      `owner-settle:${orderId}:paidOver`,
    ])
    // The same two events reach the webhook, signed, retried after a failure, once accepted.
    const received = await waitFor(async () => {
      const about = deliveries.filter((d) => d.json.orderId === orderId)
      return about.length === 4 ? about : null
    })
    for (const delivery of received) {
      // Shop-Sig: t=<unix seconds of the attempt>,v1=<hex HMAC-SHA256 of "<t>.<body>">.
      const t = /^t=(\d+),/.exec(delivery.signature)?.[1]
      const v1 = crypto.createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${delivery.body}`)
      expect(delivery.signature).toBe(`t=${t},v1=${v1.digest('hex')}`)
    }
    const byType = (type: string) => received.filter((d) => d.json.type === type)
    for (const type of ['OrderPaid', 'OrderNeedsSettling']) {
      const [first, retry] = byType(type)
      expect(first!.json).toMatchObject({ isRedelivery: false, orderId })
      expect(retry!.json).toMatchObject({ isRedelivery: true, deliveryId: first!.json.deliveryId })
    }
    expect(byType('OrderNeedsSettling')[0]!.json.order).toMatchObject({
      flags: { paidOver: true },
    })
    expect(JSON.stringify(received)).not.toContain('@example.com')
    await waitFor(async () => {
      const stored = await h.shop.payload.find({
        collection: slugs.webhookDeliveries,
        where: { order: { equals: orderId } },
        depth: 0,
      })
      return stored.docs.length === 2 && stored.docs.every((d) => d.status === 'sent')
    })

    expect((await act(orderId, 'settle', { note: 'Kept as a tip, with thanks.' })).status).toBe(200)
    expect((await detail(orderId)).needsSettling).toBe(false)

    await pay(orderId, '0.00003000')
    await waitFor(async () => (await detail(orderId)).needsSettling)
  })
})

describe('check the chain now', () => {
  it('records a payment to an order long out of the watch, at the owner’s request', async () => {
    const orderId = await createOrder(h.shop, printedId)
    // Expired forty days ago: beyond LATE_WATCH_DAYS, the worker no longer looks by itself.
    await expire(orderId, 40 * 86_400_000)
    await pay(orderId)
    await mine()
    await h.worker.nextPass()
    await h.worker.nextPass()
    expect(await paymentsOf(h.shop.payload, orderId)).toHaveLength(0)

    const asked = await admin.request('POST', `/orders/${orderId}/recheck`, { json: {} })
    expect(asked.status).toBe(200)
    expect((await detail(orderId)).recheckRequestedAt).toEqual(expect.any(String))
    await waitFor(async () => (await paymentsOf(h.shop.payload, orderId)).length === 1)
    await waitFor(async () => (await detail(orderId)).recheckRequestedAt === null)
    const after = await detail(orderId)
    expect(after.flags.paidLate).toBe(true)
    expect(after.needsSettling).toBe(true)
    expect(after.history).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'recheck', by: OWNER.email })]),
    )
  })
})
