import type { Payload, PayloadRequest } from 'payload'

import { queueOrderEmail } from './queueOrderEmails'

/**
 * The buyer's shipped e-mail (with the tracking number stored on the order), queued by the
 * Orders status seam when an order becomes SHIPPED; calling it twice sends once.
 */
export function queueOrderShippedEmail({
  payload,
  orderId,
  req,
}: {
  payload: Payload
  orderId: string
  req?: PayloadRequest
}): Promise<boolean> {
  return queueOrderEmail({ payload, orderId, kind: 'order-shipped', req })
}
