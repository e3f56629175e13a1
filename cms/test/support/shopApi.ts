import { expect } from 'vitest'
import type { Payload } from 'payload'

import { slugs } from '../../src/collections/slugs'
import type { Order, Payment } from '../../src/payload-types'
import type { TestShop } from './testShop'

/** A shop's public API, its products, orders and payments, as the tests reach them. */

export async function api(
  shop: TestShop,
  path: string,
  init: { method?: string; body?: unknown } = {},
) {
  const response = await fetch(`${shop.url}${path}`, {
    method: init.method ?? (init.body !== undefined ? 'POST' : 'GET'),
    headers: init.body !== undefined ? { 'content-type': 'application/json' } : undefined,
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // not JSON (download pages)
  }
  return {
    status: response.status,
    body: body as Record<string, unknown>,
    headers: response.headers,
  }
}

export async function productIdOf(payload: Payload, type: 'DIGITAL' | 'PHYSICAL'): Promise<number> {
  const found = await payload.find({
    collection: slugs.products,
    where: { type: { equals: type } },
    limit: 1,
    sort: 'createdAt',
  })
  return found.docs[0]!.id as number
}

/** A printed book for sale, `stock` copies of it: its product id. */
export async function createPrintedBook(
  payload: Payload,
  { name, stock, priceEUR = 10 }: { name: string; stock: number; priceEUR?: number },
): Promise<number> {
  const book = await payload.create({
    collection: slugs.products,
    data: {
      name,
      type: 'PHYSICAL',
      priceEUR,
      totalStock: stock,
      currentStock: stock,
      isAvailable: true,
    },
  })
  return book.id as number
}

export const SHIPPING = {
  shippingName: 'Ada Lovelace',
  shippingAddressLine1: '1 Analytical Street',
  shippingAddressLine2: '',
  shippingCity: 'London',
  shippingStateProvince: '',
  shippingPostalCode: 'N1 1AA',
  shippingCountry: 'United Kingdom',
  shippingPhone: '',
}

export async function createOrder(
  shop: TestShop,
  productId: number,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const { status, body } = await api(shop, '/api/orders/create', {
    body: { productId, userEmail: 'buyer@example.com', tokenAddress: null, ...SHIPPING, ...extra },
  })
  expect(body).toMatchObject({ success: true })
  expect(status).toBe(201)
  return String(body.orderId)
}

export async function getOrder(payload: Payload, id: string): Promise<Order> {
  return (await payload.findByID({ collection: slugs.orders, id, depth: 0 })) as Order
}

/** Waits until `check` returns a truthy value (polling, no fixed sleeps). */
export async function waitFor<T>(
  check: () => Promise<T | undefined | null | false>,
  { timeoutMs = 10_000, intervalMs = 25 } = {},
): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() - started > timeoutMs)
      throw new Error(`condition not met within ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}

export const waitForStatus = (payload: Payload, id: string, status: string, timeoutMs = 10_000) =>
  waitFor(
    async () => {
      const order = await getOrder(payload, id)
      return order.status === status ? order : null
    },
    { timeoutMs },
  )

/** The payments recorded for an order. */
export const paymentsOf = async (payload: Payload, orderId: string) =>
  (
    await payload.find({
      collection: slugs.payments,
      where: { order: { equals: orderId } },
      depth: 0,
    })
  ).docs as Payment[]
