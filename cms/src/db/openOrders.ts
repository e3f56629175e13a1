import type { InValue } from '@libsql/client'
import { WAITING_ORDER_STATUSES } from '@shop/domain'
import type { Payload, PayloadRequest, Where } from 'payload'

import { slugs } from '../collections/slugs'
import { engineOf, numbered, postgres, sqlite } from './engine'

/** The buyer's unpaid orders, counted for the open-order limits, on either engine. */

export type OpenOrderLimits = { maxOpenOrdersPerClient: number; maxOpenOrdersPerEmail: number }

/** Orders still holding a copy while they wait for money: not paid, not expired. */
const waiting = (): Where => ({
  and: [
    { status: { in: WAITING_ORDER_STATUSES } },
    { gatewayExpiresAt: { greater_than: new Date().toISOString() } },
  ],
})

export type WaitingOrdersOf = {
  payload: Payload
  limits: OpenOrderLimits
  clientKey: string
  email: string
}

/** The client's and the address's waiting orders, each counted up to its limit. */
export type WaitingCounts = { byClient: number; byEmail: number }

/**
 * A column wrapped so that no index answers a condition on it: the planner is left one index to
 * read, the buyer's.
 */
const notIndexed = (column: string) => `coalesce(${column}, ${column})`

/**
 * SQLite and PostgreSQL (`numbered`): the waiting orders whose `column` is `key`, as a scalar
 * subquery whose scan stops at `limit`. Only the buyer's key is read from an index
 * (orders_client_key_idx, orders_user_email_idx); the status and the expiry are checked on the
 * buyer's own orders. A planner without statistics (SQLite), or with statistics from before a
 * rush (PostgreSQL), otherwise read the waiting orders of every buyer through the
 * (status, gatewayExpiresAt) or gatewayExpiresAt index: the whole rush at every checkout
 * (20,000 SQLite steps a count once 2,000 orders were waiting; cms/test/db/query-plans.test.ts).
 */
function boundedCount(
  column: 'client_key' | 'user_email',
  key: string,
  limit: number,
  now: string,
): { sql: string; args: InValue[] } {
  const statuses = WAITING_ORDER_STATUSES.map(() => '?').join(', ')
  return {
    sql: `(SELECT count(*) FROM (SELECT 1 FROM orders WHERE ${column} = ?
        AND ${notIndexed('status')} IN (${statuses}) AND ${notIndexed('gateway_expires_at')} > ?
        LIMIT ?) AS waiting)`,
    args: [key, ...WAITING_ORDER_STATUSES, now, limit],
  }
}

/**
 * SQLite: the client's and the address's waiting orders as two columns, `by_client` and
 * `by_email`, for a SELECT of their own or beside another read (checkout reads them in its
 * product's statement). Each count's scan stops at its limit: Payload's two counts were four
 * queries reading every open order of the key (2 ms of each checkout once a client had a
 * thousand orders, and under a rush through one proxy address, every order of the rush).
 */
export function waitingOrdersColumns({
  limits,
  clientKey,
  email,
}: Omit<WaitingOrdersOf, 'payload'>): { sql: string; args: InValue[] } {
  const now = new Date().toISOString()
  const byClient = boundedCount('client_key', clientKey, limits.maxOpenOrdersPerClient, now)
  const byEmail = boundedCount('user_email', email, limits.maxOpenOrdersPerEmail, now)
  return {
    sql: `${byClient.sql} AS by_client, ${byEmail.sql} AS by_email`,
    args: [...byClient.args, ...byEmail.args],
  }
}

/** The waiting orders of each client key and each address, by key. */
export type WaitingByKey = { byClient: Map<string, number>; byEmail: Map<string, number> }

/**
 * SQLite: one SELECT counting the waiting orders of every client key and every address given
 * (each with the limit its count may stop at), for a group of checkouts written together; read
 * its row with `read`.
 */
export function waitingOrdersOfEach({
  clients,
  emails,
}: {
  clients: Map<string, number>
  emails: Map<string, number>
}): { sql: string; args: InValue[]; read: (row: Record<string, unknown>) => WaitingByKey } {
  const now = new Date().toISOString()
  const columns = [
    ...[...clients].map(([key, limit], i) => ({
      as: `c${i}`,
      ...boundedCount('client_key', key, limit, now),
    })),
    ...[...emails].map(([key, limit], i) => ({
      as: `e${i}`,
      ...boundedCount('user_email', key, limit, now),
    })),
  ]
  const countsOf = (keys: Map<string, number>, prefix: string, row: Record<string, unknown>) =>
    new Map([...keys.keys()].map((key, i) => [key, Number(row[`${prefix}${i}`] ?? 0)]))
  return {
    sql: `SELECT ${columns.map((c) => `${c.sql} AS ${c.as}`).join(', ')}`,
    args: columns.flatMap((c) => c.args),
    read: (row) => ({ byClient: countsOf(clients, 'c', row), byEmail: countsOf(emails, 'e', row) }),
  }
}

/** The counts of a row with `waitingOrdersColumns`. */
export const waitingCountsOf = (row: Record<string, unknown>): WaitingCounts => ({
  byClient: Number(row.by_client ?? 0),
  byEmail: Number(row.by_email ?? 0),
})

/**
 * The client's and the address's waiting orders, each counted up to its limit and no further;
 * inside the transaction `req` has open when given (MongoDB's store counts in its own).
 */
export async function countWaitingOrders({
  payload,
  limits,
  clientKey,
  email,
  req,
}: WaitingOrdersOf & { req?: Partial<PayloadRequest> }): Promise<WaitingCounts> {
  if (engineOf(payload) === 'mongodb') {
    const [byClient, byEmail] = await Promise.all([
      payload.count({
        req,
        collection: slugs.orders,
        where: { and: [waiting(), { clientKey: { equals: clientKey } }] },
      }),
      payload.count({
        req,
        collection: slugs.orders,
        where: { and: [waiting(), { userEmail: { equals: email } }] },
      }),
    ])
    return { byClient: byClient.totalDocs, byEmail: byEmail.totalDocs }
  }
  const { sql, args } = waitingOrdersColumns({ limits, clientKey, email })
  if (engineOf(payload) === 'postgres') {
    const result = await postgres(payload).query(numbered(`SELECT ${sql}`), args)
    return waitingCountsOf(result.rows[0] ?? {})
  }
  const result = await sqlite(payload).execute({ sql: `SELECT ${sql}`, args })
  return waitingCountsOf(result.rows[0] ?? {})
}

/** Whether one more waiting order, beside those counted, goes beyond a limit. */
export const beyondLimits = ({ byClient, byEmail }: WaitingCounts, limits: OpenOrderLimits) =>
  byClient >= limits.maxOpenOrdersPerClient || byEmail >= limits.maxOpenOrdersPerEmail
