import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { AdminOrder } from './adminOrder'
import { toAdminOrder } from './adminOrder'

export const ADMIN_ORDERS_PAGE_SIZE = 20

export type AdminOrdersPage = { orders: AdminOrder[]; totalPages: number; currentPage: number }

/** One page of orders, newest first; pages count from 1 (spec sections 3 and 9). */
export async function listAdminOrders({
  payload,
  page,
}: {
  payload: Payload
  page: number
}): Promise<AdminOrdersPage> {
  const result = await payload.find({
    collection: slugs.orders,
    sort: '-createdAt',
    page,
    limit: ADMIN_ORDERS_PAGE_SIZE,
    depth: 0,
    joins: false,
  })
  return {
    orders: result.docs.map(toAdminOrder),
    totalPages: Math.max(1, result.totalPages),
    currentPage: page,
  }
}
