import fs from 'node:fs'
import path from 'node:path'

import { assertTransition } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { DigitalFile, Order, Product } from '../../payload-types'
import { queueOrderPaidEmail } from '../email/queueOrderEmails'
import { issueDownloadToken } from './downloadTokens'

type Log = Pick<Payload['logger'], 'info' | 'warn' | 'error'>

/** The stored file of a digital product, or null when it is missing on disk. */
export async function digitalFilePathOf({
  payload,
  productId,
  filesDir,
}: {
  payload: Payload
  productId: string | number
  filesDir: string
}): Promise<{ filePath: string; filename: string; mimeType: string } | null> {
  const product = (await payload
    .findByID({ collection: slugs.products, id: productId, depth: 1 })
    .catch(() => null)) as Product | null
  const file = product?.digitalFile as DigitalFile | number | null | undefined
  if (!file || typeof file !== 'object' || !file.filename) return null
  const filePath = path.join(filesDir, path.basename(file.filename))
  if (!fs.existsSync(filePath)) return null
  return { filePath, filename: file.filename, mimeType: file.mimeType ?? 'application/pdf' }
}

/**
 * Delivers a PAID order, once: a PDF gets its download token (reused if a crashed run made it),
 * a printed book goes to PROCESSING_DELIVERY; a missing file sends the order to
 * ERROR_FULFILLMENT. fulfilledAt is written last, so a crash before it repeats only idempotent
 * steps.
 */
export async function fulfilOrder({
  payload,
  order,
  filesDir,
  tokenTtlHours,
  tokenMaxUses,
  logger,
}: {
  payload: Payload
  order: Order
  filesDir: string
  tokenTtlHours: number
  tokenMaxUses: number
  logger: Log
}): Promise<Order> {
  if (order.status !== 'PAID' || order.fulfilledAt) return order
  const productId = typeof order.product === 'object' ? order.product.id : order.product
  const now = new Date().toISOString()

  if (order.productType === 'PHYSICAL') {
    assertTransition('PAID', 'PROCESSING_DELIVERY')
    const updated = (await payload.update({
      collection: slugs.orders,
      id: order.id,
      data: { status: 'PROCESSING_DELIVERY', fulfilledAt: now },
    })) as Order
    logger.info(
      { orderId: order.id, from: 'PAID', to: 'PROCESSING_DELIVERY' },
      'order status changed',
    )
    await queueOrderPaidEmail({ payload, orderId: order.id })
    return updated
  }

  const file = await digitalFilePathOf({ payload, productId, filesDir })
  if (!file) {
    assertTransition('PAID', 'ERROR_FULFILLMENT')
    const updated = (await payload.update({
      collection: slugs.orders,
      id: order.id,
      data: {
        status: 'ERROR_FULFILLMENT',
        fulfillmentError: 'The book file is missing: upload it, then set the order back to PAID.',
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
  })
  await queueOrderPaidEmail({ payload, orderId: order.id })
  const updated = (await payload.update({
    collection: slugs.orders,
    id: order.id,
    data: { downloadToken: token.id, fulfilledAt: now, fulfillmentError: null },
  })) as Order
  logger.info({ orderId: order.id, status: 'PAID' }, 'order fulfilled: download token issued')
  return updated
}
