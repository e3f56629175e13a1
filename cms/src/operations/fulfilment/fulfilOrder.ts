import { isPhysical } from '@shop/domain'
import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../../collections/slugs'
import type { DigitalFile, Order, Product } from '../../payload-types'
import type { FileStore } from '../../storage'
import { queueOrderPaidEmail } from '../../email/queueOrderEmails'
import { issueDownloadToken } from './downloadTokens'

type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error'>

/** The stored file of a digital product, or null when it is missing from the store. */
export async function digitalFileOf({
  payload,
  productId,
  store,
  req,
}: {
  payload: Payload
  productId: string | number
  store: FileStore
  req?: PayloadRequest
}): Promise<{ filename: string; mimeType: string } | null> {
  const product = (await payload
    .findByID({ req, collection: slugs.products, id: productId, depth: 1 })
    .catch(() => null)) as Product | null
  const file = product?.digitalFile as DigitalFile | number | null | undefined
  if (!file || typeof file !== 'object' || !file.filename) return null
  if (!(await store.exists('files', file.filename))) return null
  return { filename: file.filename, mimeType: file.mimeType ?? 'application/pdf' }
}

/**
 * Delivers a PAID order, once: a PDF gets its download token (reused if a crashed run made it)
 * and the paid e-mail, a printed book goes to PROCESSING_DELIVERY (whose e-mail the Orders
 * status seam queues); a missing file sends the order to ERROR_FULFILLMENT. Only the
 * `fulfil-order` job calls it (fulfilmentJob.ts), which the Orders seam queues with the change
 * to PAID. It does nothing for an order that is not PAID or already fulfilled, and fulfilledAt
 * is written last, so a crash before it repeats only idempotent steps.
 */
export async function fulfilOrder({
  payload,
  order,
  store,
  tokenTtlHours,
  tokenMaxUses,
  logger,
  req,
  file: known,
}: {
  payload: Payload
  order: Order
  /** Where the book files live (storage/index.ts). */
  store: FileStore
  tokenTtlHours: number
  tokenMaxUses: number
  logger: Log
  req?: PayloadRequest
  /** The product's stored file when the caller looked it up already (a group of deliveries). */
  file?: { filename: string; mimeType: string } | null
}): Promise<Order> {
  if (order.status !== 'PAID' || order.fulfilledAt) return order
  const productId = typeof order.product === 'object' ? order.product.id : order.product
  const now = new Date().toISOString()

  if (isPhysical(order.productType)) {
    const updated = (await payload.update({
      req,
      collection: slugs.orders,
      id: order.id,
      depth: 0,
      data: { status: 'PROCESSING_DELIVERY', fulfilledAt: now },
    })) as Order
    logger.info(
      { orderId: order.id, from: 'PAID', to: 'PROCESSING_DELIVERY' },
      'order status changed',
    )
    return updated
  }

  const file = known === undefined ? await digitalFileOf({ payload, productId, store, req }) : known
  if (!file) {
    const updated = (await payload.update({
      req,
      collection: slugs.orders,
      id: order.id,
      depth: 0,
      data: {
        status: 'ERROR_FULFILLMENT',
        fulfillmentError: 'The book file is missing: upload it, then retry the delivery.',
      },
    })) as Order
    logger.error(
      { orderId: order.id, from: 'PAID', to: 'ERROR_FULFILLMENT' },
      'order status changed: the digital file is missing',
    )
    return updated
  }

  const token = await issueDownloadToken({
    payload,
    orderId: order.id,
    productId,
    ttlHours: tokenTtlHours,
    maxUses: tokenMaxUses,
    req,
  })
  await queueOrderPaidEmail({ payload, orderId: order.id, req, to: order.userEmail })
  const updated = (await payload.update({
    req,
    collection: slugs.orders,
    id: order.id,
    depth: 0,
    data: { downloadToken: token.id, fulfilledAt: now, fulfillmentError: null },
  })) as Order
  logger.info({ orderId: order.id, status: 'PAID' }, 'order fulfilled: download token issued')
  return updated
}
