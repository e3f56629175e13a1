import type { CollectionAfterChangeHook } from 'payload'

import { env } from '../../../config/runtime'
import { queueOrderEmail } from '../../../email/queueOrderEmails'
import type { Order } from '../../../payload-types'

/**
 * What the request creating an order says of its "order created" e-mail: the limit to keep
 * (EMAILS_PER_ADDRESS_PER_HOUR when absent), or `false` for none.
 */
export type NewOrderContext = { createdEmail?: { perAddressPerHour: number } | false }

/**
 * The buyer's "order created" e-mail for an order created through Payload (the Local API, and
 * checkout on MongoDB), queued with the create's own `req`, so it commits or rolls back with the
 * order: at most EMAILS_PER_ADDRESS_PER_HOUR to one address an hour. Checkout on SQLite and
 * PostgreSQL stores its orders without Payload's create (decisions 014, 022) and queues the same
 * rows in its own write (`db/orderCreatedEmails.ts`). A new order always waits for its payment
 * (`enforceStatusTransition`); one created already past its expiry is not asked to pay.
 */
export const queueCreatedEmail: CollectionAfterChangeHook<Order> = async ({
  doc,
  operation,
  req,
  context,
}) => {
  if (operation !== 'create') return doc
  const { createdEmail } = context as NewOrderContext
  if (createdEmail === false) return doc
  if (Date.parse(doc.gatewayExpiresAt) <= Date.now()) return doc
  await queueOrderEmail({
    payload: req.payload,
    req,
    orderId: doc.id,
    kind: 'order-created',
    to: doc.userEmail,
    newOrder: true,
    createdPerAddressPerHour: createdEmail?.perAddressPerHour ?? env.emailsPerAddressPerHour,
  })
  return doc
}
