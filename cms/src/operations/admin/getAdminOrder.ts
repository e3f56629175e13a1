import type { Payload } from 'payload'
import { NotFound } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Order } from '../../payload-types'
import type { AdminOrderDetail } from './adminOrder'
import { toAdminOrder, toAdminOrderHistory, toAdminPayment } from './adminOrder'

/** Order ids are random UUIDs: anything else is not an order (checked before querying). */
export function isOrderId(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
}

export async function findOrderDoc({
  payload,
  id,
}: {
  payload: Payload
  id: string
}): Promise<Order | null> {
  if (!isOrderId(id)) return null
  try {
    return await payload.findByID({ collection: slugs.orders, id, depth: 0, joins: false })
  } catch (error) {
    if (error instanceof NotFound) return null
    throw error
  }
}

/** One order with every payment recorded for it, oldest first, and its history. */
export async function getAdminOrder({
  payload,
  id,
}: {
  payload: Payload
  id: string
}): Promise<AdminOrderDetail | null> {
  const order = await findOrderDoc({ payload, id })
  if (!order) return null
  return withPayments({ payload, order })
}

/** Reads of an order and its payments tried before the last read is answered as it stands. */
const CONSISTENT_READS = 5

/**
 * The order with its payments, as one moment of the database: the worker records a payment and
 * the order's totals and flags in one transaction, but the order and its payments are two reads,
 * and a commit between them would show a payment beside the totals from before it. So the order
 * is read again after its payments; when it changed, both are read anew.
 */
export async function withPayments({
  payload,
  order,
}: {
  payload: Payload
  order: Order
}): Promise<AdminOrderDetail> {
  let current = order
  for (let read = 1; ; read += 1) {
    const payments = await paymentsOfOrder(payload, current.id)
    const again = await findOrderDoc({ payload, id: current.id })
    if (!again || again.updatedAt === current.updatedAt || read >= CONSISTENT_READS)
      return {
        ...toAdminOrder(again ?? current),
        payments: payments.docs.map(toAdminPayment),
        history: toAdminOrderHistory(again ?? current),
      }
    current = again
  }
}

function paymentsOfOrder(payload: Payload, orderId: string) {
  return payload.find({
    collection: slugs.payments,
    where: { order: { equals: orderId } },
    sort: 'seenAt',
    limit: 0,
    pagination: false,
    depth: 0,
  })
}

/** What an admin's change to an order answers: the order as it now stands, or why not. */
export type AdminOrderChange =
  { ok: true; order: AdminOrderDetail } | { ok: false; status: 400 | 404 | 409; error: string }

export const ORDER_NOT_FOUND = { ok: false, status: 404, error: 'Order not found.' } as const

/** Ends an admin's change to order `id`: the order read again, with its payments and history. */
export async function changedOrder({
  payload,
  id,
}: {
  payload: Payload
  id: string
}): Promise<AdminOrderChange> {
  const updated = await findOrderDoc({ payload, id })
  if (!updated) return ORDER_NOT_FOUND
  return { ok: true, order: await withPayments({ payload, order: updated }) }
}
