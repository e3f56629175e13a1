import type { Client, InValue, Transaction } from '@libsql/client'
import type { Payload } from 'payload'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'

import { NEW_ORDER_DEFAULTS, newOrderId } from '../collections/Orders/newOrder'
import { slugs } from '../collections/slugs'
import type { Order } from '../payload-types'
import type { OpenOrderLimits, WaitingByKey } from './openOrders'
import {
  beyondLimits,
  countWaitingOrders,
  waitingCountsOf,
  waitingOrdersColumns,
  waitingOrdersOfEach,
} from './openOrders'
import { ADDRESS_INDEX_COUNTER, claimAddressIndex, counterIncrement } from './counters'
import type { CreatedEmail } from './orderCreatedEmails'
import { queueCreatedEmailsSqlite, withCreatedEmailPostgres } from './orderCreatedEmails'
import type { PgRunner } from './engine'
import { engineOf, numbered, postgres, sqlite } from './engine'
import { reserveStockForOrder, TAKE_ONE_COPY_PG, takeCopies, takeOneCopy } from './stock'
import { runInWriterScope } from './sqlite-client'
import type { NewOrderContext } from '../collections/Orders/hooks/queueCreatedEmail'

/** What checkout decides about a new order; the id, status, defaults and address come here. */
export type NewOrderFields = Pick<
  Order,
  | 'productName'
  | 'productType'
  | 'userEmail'
  | 'clientKey'
  | 'tokenAddress'
  | 'priceAtPurchaseUSD'
  | 'shippingCostEUR'
  | 'bsvUsdRateAtPurchase'
  | 'amountSatoshiExpected'
  | 'gatewayExpiresAt'
  | 'shippingName'
  | 'shippingAddressLine1'
  | 'shippingAddressLine2'
  | 'shippingCity'
  | 'shippingStateProvince'
  | 'shippingPostalCode'
  | 'shippingCountry'
  | 'shippingPhone'
> & { product: number | string }

/** Each field checkout writes, with its column in SQLite's orders table. */
const COLUMNS = {
  productName: 'product_name',
  productType: 'product_type',
  userEmail: 'user_email',
  clientKey: 'client_key',
  tokenAddress: 'token_address',
  priceAtPurchaseUSD: 'price_at_purchase_u_s_d',
  shippingCostEUR: 'shipping_cost_e_u_r',
  bsvUsdRateAtPurchase: 'bsv_usd_rate_at_purchase',
  amountSatoshiExpected: 'amount_satoshi_expected',
  gatewayExpiresAt: 'gateway_expires_at',
  shippingName: 'shipping_name',
  shippingAddressLine1: 'shipping_address_line1',
  shippingAddressLine2: 'shipping_address_line2',
  shippingCity: 'shipping_city',
  shippingStateProvince: 'shipping_state_province',
  shippingPostalCode: 'shipping_postal_code',
  shippingCountry: 'shipping_country',
  shippingPhone: 'shipping_phone',
} as const satisfies Record<Exclude<keyof NewOrderFields, 'product'>, string>

const FIELDS = Object.keys(COLUMNS) as (keyof typeof COLUMNS)[]

const ORDER_COLUMNS = `id, status, product_id, amount_satoshi_received,
    flags_paid_late, flags_paid_partial, flags_paid_over, flags_paid_invalid,
    payment_address, address_index, created_at, updated_at, ${FIELDS.map((f) => COLUMNS[f]).join(', ')}`
const ORDER_VALUES = `(${Array.from({ length: 12 + FIELDS.length }, () => '?').join(', ')})`

/** SQLite: inserts `count` orders in one statement (its text, one per count, is prepared once). */
const insertOrders = (count: number) =>
  `INSERT INTO orders (${ORDER_COLUMNS}) VALUES ${Array.from({ length: count }, () => ORDER_VALUES).join(', ')}`

/**
 * The values of one new order's row, in ORDER_COLUMNS' order. The flags go as 0 and 1, which
 * PostgreSQL's boolean columns read as false and true.
 */
