import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Order } from '../../payload-types'

/** The orders of these ids, read in one query, by id (an id with no order is absent). */
export async function ordersById(
  payload: Payload,
  ids: readonly string[],
): Promise<Map<string, Order>> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const found = await payload.find({
    collection: slugs.orders,
    where: { id: { in: unique } },
    depth: 0,
    limit: 0,
    pagination: false,
  })
  return new Map((found.docs as Order[]).map((order) => [order.id, order]))
}
