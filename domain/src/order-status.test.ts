import { describe, expect, it } from 'vitest'

import {
  assertTransition,
  canTransition,
  FINAL_ORDER_STATUSES,
  ForbiddenTransitionError,
  isOrderStatusIn,
  ORDER_STATUS_GROUPS,
  ORDER_STATUSES,
  OWNER_ORDER_ACTION_NAMES,
  OWNER_ORDER_ACTIONS,
  ownerMayTake,
} from './order-status'

describe('order status groups', () => {
  it('puts every status in open, paid, EXPIRED or CANCELLED, and none in both open and paid', () => {
    for (const status of ORDER_STATUSES) {
      const groups = (['open', 'paid'] as const).filter((g) => isOrderStatusIn(g, status))
      expect(groups.length <= 1, status).toBe(true)
      if (groups.length === 0) expect(['EXPIRED', 'CANCELLED']).toContain(status)
    }
  })

  it('calls final exactly the statuses nothing can leave', () => {
    expect([...FINAL_ORDER_STATUSES].sort()).toEqual(['CANCELLED', 'SHIPPED'])
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

describe("the owner's actions", () => {
  it('are moves of the table, and never leave a final status', () => {
    for (const action of OWNER_ORDER_ACTION_NAMES) {
      const { to, from } = OWNER_ORDER_ACTIONS[action]
      for (const status of from) {
        if (to) expect(canTransition(status, to), `${action} from ${status}`).toBe(true)
        expect(ownerMayTake(action, status)).toBe(true)
      }
    }
    for (const status of FINAL_ORDER_STATUSES) {
      expect(ownerMayTake('mark-paid', status)).toBe(false)
      expect(ownerMayTake('cancel', status)).toBe(false)
    }
  })

  it('mark an expired order paid or cancel it, but never ship or cancel a shipped one', () => {
    expect(ownerMayTake('mark-paid', 'EXPIRED')).toBe(true)
    expect(ownerMayTake('cancel', 'EXPIRED')).toBe(true)
    expect(ownerMayTake('mark-paid', 'PAID')).toBe(false)
    expect(ownerMayTake('cancel', 'SHIPPED')).toBe(false)
    expect(ownerMayTake('refund', 'SHIPPED')).toBe(true)
  })
})
