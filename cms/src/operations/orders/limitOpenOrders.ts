import crypto from 'node:crypto'

import { ORDER_STATUS_GROUPS } from '@shop/domain'
import type { Payload, Where } from 'payload'

import { slugs } from '../../collections/slugs'

export type OpenOrderLimits = { maxOpenOrdersPerClient: number; maxOpenOrdersPerEmail: number }

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

/** Orders still holding a copy while they wait for money: not paid, not expired. */
const waiting = (): Where => ({
  and: [
    { status: { in: ORDER_STATUS_GROUPS.open.filter((s) => s !== 'PAYMENT_DETECTED') } },
    { gatewayExpiresAt: { greater_than: new Date().toISOString() } },
  ],
})

/**
 * Why this order would hoard stock, or null: one client (or one e-mail address) may hold only so
 * many unpaid orders at once, each holding a copy for the expiry time and each sending an e-mail
 * (issue 14, finding 7: 50 orders took all the stock and mailed any address 50 times).
 */
export async function hoardingProblem({
  payload,
  limits,
  clientKey,
  email,
}: {
  payload: Payload
  limits: OpenOrderLimits
  clientKey: string
  email: string
}): Promise<string | null> {
  const [byClient, byEmail] = await Promise.all([
    payload.count({
      collection: slugs.orders,
      where: { and: [waiting(), { clientKey: { equals: clientKey } }] },
    }),
    payload.count({
      collection: slugs.orders,
      where: { and: [waiting(), { userEmail: { equals: email } }] },
    }),
  ])
  if (
    byClient.totalDocs >= limits.maxOpenOrdersPerClient ||
    byEmail.totalDocs >= limits.maxOpenOrdersPerEmail
  )
    return 'You already have unpaid orders waiting for payment. Please pay one of them or let it expire before placing another.'
  return null
}
