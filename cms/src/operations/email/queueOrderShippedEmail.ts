import type { Payload } from 'payload'

import { queueOrderEmail } from './queueOrderEmails'

/**
 * For the admin's "mark shipped": queues the buyer's shipped e-mail (with the tracking number
 * stored on the order). Call it after the order is saved as SHIPPED; calling it twice sends once.
 */
export function queueOrderShippedEmail({
  payload,
  orderId,
}: {
  payload: Payload
  orderId: string
}): Promise<boolean> {
  return queueOrderEmail({ payload, orderId, kind: 'order-shipped' })
}
