import type { AdminOrder, AdminOrderDetail, OwnerOrderAction } from '@shop/domain'

import { adminRequest, withNetworkFallback } from '@/lib/admin/admin-client'

export type OrdersPage = { orders: AdminOrder[]; totalPages: number; currentPage: number }

/** The exceptions the orders list filters by (GET /api/admin/orders?exception=). */
export const ORDER_EXCEPTIONS = [
  ['needs-settling', 'Needs settling'],
  ['late', 'Paid late'],
  ['partial', 'Paid short'],
  ['over', 'Paid over'],
  ['invalid', 'Invalid payment'],
  ['attention', 'Needs attention'],
] as const

/** The list's filters from the page's URL: page, status, q and exception, in that order. */
export function ordersQueryOf(params: URLSearchParams, { withPage = true } = {}): string {
  const query = new URLSearchParams()
  const page = params.get('page')
  if (withPage && page && page !== '1') query.set('page', page)
  for (const status of params.getAll('status')) query.append('status', status)
  for (const key of ['q', 'exception']) {
    const value = params.get(key)?.trim()
    if (value) query.set(key, value)
  }
  return query.toString()
}

export async function getOrders(query = ''): Promise<OrdersPage> {
  const data = await withNetworkFallback(() =>
    adminRequest<unknown>('GET', `/orders${query ? `?${query}` : ''}`, 'Failed to fetch orders.'),
  )
  if (!data || typeof data !== 'object' || !Array.isArray((data as OrdersPage).orders)) {
    throw new Error('Received invalid data from the server.')
  }
  return data as OrdersPage
}

export async function getOrder(id: string): Promise<AdminOrderDetail> {
  return withNetworkFallback(() =>
    adminRequest<AdminOrderDetail>(
      'GET',
      `/orders/${encodeURIComponent(id)}`,
      `Failed to fetch order ${id}.`,
    ),
  )
}

export const correctTracking = (id: string, trackingNumber: string, note: string) =>
  adminRequest<AdminOrderDetail>(
    'POST',
    `/orders/${encodeURIComponent(id)}/tracking`,
    'Failed to correct the tracking number.',
    { trackingNumber, note },
  )

export const markShipped = (id: string, trackingNumber: string) =>
  adminRequest<AdminOrderDetail>(
    'POST',
    `/orders/${encodeURIComponent(id)}/ship`,
    'Failed to mark order as shipped.',
    { trackingNumber },
  )

/** Records one of the owner's settling actions (mark-paid, cancel, refund, settle). */
export const takeOrderAction = (
  id: string,
  action: OwnerOrderAction,
  body: { note: string; txid?: string },
) =>
  adminRequest<AdminOrderDetail>(
    'POST',
    `/orders/${encodeURIComponent(id)}/${action}`,
    'Failed to update the order.',
    body,
  )

/** E-mails the buyer of a paid PDF order a fresh download link (recorded in the history). */
export const sendNewDownloadLink = (id: string) =>
  adminRequest<AdminOrderDetail>(
    'POST',
    `/orders/${encodeURIComponent(id)}/download-link`,
    'Failed to send a new download link.',
    {},
  )

/** Asks the payment worker to look at the order's address now. */
export const requestRecheck = (id: string) =>
  adminRequest<AdminOrderDetail>(
    'POST',
    `/orders/${encodeURIComponent(id)}/recheck`,
    'Failed to ask for a check.',
    {},
  )

/** 'PROCESSING_DELIVERY' -> 'processing delivery' (spec section 4). */
export const statusLabel = (status: string) => status.toLowerCase().replace(/_/g, ' ')

export type StatusTone = 'error' | 'shipped' | 'success' | 'warning' | 'neutral'

/** Error red, shipped blue, underpaid/detected orange, paid/processing green, others grey. */
export function statusTone(status: string): StatusTone {
  const s = status.toLowerCase()
  if (s.includes('error') || s.includes('cancelled')) return 'error'
  if (s.includes('shipped')) return 'shipped'
  if (s.includes('underpaid') || s.includes('detected')) return 'warning'
  if (s.includes('paid') || s.includes('processing')) return 'success'
  return 'neutral'
}

export type { AdminOrder, AdminOrderDetail, AdminOrderEvent, AdminPayment } from '@shop/domain'
