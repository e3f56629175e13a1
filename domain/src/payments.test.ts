import { describe, expect, it } from 'vitest'

import type { OrderStatus } from './order-status'
import {
  ORDER_STATUSES,
  assertTransition,
  canTransition,
  ForbiddenTransitionError,
} from './order-status'
import { eurToSatoshis, formatBSV } from './money'
import {
  bsvToSatoshis,
  createOrderRequestSchema,
  deriveOrderPaymentState,
  testModePayRequestSchema,
} from './payments'

const ALLOWED: [OrderStatus, OrderStatus][] = [
  ['AWAITING_PAYMENT', 'PAYMENT_DETECTED'],
  ['AWAITING_PAYMENT', 'UNDERPAID'],
  ['AWAITING_PAYMENT', 'PAID'],
  ['AWAITING_PAYMENT', 'EXPIRED'],
  ['UNDERPAID', 'AWAITING_PAYMENT'],
  ['UNDERPAID', 'PAYMENT_DETECTED'],
  ['UNDERPAID', 'PAID'],
  ['UNDERPAID', 'EXPIRED'],
  ['PAYMENT_DETECTED', 'PAID'],
  ['PAYMENT_DETECTED', 'AWAITING_PAYMENT'],
  ['PAYMENT_DETECTED', 'UNDERPAID'],
  ['PAYMENT_DETECTED', 'EXPIRED'],
  ['PAID', 'PROCESSING_DELIVERY'],
  ['PAID', 'ERROR_FULFILLMENT'],
  ['PROCESSING_DELIVERY', 'SHIPPED'],
  ['ERROR_FULFILLMENT', 'PAID'],
  // The owner's settling actions.
  ['AWAITING_PAYMENT', 'CANCELLED'],
  ['UNDERPAID', 'CANCELLED'],
  ['PAYMENT_DETECTED', 'CANCELLED'],
  ['PROCESSING_DELIVERY', 'CANCELLED'],
  ['EXPIRED', 'PAID'],
  ['EXPIRED', 'CANCELLED'],
  ['ERROR_FULFILLMENT', 'CANCELLED'],
]
const isAllowed = (from: OrderStatus, to: OrderStatus) =>
  ALLOWED.some(([f, t]) => f === from && t === to)

describe('the order transition table', () => {
  const pairs = ORDER_STATUSES.flatMap((from) =>
    ORDER_STATUSES.filter((to) => to !== from).map((to) => [from, to] as const),
  )

  it.each(pairs.filter(([f, t]) => isAllowed(f, t)))('allows %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(true)
    expect(assertTransition(from, to)).toBe(true)
  })

  it.each(pairs.filter(([f, t]) => !isAllowed(f, t)))('forbids %s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(false)
    expect(() => assertTransition(from, to)).toThrow(ForbiddenTransitionError)
  })

  it.each([...ORDER_STATUSES])('treats %s -> itself as an idempotent no-op', (status) => {
    expect(assertTransition(status, status)).toBe(false)
  })

  it('covers exactly the listed moves', () => {
    expect(pairs.filter(([f, t]) => canTransition(f, t))).toHaveLength(ALLOWED.length)
  })
})

describe('satoshi math', () => {
  it('rounds up so the shop is never short', () => {
    expect(eurToSatoshis('14.90', 40)).toBe(37_250_000)
    expect(eurToSatoshis('0.01', 3)).toBe(333_334) // 333_333.33... rounds up
    expect(eurToSatoshis('1', 100_000_000)).toBe(1)
    expect(eurToSatoshis('0.01', 1e12)).toBe(1) // far below a satoshi: still at least 1
    expect(eurToSatoshis('0', 40)).toBe(0)
  })
  it('refuses unusable rates and amounts', () => {
    expect(() => eurToSatoshis('1', 0)).toThrow(RangeError)
    expect(() => eurToSatoshis('1', Number.NaN)).toThrow(RangeError)
    expect(() => eurToSatoshis('1.001', 40)).toThrow(RangeError)
    expect(() => eurToSatoshis('-1', 40)).toThrow(RangeError)
  })
  it('formats with exactly 8 decimals and parses back without floats', () => {
    expect(formatBSV(1)).toBe('0.00000001')
    expect(formatBSV(37_250_000)).toBe('0.37250000')
    expect(formatBSV(2_100_000_000_000_000)).toBe('21000000.00000000')
    expect(bsvToSatoshis('0.1')).toBe(10_000_000)
    expect(bsvToSatoshis('0.00000001')).toBe(1)
    expect(bsvToSatoshis(formatBSV(123_456_789))).toBe(123_456_789)
    expect(() => bsvToSatoshis('0.000000001')).toThrow(RangeError)
    expect(() => bsvToSatoshis('1e-8')).toThrow(RangeError)
  })
})

