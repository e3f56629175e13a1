import { emailSchema } from './email'
import { z } from './zod'

import type { OrderStatus } from './order-status'

/**
 * Payment contracts of the public API (spec sections 3 and 7) and the rule that derives an
 * order's status from the payments recorded for it. No I/O: the worker feeds it facts.
 */

/**
 * What a buyer reads when checkout is saturated: HTTP 503 with Retry-After, nothing taken. The
 * checkout screen waits the time given and tries again by itself.
 */
export const SHOP_BUSY =
  'Many people are ordering right now. Your order was not placed yet; please try again in a moment.'

export const createOrderRequestSchema = z.object({
  productId: z.union([z.string().trim().min(1), z.number()]).transform((v) => String(v)),
  userEmail: emailSchema,
  tokenAddress: z
    .string()
    .nullish()
    .transform((v) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null)),
  shippingName: z.string().trim().max(200).nullish(),
  shippingAddressLine1: z.string().trim().max(300).nullish(),
  shippingAddressLine2: z.string().trim().max(300).nullish(),
  shippingCity: z.string().trim().max(200).nullish(),
  shippingStateProvince: z.string().trim().max(200).nullish(),
  shippingPostalCode: z.string().trim().max(40).nullish(),
  shippingCountry: z.string().trim().max(100).nullish(),
  shippingPhone: z.string().trim().max(60).nullish(),
})
export type CreateOrderRequest = z.infer<typeof createOrderRequestSchema>

export const createOrderResponseSchema = z.union([
  z.object({ success: z.literal(true), orderId: z.string() }),
  z.object({ success: z.literal(false), error: z.string() }),
])
export type CreateOrderResponse = z.infer<typeof createOrderResponseSchema>

const bsvAmount = z.string().regex(/^\d+\.\d{8}$/)

export const orderInfoSchema = z.object({
  currentStatus: z.string(),
  txid: z.string().nullable(),
  gatewayExpiresAt: z.string(),
  paymentAddress: z.string(),
  amountBSV: bsvAmount,
  productName: z.string(),
  productType: z.enum(['PDF', 'PHYSICAL']),
  // Beyond the spec: what has arrived and what is left to pay (an underpaid order's QR asks
  // for the rest, not the whole amount again).
  amountReceivedBSV: bsvAmount,
  amountDueBSV: bsvAmount,
})
export type OrderInfo = z.infer<typeof orderInfoSchema>

export const paymentStatusSchema = z.object({
  status: z.string(),
  txid: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  /** Beyond the spec: what is left to pay now (the pay screen follows it while polling). */
  amountDueBSV: bsvAmount,
})
export type PaymentStatus = z.infer<typeof paymentStatusSchema>

export const bsvPriceSchema = z.object({ rate: z.number().positive() })
export type BsvPrice = z.infer<typeof bsvPriceSchema>

export const shopConfigSchema = z.object({
  testMode: z.boolean(),
  explorerTxUrl: z.string(),
  network: z.enum(['main', 'test']),
})
export type ShopConfig = z.infer<typeof shopConfigSchema>

export const testModePayRequestSchema = z.object({
  amountBSV: z
    .string()
    .trim()
    .regex(/^\d+(\.\d{1,8})?$/, 'amountBSV must be a BSV amount with at most 8 decimals.')
    // No more than all the coins there will ever be (and within exact integer satoshis).
    .refine((v) => Number(v) <= 21_000_000, 'amountBSV must be at most 21000000.')
    .optional(),
})
export const testModePayResponseSchema = z.object({ txid: z.string() })
export const testModeMineResponseSchema = z.object({ height: z.number().int() })

/** "0.00012345" (at most 8 decimals) to integer satoshis, without floats. */
export function bsvToSatoshis(amountBSV: string): number {
  const text = amountBSV.trim()
  if (!/^\d+(\.\d{1,8})?$/.test(text)) throw new RangeError(`Not a BSV amount: ${amountBSV}`)
  const [whole = '0', fraction = ''] = text.split('.')
  const sats = BigInt(whole) * 100_000_000n + BigInt(fraction.padEnd(8, '0'))
  if (sats > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`BSV amount too large: ${amountBSV}`)
  return Number(sats)
}

