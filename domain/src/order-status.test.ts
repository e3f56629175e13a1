import { describe, expect, it } from 'vitest'

import {
  assertTransition,
  FINAL_ORDER_STATUSES,
  ForbiddenTransitionError,
  isOrderStatusIn,
  ORDER_STATUS_GROUPS,
  ORDER_STATUSES,
} from './order-status'

describe('order status groups', () => {
  it('puts every status in open, paid or EXPIRED, and no status in both open and paid', () => {
    for (const status of ORDER_STATUSES) {
      const groups = (['open', 'paid'] as const).filter((g) => isOrderStatusIn(g, status))
      expect(groups.length <= 1, status).toBe(true)
      if (groups.length === 0) expect(status).toBe('EXPIRED')
    }
  })

  it('calls final exactly the statuses nothing can leave', () => {
    expect([...FINAL_ORDER_STATUSES].sort()).toEqual(['EXPIRED', 'SHIPPED'])
    for (const from of FINAL_ORDER_STATUSES)
      for (const to of ORDER_STATUSES)
        if (to !== from) expect(() => assertTransition(from, to)).toThrow(ForbiddenTransitionError)
    expect(ORDER_STATUS_GROUPS.final).toBe(FINAL_ORDER_STATUSES)
  })

  it('treats a repeat as a no-op and refuses a jump the table does not have', () => {
    expect(assertTransition('PAID', 'PAID')).toBe(false)
    expect(assertTransition('PROCESSING_DELIVERY', 'SHIPPED')).toBe(true)
    expect(() => assertTransition('AWAITING_PAYMENT', 'SHIPPED')).toThrow(
      'Order status cannot change from AWAITING_PAYMENT to SHIPPED.',
    )
  })
})
