import crypto from 'node:crypto'

import { INITIAL_ORDER_STATUS } from '@shop/domain'

import type { Order } from '../../payload-types'

/**
 * What every new order is, whichever way it is stored: through Payload's create (the hooks of
 * this collection call these) or checkout's single-statement insert on SQLite (decision 014).
 * One place, so the two cannot drift; `cms/test/checkout/order-row.test.ts` compares the rows
 * both ways write.
 */

/** A random UUID (122 random bits): the id appears in the buyer's URLs and must not be guessed. */
export const newOrderId = (): string => crypto.randomUUID()

/** The fields a new order starts with, before any payment is seen. */
export const NEW_ORDER_DEFAULTS = {
  status: INITIAL_ORDER_STATUS,
  amountSatoshiReceived: 0,
  flags: { paidLate: false, paidPartial: false, paidOver: false, paidInvalid: false },
} as const satisfies Partial<Order>
