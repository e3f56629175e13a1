import type { OrderStatus } from '@shop/domain'
import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import type { TestShop } from '../support/testShop'
import { storedBookFile } from '../support/bookFile'
import { startTestShop } from '../support/testShop'
import type { AdminClient } from './client'
import { signedInNewAdmin } from './client'

type AdminOrder = Record<string, unknown> & {
  id: string
  status: OrderStatus
  product: { name: string; type: string }
  shippingTrackingNumber: string | null
  payments?: { txid: string; satoshis: number; confirmedAt: string | null; late: boolean }[]
  flags: { paidLate: boolean; paidPartial: boolean; paidOver: boolean }
}

let shop: TestShop
let admin: AdminClient
let physicalId: number
let digitalId: number
let nextIndex = 0

beforeAll(async () => {
  shop = await startTestShop({ seed: false })
  admin = await signedInNewAdmin(shop, { email: 'owner@example.com', password: 'owner-password-1' })
  const base = { priceEUR: 30, totalStock: 10, currentStock: 10, isAvailable: true }
  physicalId = (
    await shop.payload.create({
      collection: slugs.products,
      data: { ...base, name: 'Printed book', type: 'PHYSICAL' },
    })
  ).id
  digitalId = (
    await shop.payload.create({
      collection: slugs.products,
      data: {
        ...base,
        name: 'PDF book',
        type: 'DIGITAL',
        digitalFile: await storedBookFile(shop.payload),
      },
    })
  ).id
})

afterAll(async () => {
  await shop?.close()
})

/**
 * An order as checkout and the payment worker leave it: created as checkout does, then put in
 * the status under test directly in the database (the way there, through the payment engine,
 * is tested with the worker).
 */
async function createOrder(
  payload: Payload,
  {
    type = 'PHYSICAL',
    status = 'PROCESSING_DELIVERY',
    extra = {},
  }: { type?: 'PHYSICAL' | 'DIGITAL'; status?: OrderStatus; extra?: Record<string, unknown> } = {},
) {
  const index = nextIndex++
  const order = await payload.create({
    collection: slugs.orders,
    data: {
      product: type === 'PHYSICAL' ? physicalId : digitalId,
      productName: type === 'PHYSICAL' ? 'Printed book' : 'PDF book',
      productType: type,
      userEmail: `buyer${index}@example.com`,
      priceAtPurchaseUSD: 30,
      bsvUsdRateAtPurchase: 41.2345,
      amountSatoshiExpected: 72_754_410,
      paymentAddress: `1TestAddress${String(index).padStart(8, '0')}`,
      addressIndex: index,
      gatewayExpiresAt: new Date(Date.now() + 20 * 60_000).toISOString(),
      ...(type === 'PHYSICAL'
        ? {
            shippingName: 'Ada Buyer',
            shippingAddressLine1: '1 Main St',
            shippingCity: 'Rome',
            shippingPostalCode: '00100',
            shippingCountry: 'Italy',
          }
        : {}),
      ...extra,
    } as never,
  })
  if (status === order.status) return order
  await payload.db.updateOne({
    collection: slugs.orders,
    where: { id: { equals: order.id } },
    data: { status },
  })
  return { ...order, status }
}

describe('GET /api/admin/orders', () => {
  it('pages the orders from 1, newest first', async () => {
    const created: string[] = []
    for (let i = 0; i < 23; i++)
      created.push((await createOrder(shop.payload, { status: 'AWAITING_PAYMENT' })).id)

    const first = await admin.request('GET', '/orders')
    expect(first.status).toBe(200)
    const page1 = (await first.json()) as {
      orders: AdminOrder[]
      totalPages: number
      currentPage: number
    }
    expect(page1.currentPage).toBe(1)
    expect(page1.totalPages).toBe(2)
    expect(page1.orders).toHaveLength(20)
    expect(page1.orders[0]!.id).toBe(created.at(-1))

    const page2 = (await (await admin.request('GET', '/orders?page=2')).json()) as typeof page1
    expect(page2.currentPage).toBe(2)
    expect(page2.orders.map((o) => o.id)).toEqual(created.slice(0, 3).reverse())
    const all = [...page1.orders, ...page2.orders].map((o) => o.id)
    expect(new Set(all).size).toBe(23)
  })

  it.each(['0', '-1', 'abc', '1.5'])('refuses page=%s', async (page) => {
    const response = await admin.request('GET', `/orders?page=${page}`)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Page must be a whole number from 1.' })
  })
})

