import type { Payload } from 'payload'
import { assertTransition, ForbiddenTransitionError } from '@shop/domain'

import { queueOrderShippedEmail } from '../email/queueOrderShippedEmail'
import type { AdminOrderDetail } from './adminOrder'
import { claimShipment } from './claimShipment'
import { findOrderDoc, withPayments } from './getAdminOrder'

export const TRACKING_NUMBER_MAX_LENGTH = 120

export type MarkShippedResult =
  { ok: true; order: AdminOrderDetail } | { ok: false; status: 400 | 404 | 409; error: string }

/**
 * PROCESSING_DELIVERY -> SHIPPED for a physical order, with its tracking number. The move goes
 * through the domain's transition table; the write is conditional on the status still being
 * PROCESSING_DELIVERY, so two admins shipping at once cannot both succeed. The buyer is told by
 * e-mail.
 */
export async function markOrderShipped({
  payload,
  id,
  trackingNumber,
}: {
  payload: Payload
  id: string
  trackingNumber: string
}): Promise<MarkShippedResult> {
  const tracking = trackingNumber.trim()
  if (!tracking) return { ok: false, status: 400, error: 'Tracking number cannot be empty.' }
  if (tracking.length > TRACKING_NUMBER_MAX_LENGTH) {
    return {
      ok: false,
      status: 400,
      error: `Tracking number must be at most ${TRACKING_NUMBER_MAX_LENGTH} characters.`,
    }
  }
  const order = await findOrderDoc({ payload, id })
  if (!order) return { ok: false, status: 404, error: 'Order not found.' }
  if (order.productType !== 'PHYSICAL') {
    return {
      ok: false,
      status: 409,
      error: 'Only orders of a physical book can be marked as shipped.',
    }
  }
  try {
    assertTransition(order.status, 'SHIPPED')
  } catch (error) {
    if (!(error instanceof ForbiddenTransitionError)) throw error
    return {
      ok: false,
      status: 409,
      error: `Order is ${order.status}: only an order in PROCESSING_DELIVERY can be marked as shipped.`,
    }
  }

  if (!(await claimShipment({ payload, orderId: order.id, trackingNumber: tracking }))) {
    return {
      ok: false,
      status: 409,
      error: 'Order changed meanwhile: it is no longer waiting for delivery.',
    }
  }
  const updated = await findOrderDoc({ payload, id: order.id })
  if (!updated) return { ok: false, status: 404, error: 'Order not found.' }
  const detail = await withPayments({ payload, order: updated })
  // The buyer's e-mail goes through the outbox (sent by the worker; queuing twice sends once).
  await queueOrderShippedEmail({ payload, orderId: order.id })
  return { ok: true, order: detail }
}
