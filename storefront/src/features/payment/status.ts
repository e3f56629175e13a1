import { FINAL_PAY_SCREEN_STATUSES, isOrderStatus } from '@shop/domain'
import type { OrderStatus } from '@shop/domain'

/**
 * Statuses at which the countdown reaching 0 does not expire the invoice locally (spec section
 * 4), and PAYMENT_DETECTED: a payment seen in time is on time whatever the buyer's clock says,
 * so the screen waits for the server.
 */
const KEEPS_STATUS_AT_ZERO: readonly OrderStatus[] = [
  'PAID',
  'PROCESSING_DELIVERY',
  'EXPIRED',
  'CANCELLED',
  'UNDERPAID',
  'PAYMENT_DETECTED',
]

export const toOrderStatus = (value: unknown): OrderStatus =>
  isOrderStatus(value) ? value : 'AWAITING_PAYMENT'

export const isFinalPayStatus = (status: OrderStatus) => FINAL_PAY_SCREEN_STATUSES.includes(status)

export const isPaidStatus = (status: OrderStatus) =>
  status === 'PAID' || status === 'PROCESSING_DELIVERY'

export const expiresLocallyAtZero = (status: OrderStatus) => !KEEPS_STATUS_AT_ZERO.includes(status)

/** The payment URI of the QR code (decision 009): BIP21 with the `sv` marker and the amount. */
export function paymentUri(address: string, amountBSV: string): string {
  return `bitcoin:${address}?sv&amount=${amountBSV}`
}
