import type { Payload } from 'payload'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

import { slugs } from '../../src/collections/slugs'
import {
  clearOrderAttention,
  failureReason,
  markOrderAttention,
} from '../../src/operations/orders/orderAttention'
import type { Order, Staff } from '../../src/payload-types'
import { createStaff, signedIn, type AdminClient } from './client'
import { createOrder, productIdOf } from '../support/shopApi'
import type { TestShop } from '../support/testShop'
import { startTestShop } from '../support/testShop'

/**
 * An order the payment worker could not process carries a notice for the owner (`attention`,
 * `attentionSince`): on the order's page, in the orders list's "attention" filter and in the
 * dashboard's count. Only the engine writes it, and writing it changes nothing else.
 */

const OWNER = { email: 'attention-admin@example.com', password: 'Quartz-ledger-owner-7193' }

let shop: TestShop
let payload: Payload
let admin: AdminClient
let owner: Staff
let pdfId: number

beforeAll(async () => {
  shop = await startTestShop({ env: { ORDER_CREATE_RATE_LIMIT: '1000' } })
  payload = shop.payload
  owner = (await createStaff({ payload, ...OWNER, role: 'admin' })) as Staff
  admin = await signedIn(shop.url, OWNER.email, OWNER.password)
  pdfId = await productIdOf(payload, 'DIGITAL')
})

afterAll(async () => {
  await shop?.close()
})

const order = async (id: string) =>
  (await payload.findByID({ collection: slugs.orders, id, depth: 0 })) as Order
const json = async (path: string) => {
  const response = await admin.request('GET', path)
  expect(response.status, path).toBe(200)
  return (await response.json()) as Record<string, unknown>
}
const listed = async () =>
  ((await json('/orders?exception=attention')).orders as { id: string }[]).map((o) => o.id)
/** The notice's own fields, and the time of the row's last write. */
const NOTICE = ['attention', 'attentionSince', 'updatedAt']
const without = (o: Order, keys: string[]) =>
  Object.fromEntries(Object.entries(o).filter(([key]) => !keys.includes(key)))

describe("an order's notice that it needs attention", () => {
  it('is shown on the order, in the list filter and in the dashboard, and writes nothing else', async () => {
    const id = await createOrder(shop, pdfId)
    const other = await createOrder(shop, pdfId)
    // A history entry and a new status, which the notice must leave as they are.
    const cancelled = await admin.request('POST', `/orders/${id}/cancel`, {
      json: { note: 'The buyer asked us to cancel.' },
    })
    expect(cancelled.status).toBe(200)
    const before = await order(id)
    expect(await listed()).toEqual([])
    expect((await json('/stats')).ordersNeedingAttention).toBe(0)

    const first = new Date('2026-11-20T10:00:00.000Z')
    await markOrderAttention({ payload, orderId: id, reason: 'Could not settle: one', at: first })
    await markOrderAttention({
      payload,
      orderId: id,
      reason: 'Could not settle: two',
      at: new Date('2026-11-20T11:00:00.000Z'),
    })
    const detail = await json(`/orders/${id}`)
    expect(detail).toMatchObject({
      attention: 'Could not settle: two',
      // Since the first failure of the run.
      attentionSince: first.toISOString(),
      status: 'CANCELLED',
    })
    expect(await listed()).toEqual([id])
    expect((await json(`/orders/${other}`)).attention).toBeNull()
    expect((await json('/stats')).ordersNeedingAttention).toBe(1)
    const marked = await order(id)
    expect(without(marked, NOTICE)).toEqual(without(before, NOTICE))

    await clearOrderAttention({ payload, orderId: id })
    expect(await json(`/orders/${id}`)).toMatchObject({ attention: null, attentionSince: null })
    expect(await listed()).toEqual([])
    expect((await json('/stats')).ordersNeedingAttention).toBe(0)
    expect(without(await order(id), NOTICE)).toEqual(without(before, NOTICE))
  })

  it('is not written by an admin through the collection: only the engine sets it', async () => {
    const id = await createOrder(shop, pdfId)
    await payload.update({
      collection: slugs.orders,
      id,
      data: { attention: 'forged', attentionSince: new Date().toISOString() },
      user: owner,
      overrideAccess: false,
    })
    const after = await order(id)
    expect(after.attention ?? null).toBeNull()
    expect(after.attentionSince ?? null).toBeNull()
  })

  it("tells the database's own reason, not the driver's statement", () => {
    const refused = new Error('SQLITE_CONSTRAINT: this order row is refused')
    const wrapped = new Error('Failed query: update "orders" set "status" = ? params: x@y.z', {
      cause: refused,
    })
    expect(failureReason(wrapped)).toBe('SQLITE_CONSTRAINT: this order row is refused')
    expect(failureReason(new Error('The following field is invalid: User Email'))).toBe(
      'The following field is invalid: User Email',
    )
    expect(failureReason('plain')).toBe('plain')
  })
})
