import crypto from 'node:crypto'

import type { Payload } from 'payload'

import type { OpenOrderLimits, WaitingCounts, WaitingOrdersOf } from '../../db/openOrders'
import { beyondLimits, countWaitingOrders } from '../../db/openOrders'

export type { OpenOrderLimits, WaitingCounts }

/**
 * The client an order came from, as a keyed hash of its address: enough to count its unpaid
 * orders, never its address in the database.
 */
export function clientKeyOf(payload: Payload, clientAddress: string): string {
  return crypto
    .createHmac('sha256', `client-key:${payload.secret}`)
    .update(clientAddress)
    .digest('base64url')
    .slice(0, 32)
}

/** What a checkout beyond a limit is told (429). */
export const TOO_MANY_WAITING =
  'You already have unpaid orders waiting for payment. Please pay one of them or let it expire before placing another.'

/**
 * Why this order would hoard stock, or null: one client (or one e-mail address) may hold only so
 * many unpaid orders at once, each holding a copy for the expiry time and each sending an e-mail
 * (without it, 50 orders could take all the stock and mail any address 50 times). `counted`
 * when checkout read the counts already, with its product (`waitingOrdersColumns`). This early
 * answer spares a checkout the rate and the write; the limits hold because the write counts
 * again inside its transaction (`storeNewOrder`), the orders written with it included.
 */
export async function hoardingProblem({
  payload,
  limits,
  clientKey,
  email,
  counted,
}: WaitingOrdersOf & { counted?: WaitingCounts }): Promise<string | null> {
  const counts = counted ?? (await countWaitingOrders({ payload, limits, clientKey, email }))
  return beyondLimits(counts, limits) ? TOO_MANY_WAITING : null
}
