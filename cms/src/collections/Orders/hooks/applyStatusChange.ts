import { isOrderStatusIn } from '@shop/domain'
import { APIError } from 'payload'
import type { CollectionAfterChangeHook, PayloadRequest } from 'payload'

import { env } from '../../../config/runtime'
import { releaseReservedStock, reserveStockForOrder } from '../../../db/stock'
import { queueOrderEmail, queueOrderPaidEmail } from '../../../email/queueOrderEmails'
import { queueOrderShippedEmail } from '../../../email/queueOrderShippedEmail'
import { queueFulfilment } from '../../../operations/fulfilment/fulfilmentJob'
import { queueWebhook } from '../../../operations/webhooks/webhooks'
import { faultPoint } from '../../../faults'
import type { Order } from '../../../payload-types'

const FLAGS = ['paidLate', 'paidPartial', 'paidOver', 'paidInvalid'] as const

/**
 * The owner's alerts (OWNER_EMAIL) and webhook deliveries (WEBHOOK_URL), queued with the change:
 * an order the payment engine marks paid, and each payment exception when it is first flagged
 * (one per order and kind of exception). Nothing for what is not set.
 */
async function alertOwner({
  doc,
  previousDoc,
  req,
}: {
  doc: Order
  previousDoc: Order
  req: PayloadRequest
}) {
  const to = env.ownerEmail
  const webhook = env.webhook
  if (!to && !webhook) return
  const { payload } = req
  if (doc.status === 'PAID' && isOrderStatusIn('open', previousDoc.status)) {
    if (to) await queueOrderEmail({ payload, req, orderId: doc.id, kind: 'owner-paid', to })
    if (webhook) await queueWebhook({ payload, req, event: 'OrderPaid', order: doc })
  }
  for (const flag of FLAGS) {
    if (!doc.flags?.[flag] || previousDoc.flags?.[flag]) continue
    if (to)
      await queueOrderEmail({
        payload,
        req,
        orderId: doc.id,
        kind: 'owner-settle',
        to,
        keySuffix: flag,
      })
    if (webhook)
      await queueWebhook({
        payload,
        req,
        event: 'OrderNeedsSettling',
        order: doc,
        keySuffix: flag,
      })
  }
}

export const NO_COPY_LEFT =
  'No copy of this product is left for sale: add stock first, or cancel the order and refund the buyer.'

/**
 * The one seam for what an order's status change causes, whichever door changed it: the copy
 * goes back to the shelf when it expires or is cancelled; an order that holds no copy (the owner
 * marking an expired one paid) takes one again, or the change is refused; a PAID order's
 * delivery (a download token, or PROCESSING_DELIVERY for a printed book) is queued as a job that
 * the payment worker runs (operations/fulfilment/fulfilmentJob.ts); the buyer's paid and shipped
 * e-mails and the owner's alerts are queued. Everything runs with the change's own `req`, so it
 * commits or rolls back with the status: a change to PAID leaves exactly one delivery queued,
 * a refused one none.
 */
export const applyStatusChange: CollectionAfterChangeHook<Order> = async ({
  doc,
  previousDoc,
  operation,
  req,
}) => {
  if (operation !== 'update' || !previousDoc) return doc
  const { payload } = req
  await alertOwner({ doc, previousDoc, req })
  if (previousDoc.status === doc.status) return doc
  const productId = typeof doc.product === 'object' ? doc.product.id : doc.product
  switch (doc.status) {
    case 'EXPIRED':
    case 'CANCELLED': {
      const released = await releaseReservedStock({ payload, req, orderId: doc.id, productId })
      if (released) payload.logger.info({ orderId: doc.id, productId }, 'reserved copy released')
      return doc
    }
    case 'PAID':
      if (previousDoc.stockReleasedAt) {
        // Rolls the whole change back (one transaction) when no copy is left.
        if (!(await reserveStockForOrder({ payload, req, orderId: doc.id, productId })))
          throw new APIError(NO_COPY_LEFT, 409, undefined, true)
        payload.logger.info({ orderId: doc.id, productId }, 'copy taken again for a paid order')
      }
      // A crash here leaves neither the status nor the job.
      faultPoint('before-fulfil', doc.id)
      await queueFulfilment({ req, orderId: doc.id })
      return doc
    case 'PROCESSING_DELIVERY':
      await queueOrderPaidEmail({ payload, req, orderId: doc.id })
      return doc
    case 'SHIPPED':
      await queueOrderShippedEmail({ payload, req, orderId: doc.id })
      return doc
    default:
      return doc
  }
}
