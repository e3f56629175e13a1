import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { AdminClient } from '@shop/cms/testing'
import { refuseWrites, runSql, signedInNewAdmin } from '@shop/cms/testing'
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
 * One order the shop cannot settle must not stop the payment worker. An order stored with an
 * e-mail that Payload's validation refuses (checkout once stored such rows without it) made
 * every save of it fail, and with it the whole pass, every 30 s, for ever: orders the pass
 * reached after it never expired, and e-mails and webhooks stalled. Now such an order settles
 * like any other, and an order whose judgement still fails is logged, shown to the owner as
 * needing attention and retried on its own while the pass goes on.
 */

const OWNER = { email: 'attention-owner@example.com', password: 'Quartz-ledger-owner-7193' }

let h: PaymentsHarness
let admin: AdminClient
let pdfId: number

beforeAll(async () => {
  h = await startPaymentsHarness()
  pdfId = await productIdOf(h.shop.payload, 'DIGITAL')
  admin = await signedInNewAdmin(h.shop, OWNER)
})

afterAll(async () => {
  await h?.close()
})

const pay = (orderId: string, amountBSV?: string) => payInTestMode(h.shop, orderId, amountBSV)
const mine = () => api(h.shop, '/api/test-mode/mine', { body: {} })

/** The order's expiry moved into the past: the next look decides it. */
const expireNow = (orderId: string) =>
  h.shop.payload.update({
    collection: slugs.orders,
    id: orderId,
    data: { gatewayExpiresAt: new Date(Date.now() - 1000).toISOString() },
  })

/** An e-mail of the order's kind went out. */
const mailed = (orderId: string, kind: string) =>
  waitFor(async () => {
    const found = await h.shop.payload.find({
      collection: slugs.emailOutbox,
      where: { and: [{ order: { equals: orderId } }, { kind: { equals: kind } }] },
      depth: 0,
    })
    return found.docs.some((doc) => doc.status === 'sent')
  })

type Listed = { id: string; status: string; attention: string | null }
const ordersNeedingAttention = async () => {
  const response = await admin.request('GET', '/orders?exception=attention')
  expect(response.status).toBe(200)
  return ((await response.json()) as { orders: Listed[] }).orders
}

/**
 * Around the one bad order: an unpaid order made before it and one made after it (both let
 * expire) and a paid one. The bad order is paid short and then expires, so every look at it
 * tries to settle it; the worker must detect, settle and mail the others whatever happens to it.
 */
async function aroundOneBadOrder(
  makeBad: (orderId: string) => Promise<void>,
  judged: (order: Awaited<ReturnType<typeof getOrder>>) => boolean,
) {
  const before = await createOrder(h.shop, pdfId, { userEmail: 'before@example.com' })
  const bad = await createOrder(h.shop, pdfId, { userEmail: 'bad@example.com' })
  await makeBad(bad)
  const paid = await createOrder(h.shop, pdfId, { userEmail: 'paid@example.com' })
  const after = await createOrder(h.shop, pdfId, { userEmail: 'after@example.com' })
  await pay(bad, '0.1') // short: 0.3725 BSV are due
  await waitFor(async () => (await paymentsOf(h.shop.payload, bad)).length === 1)
  // The worker's judgement of the short payment is over (the payment is recorded before it), so
  // the order is judged short first and expired after, as a buyer's would be.
  await waitFor(async () => judged(await getOrder(h.shop.payload, bad)))
  // Past its expiry, written as a raw row: Payload's own update may refuse this order.
  await runSql(h.shop.payload, 'UPDATE orders SET gateway_expires_at = ? WHERE id = ?', [
    new Date(Date.now() - 1000).toISOString(),
    bad,
  ])
  await pay(paid)
  await mine()
  await expireNow(before)
  await expireNow(after)
  await waitForStatus(h.shop.payload, paid, 'PAID')
  await waitFor(async () => (await getOrder(h.shop.payload, paid)).fulfilledAt)
  await mailed(paid, 'order-paid')
  await waitForStatus(h.shop.payload, before, 'EXPIRED')
  await waitForStatus(h.shop.payload, after, 'EXPIRED')
  return { bad }
}

describe('an order the shop cannot settle', () => {
  it('stored with an e-mail Payload refuses, paid short, expiring: settled like any other, and nothing else stops', async () => {
    const { bad } = await aroundOneBadOrder(
      async (orderId) => {
        // As checkout's own insert stored it before the e-mail rule: never validated by Payload.
        await runSql(h.shop.payload, 'UPDATE orders SET user_email = ? WHERE id = ?', [
          'bad;mail@b.co',
          orderId,
        ])
      },
      (order) => order.status === 'UNDERPAID',
    )
    const settled = await waitForStatus(h.shop.payload, bad, 'EXPIRED')
    expect(settled.userEmail).toBe('bad;mail@b.co')
    expect(settled.amountSatoshiReceived).toBe(10_000_000)
    expect(settled.flags?.paidPartial).toBe(true)
    expect(settled.attention ?? null).toBeNull()
  })

  it('whose row the database refuses to change: logged, shown to the owner, retried on its own', async () => {
    // The database refuses any change of this order's status or amount, as it would a row that
    // breaks one of its own rules: its judgement throws on every look until that is repaired.
    let refused = ''
    let repair = async () => {}
    const { bad } = await aroundOneBadOrder(
      async (orderId) => {
        refused = orderId
        repair = await refuseWrites(h.shop.payload, {
          name: 'refuse_one_order',
          table: 'orders',
          before: 'UPDATE',
          when: `OLD.id = '${orderId}' AND (NEW.status IS DISTINCT FROM OLD.status
          OR NEW.amount_satoshi_received IS DISTINCT FROM OLD.amount_satoshi_received)`,
          message: 'this order row is refused',
        })
      },
      (order) => Boolean(order.attention),
    )
    expect(bad).toBe(refused)

    // The owner sees it among the orders needing attention, with the reason.
    const listed = await waitFor(async () =>
      (await ordersNeedingAttention()).find((order) => order.id === bad),
    )
    expect(listed.attention).toMatch(/this order row is refused/)
    const detail = (await (await admin.request('GET', `/orders/${bad}`)).json()) as {
      status: string
      attention: string | null
      attentionSince: string | null
    }
    expect(detail.status).toBe('AWAITING_PAYMENT')
    expect(detail.attention).toMatch(/^Could not settle this order: .*this order row is refused/)
    // The database's reason, not the statement the driver sent (it holds the order's data).
    expect(detail.attention).not.toMatch(/Failed query|insert into|update "orders"/)
    expect(Date.parse(String(detail.attentionSince))).toBeGreaterThan(Date.now() - 60_000)
    // Logged with the order and the error.
    expect(
      h.logs.some((line) => line.obj.orderId === bad && line.obj.err && line.obj.level === 'error'),
    ).toBe(true)
    expect((await ordersNeedingAttention()).map((order) => order.id)).toEqual([bad])

    // Repaired: the order's own retry settles it and the notice goes.
    await repair()
    const settled = await waitForStatus(h.shop.payload, bad, 'EXPIRED', 30_000)
    expect(settled.amountSatoshiReceived).toBe(10_000_000)
    await waitFor(async () => (await getOrder(h.shop.payload, bad)).attention === null)
    expect(await ordersNeedingAttention()).toEqual([])
  })
})
