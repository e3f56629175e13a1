import { FINAL_PAY_SCREEN_STATUSES, isOrderStatus } from '@shop/domain'
import type { OrderStatus } from '@shop/domain'

/** Statuses at which the countdown reaching 0 does not expire the invoice locally (spec section 4). */
const KEEPS_STATUS_AT_ZERO: readonly OrderStatus[] = [
  'PAID',
  'PROCESSING_DELIVERY',
  'EXPIRED',
  'UNDERPAID',
]

export const toOrderStatus = (value: unknown): OrderStatus =>
  isOrderStatus(value) ? value : 'AWAITING_PAYMENT'

export const isFinalPayStatus = (status: OrderStatus) => FINAL_PAY_SCREEN_STATUSES.includes(status)

export const isPaidStatus = (status: OrderStatus) =>
  status === 'PAID' || status === 'PROCESSING_DELIVERY'

export const expiresLocallyAtZero = (status: OrderStatus) => !KEEPS_STATUS_AT_ZERO.includes(status)

/** The payment URI of the QR code; without an amount when only a remainder is due. */
export function paymentUri(address: string, amountBSV?: string): string {
  return amountBSV ? `bitcoin:${address}?sv&amount=${amountBSV}` : `bitcoin:${address}?sv`
}
