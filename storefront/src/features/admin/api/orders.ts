import { adminRequest, isNoResponse } from './admin-client'
import { NO_RESPONSE } from './products'

export type AdminPayment = {
  txid: string
  vout: number
  satoshis: number
  seenAt: string
  confirmedAt: string | null
  late: boolean
}

/** The admin order of spec section 3, plus the payments and flags an owner settles. */
export type AdminOrder = {
  id: string
  createdAt: string
  userEmail: string
  product: { id: number | string | null; name: string; type: 'DIGITAL' | 'PHYSICAL' }
  priceAtPurchaseUSD: number
  amountSatoshiExpected: number
  amountSatoshiReceived: number
  bsvUsdRateAtPurchase: number
  paymentTxid: string | null
  paymentAddress: string
  addressIndex: number
  gatewayExpiresAt: string
  tokenAddress: string | null
  status: string
  shippingTrackingNumber: string | null
  shippedAt: string | null
  shippingName: string | null
  shippingAddressLine1: string | null
  shippingAddressLine2: string | null
  shippingCity: string | null
  shippingStateProvince: string | null
  shippingPostalCode: string | null
  shippingCountry: string | null
  shippingPhone: string | null
  flags: { paidLate: boolean; paidPartial: boolean; paidOver: boolean }
  payments?: AdminPayment[]
}

export type OrdersPage = { orders: AdminOrder[]; totalPages: number; currentPage: number }

export async function getOrders(page = 1): Promise<OrdersPage> {
  let data: unknown
  try {
    data = await adminRequest<unknown>('GET', `/orders?page=${page}`, 'Failed to fetch orders.')
  } catch (error) {
    if (isNoResponse(error)) throw new Error(NO_RESPONSE, { cause: error })
    throw error
  }
  if (!data || typeof data !== 'object' || !Array.isArray((data as OrdersPage).orders)) {
    throw new Error('Received invalid data from the server.')
  }
  return data as OrdersPage
}

export async function getOrder(id: string): Promise<AdminOrder> {
  try {
    return await adminRequest<AdminOrder>(
      'GET',
      `/orders/${encodeURIComponent(id)}`,
      `Failed to fetch order ${id}.`,
    )
  } catch (error) {
    if (isNoResponse(error)) throw new Error(NO_RESPONSE, { cause: error })
    throw error
  }
}

export const markShipped = (id: string, trackingNumber: string) =>
  adminRequest<AdminOrder>(
    'POST',
    `/orders/${encodeURIComponent(id)}/ship`,
    'Failed to mark order as shipped.',
    { trackingNumber },
  )

/** 'PROCESSING_DELIVERY' -> 'processing delivery' (spec section 4). */
export const statusLabel = (status: string) => status.toLowerCase().replace(/_/g, ' ')

export type StatusTone = 'error' | 'shipped' | 'success' | 'warning' | 'neutral'

/** Error red, shipped blue, underpaid/detected orange, paid/processing green, others grey. */
export function statusTone(status: string): StatusTone {
  const s = status.toLowerCase()
  if (s.includes('error')) return 'error'
  if (s.includes('shipped')) return 'shipped'
  if (s.includes('underpaid') || s.includes('detected')) return 'warning'
  if (s.includes('paid') || s.includes('processing')) return 'success'
  return 'neutral'
}
