import {
  assertTransition,
  ForbiddenTransitionError,
  INITIAL_ORDER_STATUS,
  isOrderStatus,
} from '@shop/domain'
import type { OrderStatus } from '@shop/domain'
import { APIError, type CollectionBeforeChangeHook } from 'payload'

import type { Order } from '../../../payload-types'

/**
 * The transition table of `domain/` for every door (the spec's API, the worker, /cms, the Local
 * API): a new order starts in the initial status; a change must be in the table, and a repeat of
 * the current status is a no-op. Stamps paidAt and shippedAt on the move that sets them.
 */
/**
 * Set by the owner's actions: the status the owner saw, so a change made meanwhile wins. Checked
 * once (`checked`): what the change causes in the same request (delivery) starts from the new
 * status. (Payload copies the context between nested operations, so the marker is on the object.)
 */
export type ExpectedStatusContext = { expectedStatus?: { status: OrderStatus; checked?: boolean } }

export const enforceStatusTransition: CollectionBeforeChangeHook<Order> = ({
  data,
  originalDoc,
  operation,
  context,
}) => {
  if (operation === 'create') {
    if (data.status !== undefined && data.status !== INITIAL_ORDER_STATUS)
      throw new APIError(`A new order starts as ${INITIAL_ORDER_STATUS}.`, 400)
    return data
  }
  const from = originalDoc?.status as OrderStatus | undefined
  const expected = (context as ExpectedStatusContext).expectedStatus
  if (expected && !expected.checked) {
    expected.checked = true
    if (from !== expected.status)
      throw new APIError(
        `Order changed meanwhile: it is no longer ${expected.status}.`,
        409,
        undefined,
        true,
      )
  }
  const to = data.status ?? from
  if (!from || !isOrderStatus(to)) throw new APIError(`Unknown order status: ${String(to)}.`, 400)
  let move: boolean
  try {
    move = assertTransition(from, to)
  } catch (error) {
    if (error instanceof ForbiddenTransitionError) throw new APIError(error.message, 409)
    throw error
  }
  if (!move) return data
  const now = new Date().toISOString()
  if (to === 'PAID' && !originalDoc?.paidAt) data.paidAt = now
  if (to === 'SHIPPED' && !data.shippedAt) data.shippedAt = now
  return data
}