/** One payment recorded for an order (one outpoint). */
export type RecordedPayment = {
  satoshis: number
  /** Confirmations now; 0 while in the mempool. */
  confirmations: number
  /**
   * Not on time: first seen by a look at the chain that began after the deadline (expiry plus
   * the grace period), and not in a block mined before it.
   */
  late: boolean
  /** Double-spent or dropped after it was seen: shown to the owner, never counted. */
  invalid?: boolean
  /**
   * A source reports a competing spend of one of its inputs, and the chain has not settled it
   * yet: not counted while in doubt (the order leaves PAYMENT_DETECTED and its buyer is not
   * told it is safe), counted again when the doubt is lifted.
   */
  doubtful?: boolean
}

export type OrderPaymentFacts = {
  status: OrderStatus
  amountSatoshiExpected: number
  payments: readonly RecordedPayment[]
  /** The deadline: the order's expiry plus the grace period for propagation. */
  expiresAt: Date
  /**
   * When the look at the chain that found these payments began (not the worker's clock when it
   * records them): an order expires only when a look begun after the deadline found it unpaid.
   */
  now: Date
  confirmationsRequired: number
}

export type OrderPaymentState = {
  /** The status the payments and the clock call for (before fulfilment). */
  status: OrderStatus
  received: number
  flags: { paidLate: boolean; paidPartial: boolean; paidOver: boolean; paidInvalid: boolean }
}

/**
 * The BTCPay model: on-time payments count towards the amount due; the order is PAID once the
 * on-time payments with enough confirmations cover it, PAYMENT_DETECTED while they cover it
 * unconfirmed, UNDERPAID while less arrived, EXPIRED at expiry without the full amount.
 * Invalid payments (double-spent or dropped) never count: an order whose money vanished waits
 * again before its deadline and expires after it. Doubtful payments (a competing spend reported,
 * not yet settled by the chain) do not count while in doubt, and are flagged like invalid ones.
 * Late payments never revive an expired order: they are flagged. An expired order whose on-time
 * payments come back (seen again after they were judged missing or invalid, or found in a block
 * mined before the deadline) is PAID once they are confirmed; until then it stays expired and
 * flagged. Statuses past payment (PAID and later) are kept.
 */
export function deriveOrderPaymentState(facts: OrderPaymentFacts): OrderPaymentState {
  const { amountSatoshiExpected: due } = facts
  const payments = facts.payments.filter((p) => !p.invalid && !p.doubtful)
  const received = payments.reduce((sum, p) => sum + p.satoshis, 0)
  const onTime = payments.filter((p) => !p.late)
  const onTimeTotal = onTime.reduce((sum, p) => sum + p.satoshis, 0)
  const confirmedOnTime = onTime
    .filter((p) => p.confirmations >= facts.confirmationsRequired)
    .reduce((sum, p) => sum + p.satoshis, 0)

  let status: OrderStatus = facts.status
  if (status === 'AWAITING_PAYMENT' || status === 'UNDERPAID' || status === 'PAYMENT_DETECTED') {
    if (onTimeTotal >= due) status = confirmedOnTime >= due ? 'PAID' : 'PAYMENT_DETECTED'
    else if (facts.now.getTime() >= facts.expiresAt.getTime()) status = 'EXPIRED'
    else if (onTimeTotal > 0) status = 'UNDERPAID'
    // What was seen is gone (double-spent or dropped) and the deadline has not passed.
    else status = 'AWAITING_PAYMENT'
  } else if (status === 'EXPIRED' && onTimeTotal >= due && confirmedOnTime >= due) {
    // Expired while its payment was missing or judged invalid, and the chain has it after all,
    // confirmed: it was first seen before the deadline, so the order was paid in time.
    status = 'PAID'
  }

  return {
    status,
    received,
    flags: {
      // Late money, or an expired order holding the full amount on time: a payment restored
      // after its order expired without it (its copy went back) is the owner's to settle.
      paidLate: payments.some((p) => p.late) || (status === 'EXPIRED' && onTimeTotal >= due),
      // Short of the amount: the on-time money when some came in time, else all of it (a full
      // payment that only came late is "paid late", not partial).
      paidPartial: received > 0 && (onTimeTotal > 0 ? onTimeTotal : received) < due,
      paidOver: received > due,
      paidInvalid: facts.payments.some((p) => p.invalid || p.doubtful),
    },
  }
}