function orderRow(
  id: string,
  fields: NewOrderFields,
  addressIndex: number,
  address: string,
  now: string,
): InValue[] {
  const { flags } = NEW_ORDER_DEFAULTS
  return [
    id,
    NEW_ORDER_DEFAULTS.status,
    Number(fields.product),
    NEW_ORDER_DEFAULTS.amountSatoshiReceived,
    Number(flags.paidLate),
    Number(flags.paidPartial),
    Number(flags.paidOver),
    Number(flags.paidInvalid),
    address,
    addressIndex,
    now,
    now,
    ...FIELDS.map((field) => fields[field] ?? null),
  ]
}

/** What one checkout hands to `storeNewOrder`. */
type NewOrder = {
  fields: NewOrderFields
  /** The payment address of an index (derived while the index is held, never reused). */
  addressFor: (index: number) => string
  /**
   * The open-order limits of the order's client (`fields.clientKey`) and address
   * (`fields.userEmail`), counted inside the write; none are checked when absent.
   */
  limits?: OpenOrderLimits
  /**
   * The buyer's "order created" e-mail, queued in the same transaction as the order, at most
   * `perAddressPerHour` (EMAILS_PER_ADDRESS_PER_HOUR) to one address an hour
   * (`db/orderCreatedEmails.ts`); none when absent.
   */
  createdEmail?: { perAddressPerHour: number }
}

/**
 * The new order; `limited` when its client or address holds its limit of waiting orders already;
 * null when no copy is left.
 */
type Stored = { orderId: string } | { limited: true } | null

/**
 * Stores a new order holding one copy of its book, with a never-used address index and the
 * address derived from it, in one transaction: all of it or nothing (null when no copy is left).
 * With `createdEmail`, the buyer's "order created" e-mail and its job are queued in it too.
 * With `limits`, the buyer's waiting orders are counted inside that transaction, the orders
 * written with it included: a checkout beyond a limit stores nothing (`limited`), however many
 * come at once (a count read only before the write lets a burst through).
 *
 * On SQLite, checkout's hot path (decision 014): plain statements (the copies, the indexes, the
 * order rows) without Payload's create, which cost more than the rest of a checkout together
 * (decision 014). The checkouts that reach this point in the same turn of the event loop are written
 * together (`writeGroups`, `storeTogether`): one transaction, a few statements and one fsync for
 * all of them instead of their own each. The new order's rules
 * come from the collection (`collections/Orders/newOrder.ts`); `cms/test/checkout/order-row.test.ts`
 * checks the row equals the one Payload's create writes. On MongoDB, Payload's create in one
 * transaction.
 */
export async function storeNewOrder({
  payload,
  ...order
}: NewOrder & { payload: Payload }): Promise<Stored> {
  if (engineOf(payload) === 'mongodb') return storeWithPayload({ payload, ...order })
  if (engineOf(payload) === 'postgres') return storeOnPostgres({ payload, ...order })
  const client = sqlite(payload)
  return new Promise<Stored>((resolve, reject) => {
    let waiting = groups.get(client)
    if (!waiting) {
      waiting = []
      groups.set(client, waiting)
      // In a writer scope of its own: the group's transaction belongs to no one request.
      setImmediate(() => runInWriterScope(() => void writeGroups(client)))
    }
    waiting.push({ ...order, resolve, reject })
  })
}

/** At most this many checkouts share one commit. */
const MAX_GROUP = 64

type Waiting = NewOrder & { resolve: (stored: Stored) => void; reject: (error: unknown) => void }

/** Checkouts waiting for the next group commit, per database client. */
const groups = new WeakMap<Client, Waiting[]>()

/**
 * Writes the waiting checkouts in groups, one transaction and one commit each, until none wait.
 * Between groups it lets the event loop turn, so the requests that came in meanwhile reach this
 * point and go together in the next group (a group commit: under 50 buyers at once, the commit's
 * fsync, which blocks the event loop, was a fifth of the web process's time).
 */
async function writeGroups(client: Client) {
  try {
    for (;;) {
      const waiting = groups.get(client)!
      if (waiting.length === 0) return
      await writeGroup(client, waiting.splice(0, MAX_GROUP))
      await new Promise((resolve) => setImmediate(resolve))
    }
  } catch (error) {
    // Never expected (writeGroup answers every order itself), but no checkout may wait for ever.
    for (const order of groups.get(client) ?? []) order.reject(error)
  } finally {
    groups.delete(client)
  }
}

