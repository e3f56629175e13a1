import { firstProblem, orderActionSchema, ownerMayTake, OWNER_ORDER_ACTIONS } from '@shop/domain'
import type { OrderStatus, OwnerOrderAction } from '@shop/domain'
import type { Payload } from 'payload'

import type { ExpectedStatusContext } from '../../collections/Orders/hooks/enforceStatusTransition'
import type { OrderHistoryContext } from '../../collections/Orders/hooks/recordHistory'
import { slugs } from '../../collections/slugs'
import { awaitDelivery } from '../fulfilment/fulfilmentJob'
import type { Order } from '../../payload-types'
import type { AdminOrderChange } from './getAdminOrder'
import { changedOrder, findOrderDoc, ORDER_NOT_FOUND } from './getAdminOrder'

const DONE: Record<OwnerOrderAction, string> = {
  'mark-paid': 'marked as paid',
  cancel: 'cancelled',
  refund: 'given a refund',
  settle: 'settled',
}

/**
 * One of the owner's actions on an order (mark paid, cancel, record a refund, settle), through
 * the Orders collection: the transition table checks the move, the status seam takes or releases
 * the copy and queues the delivery, and the history records who, when and why. Conditional on
 * the status the owner saw, so of two admins acting at once exactly one succeeds (the other gets
 * 409). An order marked paid is answered once the payment worker has delivered it (within its
 * next pass), so the owner sees what "mark as paid" says: the order delivered.
 */
export async function takeOrderAction({
  payload,
  id,
  action,
  note,
  txid,
  by,
}: {
  payload: Payload
  id: string
  action: OwnerOrderAction
  note: string
  txid?: string
  /** The signed-in admin's e-mail. */
  by: string
}): Promise<AdminOrderChange> {
  const parsed = orderActionSchema.safeParse({ action, note, txid })
  if (!parsed.success) return { ok: false, status: 400, error: firstProblem(parsed.error) }
  const why = parsed.data.note
  const refundTxid = parsed.data.txid

  const order = await findOrderDoc({ payload, id })
  if (!order) return ORDER_NOT_FOUND
  const from = order.status as OrderStatus
  if (!ownerMayTake(action, from))
    return { ok: false, status: 409, error: `Order is ${from}: it cannot be ${DONE[action]}.` }

  const to = OWNER_ORDER_ACTIONS[action].to as OrderStatus | null
  const data: Partial<Order> = { settledAt: new Date().toISOString() }
  if (to) data.status = to
  const context: OrderHistoryContext & ExpectedStatusContext = {
    expectedStatus: { status: from },
    historyEntry: {
      action,
      by,
      note: why,
      ...(action === 'refund' && refundTxid ? { txid: refundTxid } : {}),
    },
  }
  try {
    // By id: a refusal of the Orders hooks (no copy left, a change made meanwhile) throws and
    // rolls the whole change back.
    await payload.update({ collection: slugs.orders, id: order.id, data, depth: 0, context })
  } catch (error) {
    // By shape, not class: the refusal may come from another copy of Payload's errors.
    const { status, message } = error as { status?: unknown; message?: unknown }
    if (status === 409 && typeof message === 'string')
      return { ok: false, status: 409, error: message }
    throw error
  }
  if (to === 'PAID') await awaitDelivery({ payload, orderId: order.id })
  return changedOrder({ payload, id: order.id })
}

/**
 * The owner asks the payment worker to look at this order's address now (a payment the buyer
 * says was sent, after the order left the worker's fast watch). The worker clears the request
 * after its look; the history records it.
 */
export async function requestOrderRecheck({
  payload,
  id,
  by,
}: {
  payload: Payload
  id: string
  by: string
}): Promise<AdminOrderChange> {
  const order = await findOrderDoc({ payload, id })
  if (!order) return ORDER_NOT_FOUND
  const context: OrderHistoryContext = { historyEntry: { action: 'recheck', by } }
  await payload.update({
    collection: slugs.orders,
    id: order.id,
    data: { recheckRequestedAt: new Date().toISOString() },
    depth: 0,
    context,
  })
  return changedOrder({ payload, id: order.id })
}
