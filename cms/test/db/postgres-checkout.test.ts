import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { engineOf, postgres } from '../../src/db/engine'
import { api, createOrder, createPrintedBook, getOrder, SHIPPING } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * Checkout through the real express app on a real PostgreSQL server (a throwaway cluster):
 * `POST /api/orders/create` stores the order, its address index and its copy in one transaction
 * (decision 014's shape, storeNewOrder.ts), and the last copy sells once however many buyers ask.
 */
let shop: TestShop

beforeAll(async () => {
  shop = await startTestShop({
    engine: 'postgres',
    // Many buyers at once from one loopback address.
    env: { ORDER_CREATE_RATE_LIMIT: '100000' },
  })
})

afterAll(async () => {
  await shop?.close()
})

const stockOf = async (id: number) =>
  Number(
    (await shop.payload.findByID({ collection: slugs.products, id, depth: 0 })).currentStock ?? 0,
  )

describe('checkout on PostgreSQL', () => {
  it('runs the shop on the PostgreSQL adapter', async () => {
    expect(engineOf(shop.payload)).toBe('postgres')
    const { rows } = await postgres(shop.payload).query('SELECT version() AS v')
    expect(String(rows[0]?.v)).toMatch(/^PostgreSQL \d+/)
  })

  it('stores an order with its copy and a fresh address, and reads it back', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'PG one', stock: 2, priceEUR: 12 })
    const first = await createOrder(shop, book, { userEmail: 'Reader@Example.com' })
    const second = await createOrder(shop, book)
    const [a, b] = [await getOrder(shop.payload, first), await getOrder(shop.payload, second)]
    expect(a).toMatchObject({
      status: 'AWAITING_PAYMENT',
      userEmail: 'reader@example.com',
      productName: 'PG one',
      productType: 'PHYSICAL',
      shippingName: SHIPPING.shippingName,
      shippingCountry: 'United Kingdom',
      amountSatoshiReceived: 0,
      flags: { paidLate: false, paidPartial: false, paidOver: false, paidInvalid: false },
    })
    expect(a.stockReleasedAt ?? null).toBeNull()
    expect(Number(a.amountSatoshiExpected)).toBeGreaterThan(0)
    expect(Number(b.addressIndex)).toBe(Number(a.addressIndex) + 1)
    expect(b.paymentAddress).not.toBe(a.paymentAddress)
    expect(await stockOf(book)).toBe(0)

    // The public order endpoint reads it through Payload too.
    const info = await api(shop, `/api/orders/${first}/info`)
    expect(info.status).toBe(200)
    expect(JSON.stringify(info.body)).toContain(String(a.paymentAddress))
    const status = await api(shop, `/api/orders/${first}/payment-status`)
    expect(status.status).toBe(200)
    expect(status.body).toMatchObject({ status: 'AWAITING_PAYMENT' })

    const soldOut = await api(shop, '/api/orders/create', {
      body: { productId: book, userEmail: 'late@example.com', tokenAddress: null, ...SHIPPING },
    })
    expect(soldOut.status).toBe(409)
  })

  it('sells the last copy exactly once to many buyers at once', async () => {
    const book = await createPrintedBook(shop.payload, { name: 'PG last', stock: 1 })
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        api(shop, '/api/orders/create', {
          body: {
            productId: book,
            userEmail: `rush${i}@example.com`,
            tokenAddress: null,
            ...SHIPPING,
          },
        }),
      ),
    )
    const sold = answers.filter((a) => a.status === 201)
    expect(sold).toHaveLength(1)
    // Everyone else is told it is gone (409) or, if the admission gate was full, to come back.
    for (const answer of answers.filter((a) => a.status !== 201))
      expect([409, 503]).toContain(answer.status)
    expect(await stockOf(book)).toBe(0)
    const orders = await shop.payload.find({
      collection: slugs.orders,
      where: { product: { equals: book } },
      depth: 0,
    })
    expect(orders.docs.map((o) => o.id)).toEqual([sold[0]!.body.orderId])
  })
})
