import { commitTransaction, createLocalReq, initTransaction } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import { postgres } from '../../src/db/engine'
import type { NewOrderFields } from '../../src/db/storeNewOrder'
import { storeNewOrder } from '../../src/db/storeNewOrder'
import type { AdminClient } from '../admin/client'
import { cmsApi, shopWithOwnerAtEveryDoor } from '../support/cmsApi'
import { orderFields } from '../support/postgresRaces'
import { createPrintedBook, getOrder, waitFor } from '../support/shopApi'
import type { TestShop } from '../support/testShop'

/**
 * Payload's update reads an order and writes the whole row back. On PostgreSQL (read committed)
 * the Orders collection takes the row before that read (cms/src/db/orderRowLock.ts, decision
 * 025), so a change another writer commits while the update waits is read and kept, through
 * every door that updates orders: the Local API (the worker, the jobs), the owner's /api/admin
 * and Payload's REST under /cms/api (what /cms's forms send). On SQLite a write transaction
 * holds the one writer lock from its start (decision 008): `cms/test/admin/orders.test.ts`
 * checks the owners' race there.
 */

const OWNER = { email: 'row-owner@example.com', password: 'Quartz-ledger-owner-7193' }

let shop: TestShop
let admin: AdminClient
let cmsCookie: string

beforeAll(async () => {
  ;({ shop, admin, cmsCookie } = await shopWithOwnerAtEveryDoor(OWNER, { engine: 'postgres' }))
})

afterAll(async () => {
  await shop?.close()
})

let orderNumber = 0
/** A printed book's order as checkout stores it, in `status`. */
async function orderIn(status: string) {
  orderNumber += 1
  const book = await createPrintedBook(shop.payload, { name: `Row ${orderNumber}`, stock: 2 })
  const fields: NewOrderFields = orderFields(book, {
    userEmail: `row${orderNumber}@example.com`,
    clientKey: `row-client-${orderNumber}`,
  })
  const stored = await storeNewOrder({
    payload: shop.payload,
    fields,
    addressFor: (i) => `row-address-${i}`,
  })
  if (!stored || !('orderId' in stored)) throw new Error('the order was not stored')
  await postgres(shop.payload).query('UPDATE orders SET status = $1 WHERE id = $2', [
    status,
    stored.orderId,
  ])
  return stored.orderId
}

/** Some session of this database waits for a row another holds. */
const someoneWaitsForARow = () =>
  waitFor(
    async () =>
      (
        await postgres(shop.payload).query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0]!.waiting === 1,
  )

/**
 * Another writer's change of the order (the worker's notice to the owner), held open in its
 * transaction while `update` starts, committed once the update waits for the row.
 */
async function whileAnotherWriterHoldsTheRow<T>(id: string, update: () => Promise<T>) {
  const other = await postgres(shop.payload).connect()
  try {
    await other.query('BEGIN')
    await other.query('UPDATE orders SET attention = $1 WHERE id = $2', [
      'written by the other writer',
      id,
    ])
    const updating = update()
    await someoneWaitsForARow()
    await other.query('COMMIT')
    return await updating
  } finally {
    other.release()
  }
}

describe("an order's row changed by two writers at once on PostgreSQL", () => {
  it("keeps the other writer's change: the Local API", async () => {
    const id = await orderIn('AWAITING_PAYMENT')
    const expiresAt = new Date(Date.now() + 60 * 60_000).toISOString()
    await whileAnotherWriterHoldsTheRow(id, () =>
      shop.payload.update({
        collection: slugs.orders,
        id,
        data: { gatewayExpiresAt: expiresAt },
        depth: 0,
      }),
    )
    const order = await getOrder(shop.payload, id)
    expect(order.attention).toBe('written by the other writer')
    expect(order.gatewayExpiresAt).toBe(expiresAt)
  })

  it("keeps the other writer's change: the owner ships through /api/admin", async () => {
    const id = await orderIn('PROCESSING_DELIVERY')
    const response = await whileAnotherWriterHoldsTheRow(id, () =>
      admin.request('POST', `/orders/${id}/ship`, { json: { trackingNumber: 'ADMIN-1' } }),
    )
    expect(response.status).toBe(200)
    const order = await getOrder(shop.payload, id)
    expect(order.status).toBe('SHIPPED')
    expect(order.shippingTrackingNumber).toBe('ADMIN-1')
    expect(order.attention).toBe('written by the other writer')
  })

  it("keeps the other writer's change: an edit through /cms/api", async () => {
    const id = await orderIn('PROCESSING_DELIVERY')
    const response = await whileAnotherWriterHoldsTheRow(id, () =>
      cmsApi(shop, { cookie: cmsCookie }, 'PATCH', `/orders/${id}`, {
        shippingCity: 'Leeds',
      }),
    )
    expect(response.status, response.text).toBe(200)
    const order = await getOrder(shop.payload, id)
    expect(order.shippingCity).toBe('Leeds')
    expect(order.attention).toBe('written by the other writer')
  })

  it('lets one of two owners ship an order: the second, having waited for the first, is told it changed', async () => {
    const id = await orderIn('PROCESSING_DELIVERY')
    // The first owner's claim, held open in its transaction.
    const first = await createLocalReq({}, shop.payload)
    expect(await initTransaction(first)).toBe(true)
    const claimed = await shop.payload.update({
      collection: slugs.orders,
      where: { and: [{ id: { equals: id } }, { status: { equals: 'PROCESSING_DELIVERY' } }] },
      data: { status: 'SHIPPED', shippingTrackingNumber: 'FIRST-1' },
      depth: 0,
      req: first,
    })
    expect(claimed.docs).toHaveLength(1)
    const second = admin.request('POST', `/orders/${id}/ship`, {
      json: { trackingNumber: 'SECOND-2' },
    })
    await someoneWaitsForARow()
    await commitTransaction(first)
    const response = await second
    expect(response.status).toBe(409)
    expect(await response.json()).toMatchObject({
      error: 'Order changed meanwhile: it is no longer waiting for delivery.',
    })
    const order = await getOrder(shop.payload, id)
    expect(order.status).toBe('SHIPPED')
    expect(order.shippingTrackingNumber).toBe('FIRST-1')
  })
})
