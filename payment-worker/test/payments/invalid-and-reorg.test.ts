import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '@shop/cms/engine'
import type { Product } from '@shop/cms/engine'
import { signedInNewAdmin } from '@shop/cms/testing'
import type { PaymentsHarness } from './support'
import { paymentsOf as paymentsOfOrder } from './support'
import {
  api,
  createOrder,
  getOrder,
  payInTestMode,
  productIdOf,
  startPaymentsHarness,
  waitFor,
  waitForStatus,
} from './support'

/**
 * Unconfirmed payments are re-checked, so a 0-conf payment that is later double-spent or dropped
 * does not hold its order in PAYMENT_DETECTED (and its copy) for ever: one the chain no longer
 * knows is marked invalid with the reason, and the order waits again (before its deadline) or
 * expires (after), releasing its copy. The simulator models both chain events:
 * POST /simulator/double-spend and POST /simulator/reorg.
 */

const OWNER = { email: 'reorg-owner@example.com', password: 'Quartz-ledger-owner-7193' }

let h: PaymentsHarness
let printedId: number

beforeAll(async () => {
  h = await startPaymentsHarness({ env: { CONFIRMATIONS_REQUIRED: '1' } })
  printedId = await productIdOf(h.shop.payload, 'PHYSICAL')
})

afterAll(async () => {
  await h?.close()
})

const pay = (orderId: string) => payInTestMode(h.shop, orderId)
const simulator = async (path: string, body: unknown) => {
  const response = await fetch(`${h.simulator.url}/simulator/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(response.status).toBe(200)
  return (await response.json()) as Record<string, unknown>
}
const paymentsOf = (orderId: string) => paymentsOfOrder(h.shop.payload, orderId)
const stock = async () =>
  ((await h.shop.payload.findByID({ collection: slugs.products, id: printedId })) as Product)
    .currentStock

describe('a double-spent payment', () => {
  it('before expiry: marked invalid with the reason, the order waits again and keeps its copy, then a real payment pays it', async () => {
    const orderId = await createOrder(h.shop, printedId)
    const held = await stock()
    const txid = await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')

    const { txid: replacement } = await simulator('double-spend', { txid })
    expect(replacement).toMatch(/^[0-9a-f]{64}$/)
    expect(replacement).not.toBe(txid)

    const waiting = await waitForStatus(h.shop.payload, orderId, 'AWAITING_PAYMENT')
    expect(waiting.flags).toMatchObject({ paidInvalid: true })
    expect(waiting.amountSatoshiReceived).toBe(0)
    // In doubt at once (the competing spend reported), then invalid on the chain's evidence.
    const [invalid] = await waitFor(async () => {
      const found = await paymentsOf(orderId)
      return found[0]?.invalidatedAt ? found : null
    })
    expect(invalid?.invalidatedAt).toEqual(expect.any(String))
    expect(invalid?.invalidReason).toMatch(
      /double-spent: the output \S+ it spent was spent by [0-9a-f]{64}\./,
    )
    expect(await stock()).toBe(held)
    // The admin sees it, with the reason.
    const admin = await signedInNewAdmin(h.shop, OWNER)
    const detail = await admin.request('GET', `/orders/${orderId}`)
    const body = (await detail.json()) as { payments: { invalidReason: string | null }[] }
    expect(body.payments[0]?.invalidReason).toMatch(/double-spent/)

    await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await api(h.shop, '/api/test-mode/mine', { body: {} })
    await waitForStatus(h.shop.payload, orderId, 'PROCESSING_DELIVERY')
  })

  it('after expiry: the order expires, its copy goes back, and the owner sees the invalid payment', async () => {
    const orderId = await createOrder(h.shop, printedId)
    const txid = await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await h.shop.payload.update({
      collection: slugs.orders,
      id: orderId,
      data: { gatewayExpiresAt: new Date(Date.now() - 1000).toISOString() },
    })
    const held = await stock()
    await simulator('double-spend', { txid })
    const expired = await waitForStatus(h.shop.payload, orderId, 'EXPIRED')
    expect(expired.flags).toMatchObject({ paidInvalid: true })
    expect(expired.stockReleasedAt).toEqual(expect.any(String))
    expect(await stock()).toBe(held + 1)
  })
})

describe('a reorg', () => {
  it('re-evaluates a payment whose block is orphaned: unconfirmed again, then confirmed again, never delivered twice', async () => {
    const orderId = await createOrder(h.shop, printedId)
    await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await api(h.shop, '/api/test-mode/mine', { body: {} })
    await waitForStatus(h.shop.payload, orderId, 'PROCESSING_DELIVERY')
    const minedAt = (await paymentsOf(orderId))[0]!.blockHeight

    await simulator('reorg', { blocks: 1 })
    await waitFor(async () => (await paymentsOf(orderId))[0]?.blockHeight === null)
    expect((await getOrder(h.shop.payload, orderId)).status).toBe('PROCESSING_DELIVERY')

    await api(h.shop, '/api/test-mode/mine', { body: {} })
    await waitFor(async () => (await paymentsOf(orderId))[0]?.blockHeight === minedAt)
    const order = await getOrder(h.shop.payload, orderId)
    expect(order.status).toBe('PROCESSING_DELIVERY')
    expect(order.flags).toMatchObject({ paidInvalid: false })
    const mails = await h.shop.payload.count({
      collection: slugs.emailOutbox,
      where: { and: [{ order: { equals: orderId } }, { kind: { equals: 'order-paid' } }] },
    })
    expect(mails.totalDocs).toBe(1)
  })

  it('flags a paid order whose orphaned payment is then double-spent, for the owner to settle', async () => {
    const orderId = await createOrder(h.shop, printedId)
    const txid = await pay(orderId)
    await waitForStatus(h.shop.payload, orderId, 'PAYMENT_DETECTED')
    await api(h.shop, '/api/test-mode/mine', { body: {} })
    await waitForStatus(h.shop.payload, orderId, 'PROCESSING_DELIVERY')
    await simulator('reorg', { blocks: 1 })
    await simulator('double-spend', { txid })
    // The competing spend puts the payment in doubt at once (paidInvalid already) and the
    // chain's evidence then makes it invalid: waited for both.
    const invalidated = await waitFor(async () => {
      const [payment] = await paymentsOf(orderId)
      return payment?.invalidatedAt ? payment : null
    })
    expect(invalidated.invalidatedAt).toEqual(expect.any(String))
    const flagged = await getOrder(h.shop.payload, orderId)
    expect(flagged.flags?.paidInvalid).toBe(true)
    expect(flagged.status).toBe('PROCESSING_DELIVERY')
  })
})
