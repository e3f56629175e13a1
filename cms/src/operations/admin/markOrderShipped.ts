import type { Payload } from 'payload'
import {
  assertTransition,
  ForbiddenTransitionError,
  isPhysical,
  correctTrackingSchema,
  firstProblem,
  trackingNumberSchema,
} from '@shop/domain'

import { slugs } from '../../collections/slugs'
import type { AdminOrderChange } from './getAdminOrder'
import { changedOrder, findOrderDoc, ORDER_NOT_FOUND } from './getAdminOrder'

function trackingProblem(tracking: string): string | null {
  const parsed = trackingNumberSchema.safeParse(tracking)
  return parsed.success ? null : firstProblem(parsed.error)
}

/**
 * PROCESSING_DELIVERY -> SHIPPED for a physical order, with its tracking number. The Orders
 * collection checks the move against the domain's table and queues the buyer's e-mail; this
 * operation only turns the request into that change and its refusals into answers.
 */
export async function markOrderShipped({
  payload,
  id,
  trackingNumber,
}: {
  payload: Payload
  id: string
  trackingNumber: string
}): Promise<AdminOrderChange> {
  const tracking = trackingNumber.trim()
  const invalid = trackingProblem(tracking)
  if (invalid) return { ok: false, status: 400, error: invalid }
  const order = await findOrderDoc({ payload, id })
  if (!order) return ORDER_NOT_FOUND
  if (!isPhysical(order.productType)) {
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

  // Conditional on the status still being PROCESSING_DELIVERY, in one transaction: of two admins
  // shipping at once exactly one succeeds. The Orders seam queues the buyer's e-mail.
  const claimed = await payload.update({
    collection: slugs.orders,
    where: {
      and: [{ id: { equals: order.id } }, { status: { equals: 'PROCESSING_DELIVERY' } }],
    },
    data: { status: 'SHIPPED', shippingTrackingNumber: tracking },
    depth: 0,
  })
  if (claimed.docs.length !== 1) {
    return {
      ok: false,
      status: 409,
      error: 'Order changed meanwhile: it is no longer waiting for delivery.',
    }
  }
  return changedOrder({ payload, id: order.id })
}

/**
 * Corrects the tracking number of a shipped order (a typo, a parcel sent again). The Orders
 * collection records the change in the order's history, old and new, with who and why.
 */
export async function correctTrackingNumber({
  payload,
  id,
  trackingNumber,
  note,
  by,
}: {
  payload: Payload
  id: string
  trackingNumber: string
  note: string
  by: string
}): Promise<AdminOrderChange> {
  const parsed = correctTrackingSchema.safeParse({ trackingNumber, note })
  if (!parsed.success) return { ok: false, status: 400, error: firstProblem(parsed.error) }
  const tracking = parsed.data.trackingNumber
  const order = await findOrderDoc({ payload, id })
  if (!order) return ORDER_NOT_FOUND
  if (order.status !== 'SHIPPED')
    return {
      ok: false,
      status: 409,
      error: `Order is ${order.status}: only a shipped order's tracking number can be corrected.`,
    }
  if (order.shippingTrackingNumber === tracking)
    return { ok: false, status: 400, error: 'That is already the tracking number.' }
  await payload.update({
    collection: slugs.orders,
    id: order.id,
    data: { shippingTrackingNumber: tracking },
    depth: 0,
    context: { historyEntry: { action: 'tracking', by, note: parsed.data.note || undefined } },
  })
  return changedOrder({ payload, id: order.id })
}