async function writeGroup(client: Client, group: Waiting[]) {
  const outcomes: (Stored | { failed: unknown })[] = []
  let tx: Transaction | undefined
  try {
    tx = await client.transaction('write')
    const together = await storeTogether(tx, group)
    if (together) outcomes.push(...together)
    else for (const order of group) outcomes.push(await storeOne(tx, order))
    await tx.commit()
  } catch (error) {
    // Nothing of the group is stored (the commit failed, or the transaction could not begin).
    for (const order of group) order.reject(error)
    return
  } finally {
    // Rolls back whatever was not committed and frees the writer.
    try {
      tx?.close()
    } catch {
      // Even when that rollback fails, the writer is freed: the orders' outcomes are decided
      // already, and the next transaction meets whatever is wrong with the database.
    }
  }
  group.forEach((order, i) => {
    const outcome = outcomes[i]!
    if (outcome && 'failed' in outcome) order.reject(outcome.failed)
    else order.resolve(outcome)
  })
}

/**
 * The whole group at once, in a few statements whatever its size: the waiting orders of its
 * clients and addresses counted in one (`waitingOrdersOfEach`), the copies of its book taken
 * together (`takeCopies`; the first orders in the group get them), as many address indexes
 * claimed in one step, and every order that got a copy inserted in one statement. Under a rush
 * each checkout ran five statements of its own in the group (a savepoint, the index, the row, the
 * copy, a release), and SQLite's calls were a quarter of the web process's time. When
 * any of it fails (an address that cannot be derived, a row SQLite refuses), none of it is kept
 * and the group goes one order at a time (`storeOne`), so one bad order fails alone.
 *
 * The orders are judged in the order they came: one beyond its client's or address's limit
 * (the orders of the group stored before it counted) is `limited` and takes no copy; the others
 * get a copy while any is left. Copies taken for orders that turned out limited go back to the
 * shelf in the same transaction. The stored orders' e-mails go in three more statements
 * (`queueCreatedEmailsSqlite`).
 */
async function storeTogether(tx: Transaction, group: Waiting[]): Promise<Stored[] | null> {
  await tx.execute('SAVEPOINT new_orders')
  try {
    const waiting = await countWaiting(tx, group)
    const wanted = new Map<number, number>()
    for (const { fields } of group) {
      const product = Number(fields.product)
      wanted.set(product, (wanted.get(product) ?? 0) + 1)
    }
    const taken = new Map<number, number>()
    for (const [product, count] of wanted) taken.set(product, await takeCopies(tx, product, count))
    const copies = new Map(taken)
    const stored: Stored[] = group.map(({ fields, limits }) => {
      if (limits && beyondLimits(waitingOf(waiting, fields), limits)) return { limited: true }
      const product = Number(fields.product)
      const left = copies.get(product)!
      if (left === 0) return null
      copies.set(product, left - 1)
      countIn(waiting, fields)
      return { orderId: newOrderId() }
    })
    // Copies left over were taken for orders that turned out limited: back to the shelf.
    for (const [product, unused] of copies)
      if (unused > 0)
        await tx.execute({
          sql: 'UPDATE products SET current_stock = current_stock + ? WHERE id = ?',
          args: [unused, product],
        })
    const count = stored.filter((s) => s && 'orderId' in s).length
    if (count > 0) {
      const counted = await tx.execute(counterIncrement(ADDRESS_INDEX_COUNTER, count))
      let addressIndex = Number(counted.rows[0]?.value) - count
      const now = new Date().toISOString()
      const args: InValue[] = []
      group.forEach(({ fields, addressFor }, i) => {
        const outcome = stored[i]
        if (!outcome || !('orderId' in outcome)) return
        args.push(...orderRow(outcome.orderId, fields, addressIndex, addressFor(addressIndex), now))
        addressIndex += 1
      })
      await tx.execute({ sql: insertOrders(count), args })
      await queueCreatedEmailsSqlite(
        tx,
        group.flatMap(({ fields, createdEmail }, i) => {
          const outcome = stored[i]
          return outcome && 'orderId' in outcome && createdEmail
            ? [createdEmailOf(outcome.orderId, fields, createdEmail)]
            : []
        }),
        now,
      )
    }
    await tx.execute('RELEASE new_orders')
    return stored
  } catch {
    await tx.execute('ROLLBACK TO new_orders')
    await tx.execute('RELEASE new_orders')
    return null
  }
}

