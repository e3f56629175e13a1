import { api } from '@/lib/api-client'

/** Order info for the pay screen (spec section 3). */
export type OrderInfo = {
  currentStatus: string
  txid: string | null
  gatewayExpiresAt: string
  paymentAddress: string
  amountBSV: string
  productName: string
  productType: 'PDF' | 'PHYSICAL'
  /** Beyond the spec: what has arrived and what is left to pay. */
  amountReceivedBSV?: string
  amountDueBSV?: string
}

export function getOrderInfo(orderId: string): Promise<OrderInfo> {
  return api.get<OrderInfo>(
    `/api/orders/${encodeURIComponent(orderId)}/info`,
    'Failed to fetch order details for payment.',
  )
}
