import type { OrderInfo, PaymentStatus } from '@shop/domain'
import { formatBSV, isDigital, normalizeProductType, publicProductType } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Order } from '../../payload-types'
import { downloadUrlOf } from '../fulfilment/downloadTokens'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i

export async function findOrder(payload: Payload, orderId: string): Promise<Order | null> {
  if (!UUID.test(orderId)) return null
  const found = await payload.find({
    collection: slugs.orders,
    where: { id: { equals: orderId } },
    limit: 1,
    depth: 0,
  })
  return (found.docs[0] as Order | undefined) ?? null
}

/** The pay screen's order info (spec section 3), or null for an unknown order. */
export async function getOrderInfo({
  payload,
  orderId,
}: {
  payload: Payload
  orderId: string
}): Promise<OrderInfo | null> {
  const order = await findOrder(payload, orderId)
  if (!order) return null
  return {
    currentStatus: order.status,
    txid: order.paymentTxid ?? null,
    gatewayExpiresAt: new Date(order.gatewayExpiresAt).toISOString(),
    paymentAddress: order.paymentAddress,
    amountBSV: formatBSV(order.amountSatoshiExpected),
    productName: order.productName,
    productType: publicProductType(normalizeProductType(order.productType) ?? 'DIGITAL'),
    amountReceivedBSV: formatBSV(order.amountSatoshiReceived ?? 0),
    amountDueBSV: formatBSV(amountDue(order)),
  }
}

/** Satoshis still to pay: nothing once the amount due has arrived. */
function amountDue(order: Order): number {
  return Math.max(0, order.amountSatoshiExpected - (order.amountSatoshiReceived ?? 0))
}

/**
 * The pay screen's poll. downloadUrl appears only for a PDF order that is PAID and fulfilled;
 * the order id (122 random bits) is what entitles its holder to see it.
 */
export async function getPaymentStatus({
  payload,
  orderId,
}: {
  payload: Payload
  orderId: string
}): Promise<PaymentStatus | null> {
  const order = await findOrder(payload, orderId)
  if (!order) return null
  const downloadable =
    isDigital(order.productType) && order.status === 'PAID' && Boolean(order.fulfilledAt)
  return {
    status: order.status,
    txid: order.paymentTxid ?? null,
    downloadUrl: downloadable ? await downloadUrlOf(payload, order.id) : null,
    amountDueBSV: formatBSV(amountDue(order)),
  }
}