/**
 * The waiting orders of the group's clients and addresses, in one statement (none without
 * limits).
 */
async function countWaiting(
  tx: Transaction,
  group: Pick<NewOrder, 'fields' | 'limits'>[],
): Promise<WaitingByKey> {
  const clients = new Map<string, number>()
  const emails = new Map<string, number>()
  for (const { fields, limits } of group) {
    if (!limits) continue
    const bound = (keys: Map<string, number>, key: string, limit: number) =>
      keys.set(key, Math.max(keys.get(key) ?? 0, limit))
    if (fields.clientKey) bound(clients, fields.clientKey, limits.maxOpenOrdersPerClient)
    bound(emails, fields.userEmail, limits.maxOpenOrdersPerEmail)
  }
  if (clients.size === 0 && emails.size === 0) return { byClient: clients, byEmail: emails }
  const { sql, args, read } = waitingOrdersOfEach({ clients, emails })
  const result = await tx.execute({ sql, args })
  return read(result.rows[0] ?? {})
}

const waitingOf = (waiting: WaitingByKey, fields: NewOrderFields) => ({
  byClient: (fields.clientKey && waiting.byClient.get(fields.clientKey)) || 0,
  byEmail: waiting.byEmail.get(fields.userEmail) ?? 0,
})

/** One more waiting order of the fields' client and address. */
function countIn(waiting: WaitingByKey, fields: NewOrderFields) {
  const { byClient, byEmail } = waitingOf(waiting, fields)
  if (fields.clientKey) waiting.byClient.set(fields.clientKey, byClient + 1)
  waiting.byEmail.set(fields.userEmail, byEmail + 1)
}

/**
 * One order of a group, under a savepoint: an order beyond a limit (the orders of the group
 * stored before it counted), whose copy is gone, or whose address cannot be derived, leaves
 * nothing behind (no order, no copy, no index) and the others go on.
 */
async function storeOne(
  tx: Transaction,
  { fields, addressFor, limits, createdEmail }: NewOrder,
): Promise<Stored | { failed: unknown }> {
  const id = newOrderId()
  const now = new Date().toISOString()
  await tx.execute('SAVEPOINT new_order')
  try {
    if (limits) {
      const waiting = await countWaiting(tx, [{ fields, limits }])
      if (beyondLimits(waitingOf(waiting, fields), limits)) return { limited: true }
    }
    const counted = await tx.execute(counterIncrement(ADDRESS_INDEX_COUNTER))
    const addressIndex = Number(counted.rows[0]?.value) - 1
    const [, taken] = await tx.batch([
      {
        sql: insertOrders(1),
        args: orderRow(id, fields, addressIndex, addressFor(addressIndex), now),
      },
      takeOneCopy(fields.product),
    ])
    if (taken?.rowsAffected !== 1) {
      await tx.execute('ROLLBACK TO new_order')
      return null
    }
    if (createdEmail)
      await queueCreatedEmailsSqlite(tx, [createdEmailOf(id, fields, createdEmail)], now)
    return { orderId: id }
  } catch (error) {
    await tx.execute('ROLLBACK TO new_order')
    return { failed: error }
  } finally {
    await tx.execute('RELEASE new_order')
  }
}

/**
 * PostgreSQL: one transaction of its own on a pooled connection, the same three statements as
 * SQLite's `storeOne` (the index, the copy, the row), with no writer queue: checkouts run side
 * by side and meet only on the rows they share.
 */
async function storeOnPostgres({
  payload,
  ...order
}: NewOrder & { payload: Payload }): Promise<Stored> {
  const connection = await postgres(payload).connect()
  let broken: Error | undefined
  try {
    await connection.query('BEGIN')
    const stored = await storeInTransaction(connection, order)
    await connection.query(stored && 'orderId' in stored ? 'COMMIT' : 'ROLLBACK')
    return stored
  } catch (error) {
    // A connection that cannot even roll back is closed rather than given back to the pool.
    await connection.query('ROLLBACK').catch((rollback: unknown) => {
      broken = rollback instanceof Error ? rollback : new Error(String(rollback))
    })
    throw error
  } finally {
    connection.release(broken)
  }
}

