import { ORDER_STATUS_GROUPS } from '@shop/domain'
import type { AdminSales } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import { salesBuckets } from './salesBuckets'

/**
 * Sales of paid orders (paid, being delivered, shipped, failed fulfilment) by the day they were
 * paid: in EUR, the price paid (shipping included), and in BSV, what the chain brought in.
 */
export async function getAdminSales({
  payload,
  now = new Date(),
}: {
  payload: Payload
  now?: Date
}): Promise<AdminSales> {
  const paid = await payload.find({
    collection: slugs.orders,
    where: { status: { in: [...ORDER_STATUS_GROUPS.paid] } },
    select: {
      paidAt: true,
      createdAt: true,
      priceAtPurchaseUSD: true,
      amountSatoshiReceived: true,
    },
    depth: 0,
    joins: false,
    pagination: false,
  })
  return salesBuckets(
    paid.docs.map((order) => ({
      paidAt: new Date(order.paidAt ?? order.createdAt),
      eur: order.priceAtPurchaseUSD,
      satoshis: order.amountSatoshiReceived ?? 0,
    })),
    now,
  )
}
