import { queueOrderEmail } from './queueOrderEmails'
import type { OrderEmailTarget } from './queueOrderEmails'

/**
 * The buyer's shipped e-mail (with the tracking number stored on the order), queued by the
 * Orders status seam when an order becomes SHIPPED; calling it twice sends once.
 */
export function queueOrderShippedEmail({
  payload,
  orderId,
  req,
}: OrderEmailTarget): Promise<boolean> {
  return queueOrderEmail({ payload, orderId, kind: 'order-shipped', req })
}