/**
 * The counter's row first: every checkout's transaction locks it until it ends, so the waiting
 * orders counted next (a statement of its own, which sees every transaction committed before it)
 * include every order stored before this one, and a burst cannot pass a limit (the e-mails
 * counted last, likewise). The index comes back with a rollback, so no index is spent on an order
 * that was not stored.
 */
async function storeInTransaction(
  db: PgRunner,
  { fields, addressFor, limits, createdEmail }: NewOrder,
): Promise<Stored> {
  const counter = counterIncrement(ADDRESS_INDEX_COUNTER)
  const counted = await db.query(numbered(counter.sql), counter.args)
  const addressIndex = Number(counted.rows[0]?.value) - 1
  if (limits) {
    const { sql, args } = waitingOrdersColumns({
      limits,
      clientKey: fields.clientKey ?? '',
      email: fields.userEmail,
    })
    const waiting = await db.query(numbered(`SELECT ${sql}`), args)
    if (beyondLimits(waitingCountsOf(waiting.rows[0] ?? {}), limits)) return { limited: true }
  }
  const taken = await db.query(TAKE_ONE_COPY_PG, [Number(fields.product)])
  if (taken.rowCount !== 1) return null
  const id = newOrderId()
  const now = new Date().toISOString()
  const insert = {
    sql: insertOrders(1),
    args: orderRow(id, fields, addressIndex, addressFor(addressIndex), now),
  }
  // With the buyer's e-mail, in the same statement.
  const { sql, args } = createdEmail
    ? withCreatedEmailPostgres(insert, createdEmailOf(id, fields, createdEmail), now)
    : insert
  await db.query(numbered(sql), args)
  return { orderId: id }
}

/**
 * Payload's create, inside one transaction with the index and the copy: the order is stored
 * holding no copy (stockReleasedAt set), then the copy is taken and claimed by the order in one
 * conditional step; when none is left, everything is rolled back. The limits are counted after
 * the index is claimed: every checkout's transaction writes that counter, so two of them at once
 * cannot both count without seeing each other's order (MongoDB refuses the second write). The
 * "order created" e-mail is queued by the collection's create hook in the same transaction
 * (`queueCreatedEmail`), with the limit given here, or not at all without `createdEmail`.
 */
async function storeWithPayload({
  payload,
  fields,
  addressFor,
  limits,
  createdEmail,
}: NewOrder & { payload: Payload }): Promise<Stored> {
  const req = await createLocalReq({}, payload)
  const ownsTransaction = await initTransaction(req)
  try {
    const addressIndex = await claimAddressIndex({ payload, req })
    if (limits) {
      const waiting = await countWaitingOrders({
        payload,
        req,
        limits,
        clientKey: fields.clientKey ?? '',
        email: fields.userEmail,
      })
      if (beyondLimits(waiting, limits)) {
        await killTransaction(req)
        return { limited: true }
      }
    }
    const order = await payload.create({
      collection: slugs.orders,
      depth: 0,
      select: { id: true },
      req,
      context: { createdEmail: createdEmail ?? false } satisfies NewOrderContext,
      data: {
        ...fields,
        addressIndex,
        paymentAddress: addressFor(addressIndex),
        stockReleasedAt: new Date().toISOString(),
      } as never,
    })
    const orderId = String(order.id)
    if (!(await reserveStockForOrder({ payload, productId: fields.product, orderId, req }))) {
      await killTransaction(req)
      return null
    }
    if (ownsTransaction) await commitTransaction(req)
    return { orderId }
  } catch (error) {
    await killTransaction(req)
    throw error
  }
}

const createdEmailOf = (
  orderId: string,
  fields: NewOrderFields,
  { perAddressPerHour }: NonNullable<NewOrder['createdEmail']>,
): CreatedEmail => ({ orderId, to: fields.userEmail, perAddressPerHour })