describe('deriving an order status from its payments', () => {
  const base = {
    status: 'AWAITING_PAYMENT' as OrderStatus,
    amountSatoshiExpected: 1000,
    expiresAt: new Date('2030-01-01T00:20:00Z'),
    now: new Date('2030-01-01T00:05:00Z'),
    confirmationsRequired: 1,
  }
  const pay = (satoshis: number, confirmations = 0, late = false) => ({
    satoshis,
    confirmations,
    late,
  })

  it('waits while nothing arrived', () => {
    expect(deriveOrderPaymentState({ ...base, payments: [] }).status).toBe('AWAITING_PAYMENT')
  })
  it('detects the full amount unconfirmed, then pays at the required confirmations', () => {
    expect(deriveOrderPaymentState({ ...base, payments: [pay(1000)] }).status).toBe(
      'PAYMENT_DETECTED',
    )
    expect(deriveOrderPaymentState({ ...base, payments: [pay(1000, 1)] }).status).toBe('PAID')
    expect(
      deriveOrderPaymentState({ ...base, confirmationsRequired: 0, payments: [pay(1000)] }).status,
    ).toBe('PAID')
    expect(
      deriveOrderPaymentState({ ...base, confirmationsRequired: 2, payments: [pay(1000, 1)] })
        .status,
    ).toBe('PAYMENT_DETECTED')
  })
  it('adds up payments in parts and flags partial and over payments', () => {
    expect(deriveOrderPaymentState({ ...base, payments: [pay(400)] })).toMatchObject({
      status: 'UNDERPAID',
      flags: { paidPartial: true },
    })
    expect(deriveOrderPaymentState({ ...base, payments: [pay(400, 1), pay(600, 1)] }).status).toBe(
      'PAID',
    )
    expect(deriveOrderPaymentState({ ...base, payments: [pay(1500, 1)] })).toMatchObject({
      status: 'PAID',
      received: 1500,
      flags: { paidOver: true },
    })
  })
  it('expires without the full amount, and a detected payment never expires', () => {
    const later = { ...base, now: new Date('2030-01-01T00:20:00Z') }
    expect(deriveOrderPaymentState({ ...later, payments: [] }).status).toBe('EXPIRED')
    expect(
      deriveOrderPaymentState({ ...later, status: 'UNDERPAID', payments: [pay(10)] }).status,
    ).toBe('EXPIRED')
    expect(
      deriveOrderPaymentState({ ...later, status: 'PAYMENT_DETECTED', payments: [pay(1000)] })
        .status,
    ).toBe('PAYMENT_DETECTED')
  })
  it('never revives an expired order with a late payment, but flags it', () => {
    const state = deriveOrderPaymentState({
      ...base,
      status: 'EXPIRED',
      payments: [pay(1000, 3, true)],
    })
    expect(state).toMatchObject({ status: 'EXPIRED', received: 1000, flags: { paidLate: true } })
  })
  it('pays an expired order whose on-time payment came back and is confirmed (seen before its deadline)', () => {
    // The payment was judged missing or invalid, the order expired, and the chain has it after
    // all: it was first seen before the deadline, so the buyer paid in time.
    expect(
      deriveOrderPaymentState({ ...base, status: 'EXPIRED', payments: [pay(1000, 1)] }),
    ).toMatchObject({ status: 'PAID', flags: { paidLate: false, paidPartial: false } })
    expect(
      deriveOrderPaymentState({
        ...base,
        status: 'EXPIRED',
        confirmationsRequired: 0,
        payments: [pay(1000)],
      }).status,
    ).toBe('PAID')
    // Back in the mempool only: it stays expired, flagged for the owner, until it is confirmed.
    expect(
      deriveOrderPaymentState({ ...base, status: 'EXPIRED', payments: [pay(1000)] }),
    ).toMatchObject({ status: 'EXPIRED', flags: { paidLate: true } })
    // Short of the amount it is paid partial, as before.
    expect(
      deriveOrderPaymentState({ ...base, status: 'EXPIRED', payments: [pay(400, 1)] }),
    ).toMatchObject({ status: 'EXPIRED', flags: { paidLate: false, paidPartial: true } })
  })
  it('never counts a double-spent or dropped payment: the order waits again, or expires after its deadline', () => {
    const gone = { ...pay(1000), invalid: true }
    expect(
      deriveOrderPaymentState({ ...base, status: 'PAYMENT_DETECTED', payments: [gone] }),
    ).toMatchObject({ status: 'AWAITING_PAYMENT', received: 0, flags: { paidInvalid: true } })
    expect(
      deriveOrderPaymentState({ ...base, status: 'PAYMENT_DETECTED', payments: [gone, pay(300)] })
        .status,
    ).toBe('UNDERPAID')
    const later = { ...base, now: new Date('2030-01-01T00:20:00Z') }
    expect(
      deriveOrderPaymentState({ ...later, status: 'PAYMENT_DETECTED', payments: [gone] }),
    ).toMatchObject({ status: 'EXPIRED', flags: { paidInvalid: true } })
    // A paid order is never moved back: the owner settles it (the flag says why).
    expect(
      deriveOrderPaymentState({
        ...base,
        status: 'PAID',
        payments: [{ ...pay(1000, 1), invalid: true }],
      }),
    ).toMatchObject({ status: 'PAID', flags: { paidInvalid: true } })
  })

  it('does not count a payment in doubt: the order leaves PAYMENT_DETECTED, and counts it again once the doubt is lifted', () => {
    const doubted = { ...pay(1000), doubtful: true }
    expect(
      deriveOrderPaymentState({ ...base, status: 'PAYMENT_DETECTED', payments: [doubted] }),
    ).toMatchObject({ status: 'AWAITING_PAYMENT', received: 0, flags: { paidInvalid: true } })
    expect(
      deriveOrderPaymentState({ ...base, status: 'AWAITING_PAYMENT', payments: [pay(1000)] })
        .status,
    ).toBe('PAYMENT_DETECTED')
    // Expired while in doubt, then mined before the deadline: paid after all.
    const later = { ...base, now: new Date('2030-01-01T00:20:00Z') }
    expect(
      deriveOrderPaymentState({ ...later, status: 'PAYMENT_DETECTED', payments: [doubted] }).status,
    ).toBe('EXPIRED')
    expect(
      deriveOrderPaymentState({ ...later, status: 'EXPIRED', payments: [pay(1000, 1)] }).status,
    ).toBe('PAID')
  })

  it('flags a full payment that came only late as paid late, not partial', () => {
    const state = deriveOrderPaymentState({
      ...base,
      status: 'EXPIRED',
      payments: [pay(1000, 1, true)],
    })
    expect(state.flags).toEqual({
      paidLate: true,
      paidPartial: false,
      paidOver: false,
      paidInvalid: false,
    })
    const short = deriveOrderPaymentState({
      ...base,
      status: 'EXPIRED',
      payments: [pay(300, 1, true)],
    })
    expect(short.flags).toMatchObject({ paidLate: true, paidPartial: true, paidOver: false })
  })
  it('does not count a late top-up towards an on-time partial payment', () => {
    const state = deriveOrderPaymentState({
      ...base,
      status: 'EXPIRED',
      payments: [pay(400, 1), pay(600, 1, true)],
    })
    expect(state).toMatchObject({ status: 'EXPIRED', flags: { paidLate: true, paidPartial: true } })
  })
  it('keeps statuses past payment', () => {
    for (const status of ['PAID', 'PROCESSING_DELIVERY', 'SHIPPED', 'ERROR_FULFILLMENT'] as const) {
      expect(deriveOrderPaymentState({ ...base, status, payments: [pay(1000, 1)] }).status).toBe(
        status,
      )
    }
  })
})

describe('the order creation contract', () => {
  it('trims the token address and reads an empty one as none', () => {
    expect(
      createOrderRequestSchema.parse({ productId: 1, userEmail: 'a@b.co', tokenAddress: '  ' })
        .tokenAddress,
    ).toBeNull()
    expect(
      createOrderRequestSchema.parse({
        productId: '1',
        userEmail: 'a@b.co',
        tokenAddress: ' x@y.io ',
      }).tokenAddress,
    ).toBe('x@y.io')
    expect(createOrderRequestSchema.parse({ productId: 1, userEmail: 'a@b.co' }).productId).toBe(
      '1',
    )
  })
})

describe('testModePayRequestSchema', () => {
  it('accepts amounts up to all the coins there will ever be and refuses more, never throwing', () => {
    expect(testModePayRequestSchema.safeParse({ amountBSV: '0.1' }).success).toBe(true)
    expect(testModePayRequestSchema.safeParse({ amountBSV: '21000000' }).success).toBe(true)
    for (const amountBSV of ['21000000.00000001', '9'.repeat(400), '1.123456789', '-1', 'abc']) {
      const parsed = testModePayRequestSchema.safeParse({ amountBSV })
      expect(parsed.success, amountBSV).toBe(false)
    }
  })
})
