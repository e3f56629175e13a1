import type { Where } from 'payload'

import type { Order } from '../../payload-types'

const FLAGS = ['paidLate', 'paidPartial', 'paidOver', 'paidInvalid'] as const

/**
 * An order needs the owner when a payment exception is flagged (late, partial, over, invalid)
 * and the owner has not settled it since: marking it paid, cancelling it, recording a refund or
 * settling it clears it; new money or a new exception raises it again (Orders hooks).
 */
export function needsSettling(order: Pick<Order, 'flags' | 'settledAt'>): boolean {
  return !order.settledAt && FLAGS.some((flag) => Boolean(order.flags?.[flag]))
}

export const NEEDS_SETTLING_WHERE: Where = {
  and: [
    { or: FLAGS.map((flag) => ({ [`flags.${flag}`]: { equals: true } })) },
    { or: [{ settledAt: { exists: false } }, { settledAt: { equals: null } }] },
  ],
}