describe('GET /api/admin/orders/:id', () => {
  it('returns every field of the spec with the payments received and the flags', async () => {
    const order = await createOrder(shop.payload, {
      status: 'PROCESSING_DELIVERY',
      extra: {
        paymentTxid: 'b'.repeat(64),
        tokenAddress: '1Ordinal',
        amountSatoshiReceived: 80_000_000,
        flags: { paidOver: true },
      },
    })
    for (const [txid, satoshis, confirmed] of [
      ['a'.repeat(64), 40_000_000, true],
      ['b'.repeat(64), 40_000_000, false],
    ] as const) {
      await shop.payload.create({
        collection: slugs.payments,
        data: {
          outpoint: `${txid}:0`,
          order: order.id,
          txid,
          vout: 0,
          satoshis,
          address: order.paymentAddress,
          seenAt: new Date().toISOString(),
          ...(confirmed ? { confirmedAt: new Date().toISOString(), blockHeight: 100 } : {}),
        },
      })
    }
    const response = await admin.request('GET', `/orders/${order.id}`)
    expect(response.status).toBe(200)
    const body = (await response.json()) as AdminOrder
    for (const field of [
      'id',
      'createdAt',
      'userEmail',
      'product',
      'priceAtPurchaseUSD',
      'amountSatoshiExpected',
      'bsvUsdRateAtPurchase',
      'paymentTxid',
      'tokenAddress',
      'status',
      'shippingTrackingNumber',
      'shippingName',
      'shippingAddressLine1',
      'shippingAddressLine2',
      'shippingCity',
      'shippingStateProvince',
      'shippingPostalCode',
      'shippingCountry',
      'shippingPhone',
    ]) {
      expect(body, field).toHaveProperty(field)
    }
    expect(body).toMatchObject({
      id: order.id,
      product: { name: 'Printed book', type: 'PHYSICAL' },
      priceAtPurchaseUSD: 30,
      bsvUsdRateAtPurchase: 41.2345,
      tokenAddress: '1Ordinal',
      shippingAddressLine2: null,
      amountSatoshiReceived: 80_000_000,
      flags: { paidLate: false, paidPartial: false, paidOver: true },
    })
    expect(body.payments).toEqual([
      expect.objectContaining({
        txid: 'a'.repeat(64),
        satoshis: 40_000_000,
        confirmedAt: expect.any(String),
        late: false,
      }),
      expect.objectContaining({ txid: 'b'.repeat(64), satoshis: 40_000_000, confirmedAt: null }),
    ])
  })

  it("answers each payment's doubt, ARC's word and the merkle proof: verified or refused", async () => {
    const order = await createOrder(shop.payload, { type: 'DIGITAL', status: 'PAYMENT_DETECTED' })
    const payment = (txid: string, data: Record<string, unknown>) =>
      shop.payload.create({
        collection: slugs.payments,
        data: {
          outpoint: `${txid}:0`,
          order: order.id,
          txid,
          vout: 0,
          satoshis: 24_000_000,
          address: order.paymentAddress,
          // The page lists payments by when they were seen: one second apart, in this order.
          seenAt: new Date(Date.UTC(2026, 11, 7, 9, 0, txid.charCodeAt(0))).toISOString(),
          ...data,
        },
      })
    const at = (seconds: number) => new Date(Date.UTC(2026, 11, 7, 10, 0, seconds)).toISOString()
    await payment('c'.repeat(64), {
      doubtedAt: at(1),
      doubtReason: 'ARC reports a competing spend of an input (DOUBLE_SPEND_ATTEMPTED)',
      arcStatus: 'DOUBLE_SPEND_ATTEMPTED',
      arcCheckedAt: at(2),
    })
    await payment('d'.repeat(64), {
      confirmedAt: at(3),
      blockHeight: 812_345,
      arcStatus: 'MINED',
      arcCheckedAt: at(4),
      proofVerifiedAt: at(5),
      proofBlockHeight: 812_345,
      proofBlockHash: '0'.repeat(16) + 'a'.repeat(48),
      proofMerkleRoot: 'e'.repeat(64),
      proofMerklePath: 'fe'.repeat(60),
      proofSources: 'path from ARC; header from WhatsOnChain',
    })
    await payment('f'.repeat(64), {
      confirmedAt: at(6),
      blockHeight: 812_346,
      proofProblem: 'The path leads to a root that is not the header’s merkle root.',
    })

    const response = await admin.request('GET', `/orders/${order.id}`)
    expect(response.status).toBe(200)
    const { payments } = (await response.json()) as { payments: Record<string, unknown>[] }
    const nothingMore = {
      blockHeight: null,
      doubtedAt: null,
      doubtReason: null,
      arcStatus: null,
      arcCheckedAt: null,
      proof: null,
      proofProblem: null,
    }
    expect(payments).toEqual([
      expect.objectContaining({
        ...nothingMore,
        txid: 'c'.repeat(64),
        doubtedAt: at(1),
        doubtReason: 'ARC reports a competing spend of an input (DOUBLE_SPEND_ATTEMPTED)',
        arcStatus: 'DOUBLE_SPEND_ATTEMPTED',
        arcCheckedAt: at(2),
      }),
      expect.objectContaining({
        ...nothingMore,
        txid: 'd'.repeat(64),
        blockHeight: 812_345,
        arcStatus: 'MINED',
        arcCheckedAt: at(4),
        proof: {
          verifiedAt: at(5),
          blockHeight: 812_345,
          blockHash: '0'.repeat(16) + 'a'.repeat(48),
          merkleRoot: 'e'.repeat(64),
          merklePath: 'fe'.repeat(60),
          sources: 'path from ARC; header from WhatsOnChain',
        },
      }),
      expect.objectContaining({
        ...nothingMore,
        txid: 'f'.repeat(64),
        blockHeight: 812_346,
        proofProblem: 'The path leads to a root that is not the header’s merkle root.',
      }),
    ])
  })

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid'])(
    'answers 404 for %s',
    async (id) => {
      const response = await admin.request('GET', `/orders/${id}`)
      expect(response.status).toBe(404)
      expect(await response.json()).toEqual({ error: 'Order not found.' })
    },
  )
})

