import crypto from 'node:crypto'

import type { InValue } from '@libsql/client'

import { ORDER_STATUS_GROUPS } from '@shop/domain'
import type { Payload, Where } from 'payload'

import { slugs } from '../../collections/slugs'
import { engineOf, sqlite } from '../../db/atomic'

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

/** Statuses of orders holding a copy while they wait for money. */
const WAITING_STATUSES = ORDER_STATUS_GROUPS.open.filter((s) => s !== 'PAYMENT_DETECTED')

/** Orders still holding a copy while they wait for money: not paid, not expired. */
const waiting = (): Where => ({
  and: [
    { status: { in: WAITING_STATUSES } },
    { gatewayExpiresAt: { greater_than: new Date().toISOString() } },
  ],
})

type WaitingOrdersOf = {
  payload: Payload
  limits: OpenOrderLimits
  clientKey: string
  email: string
}

/** The client's and the address's waiting orders, each counted up to its limit. */
export type WaitingCounts = { byClient: number; byEmail: number }

/**
 * Why this order would hoard stock, or null: one client (or one e-mail address) may hold only so
 * many unpaid orders at once, each holding a copy for the expiry time and each sending an e-mail
 * (issue 14, finding 7: 50 orders took all the stock and mailed any address 50 times). `counted`
 * when checkout read the counts already, with its product (`waitingOrdersColumns`).
 */
export async function hoardingProblem({
  payload,
  limits,
  clientKey,
  email,
  counted,
}: WaitingOrdersOf & { counted?: WaitingCounts }): Promise<string | null> {
  const { byClient, byEmail } =
    counted ?? (await countWaitingOrders({ payload, limits, clientKey, email }))
  if (byClient >= limits.maxOpenOrdersPerClient || byEmail >= limits.maxOpenOrdersPerEmail)
    return 'You already have unpaid orders waiting for payment. Please pay one of them or let it expire before placing another.'
  return null
}

/**
 * SQLite: the client's and the address's waiting orders as two columns, `by_client` and
 * `by_email`, for a SELECT of their own or beside another read (checkout reads them in its
 * product's statement). Each count's scan stops at its limit: Payload's two counts were four
 * queries reading every open order of the key (issue 18: 2 ms of each checkout once a client had
 * a thousand orders, and under a rush through one proxy address, every order of the rush).
 */
export function waitingOrdersColumns({
  limits,
  clientKey,
  email,
}: Omit<WaitingOrdersOf, 'payload'>): { sql: string; args: InValue[] } {
  const now = new Date().toISOString()
  const statuses = WAITING_STATUSES.map(() => '?').join(', ')
  const bounded = (column: string) =>
    `(SELECT count(*) FROM (SELECT 1 FROM orders WHERE ${column} = ?
        AND status IN (${statuses}) AND gateway_expires_at > ? LIMIT ?))`
  return {
    sql: `${bounded('client_key')} AS by_client, ${bounded('user_email')} AS by_email`,
    args: [
      clientKey,
      ...WAITING_STATUSES,
      now,
      limits.maxOpenOrdersPerClient,
      email,
      ...WAITING_STATUSES,
      now,
      limits.maxOpenOrdersPerEmail,
    ],
  }
}

/** The counts of a row with `waitingOrdersColumns`. */
export const waitingCountsOf = (row: Record<string, unknown>): WaitingCounts => ({
  byClient: Number(row.by_client ?? 0),
  byEmail: Number(row.by_email ?? 0),
})

/** The client's and the address's waiting orders, each counted up to its limit and no further. */
async function countWaitingOrders({
  payload,
  limits,
  clientKey,
  email,
}: WaitingOrdersOf): Promise<WaitingCounts> {
  if (engineOf(payload) === 'mongodb') {
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
    return { byClient: byClient.totalDocs, byEmail: byEmail.totalDocs }
  }
  const { sql, args } = waitingOrdersColumns({ limits, clientKey, email })
  const result = await sqlite(payload).execute({ sql: `SELECT ${sql}`, args })
  return waitingCountsOf(result.rows[0] ?? {})
}
