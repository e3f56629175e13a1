import { formatBSV, formatEUR } from '@shop/domain'
import type { Payload } from 'payload'

import { slugs } from '../../collections/slugs'
import type { Order, Payment } from '../../payload-types'
import type { AdminOrder } from './adminOrder'
import { toAdminOrder } from './adminOrder'
import { shippingLines } from '../orders/shippingLines'
import { csvRow } from './csv'
import type { OrderFilters } from './orderFilters'
import { orderWhere } from './orderFilters'

export const ADMIN_ORDERS_PAGE_SIZE = 20

export type AdminOrdersPage = { orders: AdminOrder[]; totalPages: number; currentPage: number }

const NO_FILTERS: OrderFilters = { status: [], q: undefined, exception: undefined }

/**
 * One page of orders, newest first; pages count from 1 (spec sections 3 and 9), narrowed by
 * the filters (status, search, exception) when given.
 */
export async function listAdminOrders({
  payload,
  page,
  filters = NO_FILTERS,
}: {
  payload: Payload
  page: number
  filters?: OrderFilters
}): Promise<AdminOrdersPage> {
  const result = await payload.find({
    collection: slugs.orders,
    where: await orderWhere(payload, filters),
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

const CSV_HEADER = [
  'id',
  'created',
  'status',
  'product',
  'EUR',
  'BSV',
  'satoshis',
  'e-mail',
  'txids',
  'shipping',
  'tracking',
  'shipping EUR',
]

/**
 * Every order the filters select, newest first, as CSV: one row per order with its price in EUR
 * and BSV (and the shipping part of it), the satoshis it received, every txid that paid it, and where it ships.
 */
export async function exportAdminOrdersCsv({
  payload,
  filters = NO_FILTERS,
}: {
  payload: Payload
  filters?: OrderFilters
}): Promise<string> {
  const where = await orderWhere(payload, filters)
  const lines = [csvRow(CSV_HEADER)]
  for (let page = 1; ; page += 1) {
    const batch = await payload.find({
      collection: slugs.orders,
      where,
      sort: '-createdAt',
      page,
      limit: 500,
      depth: 0,
      joins: false,
    })
    const orders = batch.docs as Order[]
    const payments = orders.length
      ? ((
          await payload.find({
            collection: slugs.payments,
            where: { order: { in: orders.map((o) => o.id) } },
            select: { order: true, txid: true },
            depth: 0,
            limit: 0,
            pagination: false,
          })
        ).docs as Pick<Payment, 'order' | 'txid'>[])
      : []
    const txidsOf = new Map<string, Set<string>>()
    for (const p of payments) {
      const id = (typeof p.order === 'object' ? p.order.id : p.order) as string
      txidsOf.set(id, (txidsOf.get(id) ?? new Set()).add(p.txid))
    }
    for (const order of orders) {
      const shipping = shippingLines(order).join(', ')
      lines.push(
        csvRow([
          order.id,
          order.createdAt,
          order.status,
          order.productName,
          formatEUR(order.priceAtPurchaseUSD),
          formatBSV(order.amountSatoshiExpected),
          order.amountSatoshiReceived ?? 0,
          order.userEmail,
          [...(txidsOf.get(order.id) ?? [])].join(' '),
          shipping,
          order.shippingTrackingNumber ?? '',
          // The part of EUR that paid for shipping a printed book (0.00: included).
          order.productType === 'PHYSICAL' ? formatEUR(order.shippingCostEUR ?? 0) : '',
        ]),
      )
    }
    if (!batch.hasNextPage) break
  }
  return `${lines.join('\n')}\n`
}