describe('POST /api/admin/orders/:id/ship', () => {
  it('marks a physical order in PROCESSING_DELIVERY as shipped and returns it', async () => {
    const order = await createOrder(shop.payload)
    const response = await admin.request('POST', `/orders/${order.id}/ship`, {
      json: { trackingNumber: '  RR123456789IT ' },
    })
    expect(response.status).toBe(200)
    const body = (await response.json()) as AdminOrder
    expect(body).toMatchObject({
      id: order.id,
      status: 'SHIPPED',
      shippingTrackingNumber: 'RR123456789IT',
      shippedAt: expect.any(String),
    })
    const stored = await shop.payload.findByID({ collection: slugs.orders, id: order.id })
    expect(stored.status).toBe('SHIPPED')
    // The buyer's "shipped" e-mail waits in the outbox.
    const outbox = await shop.payload.find({
      collection: slugs.emailOutbox,
      where: { key: { equals: `order-shipped:${order.id}` } },
    })
    expect(outbox.docs).toHaveLength(1)

    const again = await admin.request('POST', `/orders/${order.id}/ship`, {
      json: { trackingNumber: 'OTHER' },
    })
    expect(again.status).toBe(409)
    expect(
      (await shop.payload.findByID({ collection: slugs.orders, id: order.id }))
        .shippingTrackingNumber,
    ).toBe('RR123456789IT')
  })

  it.each([undefined, '', '   ', 42])('refuses the tracking number %j', async (trackingNumber) => {
    const order = await createOrder(shop.payload)
    const response = await admin.request('POST', `/orders/${order.id}/ship`, {
      json: { trackingNumber },
    })
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: 'Tracking number cannot be empty.' })
    expect((await shop.payload.findByID({ collection: slugs.orders, id: order.id })).status).toBe(
      'PROCESSING_DELIVERY',
    )
  })

  it('refuses a digital order', async () => {
    const order = await createOrder(shop.payload, { type: 'DIGITAL', status: 'PAID' })
    const response = await admin.request('POST', `/orders/${order.id}/ship`, {
      json: { trackingNumber: 'T1' },
    })
    expect(response.status).toBe(409)
    expect(((await response.json()) as { error: string }).error).toMatch(/physical/)
  })

  it.each([
    'AWAITING_PAYMENT',
    'PAYMENT_DETECTED',
    'UNDERPAID',
    'PAID',
    'EXPIRED',
    'ERROR_FULFILLMENT',
  ] as const)('refuses a physical order in %s with the reason', async (status) => {
    const order = await createOrder(shop.payload, { status })
    const response = await admin.request('POST', `/orders/${order.id}/ship`, {
      json: { trackingNumber: 'T1' },
    })
    expect(response.status).toBe(409)
    expect(((await response.json()) as { error: string }).error).toBe(
      `Order is ${status}: only an order in PROCESSING_DELIVERY can be marked as shipped.`,
    )
    expect((await shop.payload.findByID({ collection: slugs.orders, id: order.id })).status).toBe(
      status,
    )
  })

  it('answers 404 for an unknown order', async () => {
    const response = await admin.request(
      'POST',
      '/orders/00000000-0000-4000-8000-000000000000/ship',
      { json: { trackingNumber: 'T1' } },
    )
    expect(response.status).toBe(404)
  })

  it('lets exactly one of two simultaneous requests ship the order', async () => {
    const order = await createOrder(shop.payload)
    const results = await Promise.all(
      ['A1', 'B2'].map((trackingNumber) =>
        admin.request('POST', `/orders/${order.id}/ship`, { json: { trackingNumber } }),
      ),
    )
    expect(results.map((r) => r.status).sort()).toEqual([200, 409])
  })
})

describe('GET /api/admin/stats', () => {
  it('tells the highest address index used and the orders waiting for the owner', async () => {
    const response = await admin.request('GET', '/stats')
    expect(response.status).toBe(200)
    const stats = (await response.json()) as {
      highestAddressIndexUsed: number
      ordersAwaitingShipment: number
      ordersWithPaymentExceptions: number
    }
    expect(stats.highestAddressIndexUsed).toBe(nextIndex - 1)
    expect(stats.ordersAwaitingShipment).toBeGreaterThan(0)
    expect(stats.ordersWithPaymentExceptions).toBe(1)
  })
})
