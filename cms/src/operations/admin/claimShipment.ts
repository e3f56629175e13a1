import type { Client } from '@libsql/client'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'

type MongoOrders = {
  updateOne: (
    filter: Record<string, unknown>,
    update: Record<string, unknown>,
  ) => Promise<{ modifiedCount: number }>
}

/**
 * PROCESSING_DELIVERY -> SHIPPED as one conditional write, so of two admins shipping the same
 * order at once exactly one succeeds (Payload's update by `where` reads, then writes). The
 * caller has checked the move with the domain's assertTransition first.
 */
export async function claimShipment({
  payload,
  orderId,
  trackingNumber,
}: {
  payload: Payload
  orderId: string
  trackingNumber: string
}): Promise<boolean> {
  const at = new Date().toISOString()
  if (payload.db.name === 'mongoose') {
    const orders = (payload.db as unknown as { collections: Record<string, MongoOrders> })
      .collections[slugs.orders]!
    const result = await orders.updateOne(
      { _id: orderId, status: 'PROCESSING_DELIVERY' },
      {
        $set: {
          status: 'SHIPPED',
          shippingTrackingNumber: trackingNumber,
          shippedAt: new Date(at),
          updatedAt: new Date(at),
        },
      },
    )
    return result.modifiedCount === 1
  }
  const client = (payload.db as unknown as { client?: Client }).client
  if (!client) throw new Error('The SQLite client is not connected.')
  const result = await client.execute({
    sql: `UPDATE orders SET status = 'SHIPPED', shipping_tracking_number = ?, shipped_at = ?, updated_at = ?
          WHERE id = ? AND status = 'PROCESSING_DELIVERY'`,
    args: [trackingNumber, at, at, orderId],
  })
  return result.rowsAffected === 1
}
