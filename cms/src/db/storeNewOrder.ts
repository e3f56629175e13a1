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
import { queueCreatedEmails, withCreatedEmailPostgres } from './orderCreatedEmails'
import type { PgPool, PgRunner } from './engine'
import { engineOf, numbered, postgres, sqlite } from './engine'
import {
  reserveStockForOrder,
  TAKE_ONE_COPY_PG,
  takeCopies,
  takeCopiesPg,
  takeOneCopy,
} from './stock'
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
  const engine = engineOf(payload)
  if (engine === 'mongodb') return storeWithPayload({ payload, ...order })
  const writer =
    engine === 'postgres' ? postgresWriter(postgres(payload)) : sqliteWriter(sqlite(payload))
  return new Promise<Stored>((resolve, reject) => {
    let waiting = groups.get(writer.key)
    if (!waiting) {
      waiting = []
      groups.set(writer.key, waiting)
      // In a writer scope of its own: the group's transaction belongs to no one request.
      setImmediate(() => runInWriterScope(() => void writeGroups(writer)))
    }
    waiting.push({ ...order, resolve, reject })
  })
}

/** At most this many checkouts share one commit. */
const MAX_GROUP = 64

type Waiting = NewOrder & { resolve: (stored: Stored) => void; reject: (error: unknown) => void }

/** Checkouts waiting for the next group commit, per database (its client or pool). */
const groups = new WeakMap<object, Waiting[]>()

/** An answer of a statement in a group's transaction, on either engine. */
type Answer = { rows: Record<string, unknown>[]; rowsAffected: number }

/** A group's open transaction, on either engine; statements are written with `?`. */
type GroupTx = {
  execute: (stmt: string | { sql: string; args: InValue[] }) => Promise<Answer>
  /** Takes up to `wanted` copies of a product off its shelf: how many it took. */
  takeCopies: (product: number, wanted: number) => Promise<number>
  /** The stored orders' "order created" e-mails (`queueCreatedEmails`). */
  queueCreatedEmails: (emails: CreatedEmail[], now: string) => Promise<number>
  /** One order's statements alone, when the group's together failed: stored, limited or null. */
  storeOrder: (order: NewOrder) => Promise<Stored>
}

/** Where a database's groups are written: a transaction opened, and committed or rolled back. */
type GroupWriter = {
  /** What the waiting groups are kept by: the database's client or pool. */
  key: object
  /** Runs `write` in one transaction, committed when it returns and rolled back when it throws. */
  inTransaction: <T>(write: (tx: GroupTx) => Promise<T>) => Promise<T>
}

/**
 * Writes the waiting checkouts in groups, one transaction and one commit each, until none wait.
 * Between groups it lets the event loop turn, so the requests that came in meanwhile reach this
 * point and go together in the next group (a group commit: under 50 buyers at once, the commit's
 * fsync, which blocks the event loop on SQLite, was a fifth of the web process's time; on
 * PostgreSQL each checkout held the address counter's row for five round trips through a busy
 * event loop, and the buyers queued behind it).
 */
async function writeGroups(writer: GroupWriter) {
  try {
    for (;;) {
      const waiting = groups.get(writer.key)!
      if (waiting.length === 0) return
      await writeGroup(writer, waiting.splice(0, MAX_GROUP))
      await new Promise((resolve) => setImmediate(resolve))
    }
  } catch (error) {
    // Never expected (writeGroup answers every order itself), but no checkout may wait for ever.
    for (const order of groups.get(writer.key) ?? []) order.reject(error)
  } finally {
    groups.delete(writer.key)
  }
}

async function writeGroup(writer: GroupWriter, group: Waiting[]) {
  let outcomes: (Stored | { failed: unknown })[]
  try {
    outcomes = await writer.inTransaction(async (tx) => {
      const together = await storeTogether(tx, group)
      if (together) return together
      const each: (Stored | { failed: unknown })[] = []
      for (const order of group) each.push(await storeOne(tx, order))
      return each
    })
  } catch (error) {
    // Nothing of the group is stored (the commit failed, or the transaction could not begin).
    for (const order of group) order.reject(error)
    return
  }
  group.forEach((order, i) => {
    const outcome = outcomes[i]!
    if (outcome && 'failed' in outcome) order.reject(outcome.failed)
    else order.resolve(outcome)
  })
}

/** SQLite: the group in a write transaction of the one writer. */
function sqliteWriter(client: Client): GroupWriter {
  return {
    key: client,
    async inTransaction(write) {
      const tx = await client.transaction('write')
      try {
        const result = await write(sqliteGroupTx(tx))
        await tx.commit()
        return result
      } finally {
        // Rolls back whatever was not committed and frees the writer.
        try {
          tx.close()
        } catch {
          // Even when that rollback fails, the writer is freed: the orders' outcomes are decided
          // already, and the next transaction meets whatever is wrong with the database.
        }
      }
    },
  }
}

function sqliteGroupTx(tx: Transaction): GroupTx {
  return {
    execute: async (stmt) => {
      const result = await tx.execute(stmt)
      return {
        rows: result.rows as unknown as Record<string, unknown>[],
        rowsAffected: result.rowsAffected,
      }
    },
    takeCopies: (product, wanted) => takeCopies(tx, product, wanted),
    queueCreatedEmails: (emails, now) => queueCreatedEmails(tx, emails, now, 'sqlite'),
    storeOrder: (order) => storeOneSqlite(tx, order),
  }
}

/**
 * PostgreSQL: the group in a transaction of its own on a pooled connection. The address
 * counter's row is locked first (an upsert adding nothing): every group of every web process
 * takes it until it commits, so the waiting orders counted next (statements of their own, which
 * see every transaction committed before them) include every order stored before these, and a
 * burst cannot pass a limit. The indexes come back with a rollback, so none is spent on an order
 * that was not stored.
 */
function postgresWriter(pool: PgPool): GroupWriter {
  return {
    key: pool,
    async inTransaction(write) {
      const connection = await pool.connect()
      let broken: Error | undefined
      try {
        await connection.query('BEGIN')
        const lock = counterIncrement(ADDRESS_INDEX_COUNTER, 0)
        await connection.query(numbered(lock.sql), lock.args)
        const result = await write(postgresGroupTx(connection))
        await connection.query('COMMIT')
        return result
      } catch (error) {
        // A connection that cannot even roll back is closed rather than given back to the pool.
        await connection.query('ROLLBACK').catch((rollback: unknown) => {
          broken = rollback instanceof Error ? rollback : new Error(String(rollback))
        })
        throw error
      } finally {
        connection.release(broken)
      }
    },
  }
}

function postgresGroupTx(connection: PgRunner): GroupTx {
  const tx: GroupTx = {
    execute: async (stmt) => {
      const { sql, args } = typeof stmt === 'string' ? { sql: stmt, args: [] } : stmt
      const result = await connection.query(numbered(sql), args)
      return { rows: result.rows, rowsAffected: result.rowCount ?? 0 }
    },
    takeCopies: (product, wanted) => takeCopiesPg(connection, product, wanted),
    queueCreatedEmails: (emails, now) => queueCreatedEmails(tx, emails, now, 'postgres'),
    storeOrder: (order) => storeOnePostgres(connection, order),
  }
  return tx
}

/**
 * The whole group at once, in a few statements whatever its size: the waiting orders of its
 * clients and addresses counted in one (`waitingOrdersOfEach`), the copies of its book taken
 * together (`takeCopies`; the first orders in the group get them), as many address indexes
 * claimed in one step, and every order that got a copy inserted in one statement. Under a rush
 * each checkout ran five statements of its own in the group (a savepoint, the index, the row, the
 * copy, a release), and SQLite's calls were a quarter of the web process's time. When
 * any of it fails (an address that cannot be derived, a row the database refuses), none of it is
 * kept and the group goes one order at a time (`storeOne`), so one bad order fails alone.
 *
 * The orders are judged in the order they came: one beyond its client's or address's limit
 * (the orders of the group stored before it counted) is `limited` and takes no copy; the others
 * get a copy while any is left. Copies taken for orders that turned out limited go back to the
 * shelf in the same transaction. The stored orders' e-mails go in three more statements
 * (`queueCreatedEmails`).
 */
async function storeTogether(tx: GroupTx, group: Waiting[]): Promise<Stored[] | null> {
  await tx.execute('SAVEPOINT new_orders')
  try {
    const waiting = await countWaiting(tx, group)
    const wanted = new Map<number, number>()
    for (const { fields } of group) {
      const product = Number(fields.product)
      wanted.set(product, (wanted.get(product) ?? 0) + 1)
    }
    const taken = new Map<number, number>()
    for (const [product, count] of wanted) taken.set(product, await tx.takeCopies(product, count))
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
      await tx.queueCreatedEmails(
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
  tx: GroupTx,
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
async function storeOne(tx: GroupTx, order: NewOrder): Promise<Stored | { failed: unknown }> {
  await tx.execute('SAVEPOINT new_order')
  try {
    const stored = await tx.storeOrder(order)
    if (!stored || !('orderId' in stored)) await tx.execute('ROLLBACK TO new_order')
    return stored
  } catch (error) {
    await tx.execute('ROLLBACK TO new_order')
    return { failed: error }
  } finally {
    await tx.execute('RELEASE new_order')
  }
}

/** SQLite: one order's statements (the limits, the index, the row with its copy, its e-mail). */
async function storeOneSqlite(
  tx: Transaction,
  { fields, addressFor, limits, createdEmail }: NewOrder,
): Promise<Stored> {
  if (limits) {
    const waiting = await countWaiting(sqliteGroupTx(tx), [{ fields, limits }])
    if (beyondLimits(waitingOf(waiting, fields), limits)) return { limited: true }
  }
  const id = newOrderId()
  const now = new Date().toISOString()
  const counted = await tx.execute(counterIncrement(ADDRESS_INDEX_COUNTER))
  const addressIndex = Number(counted.rows[0]?.value) - 1
  const [, taken] = await tx.batch([
    {
      sql: insertOrders(1),
      args: orderRow(id, fields, addressIndex, addressFor(addressIndex), now),
    },
    takeOneCopy(fields.product),
  ])
  if (taken?.rowsAffected !== 1) return null
  if (createdEmail)
    await queueCreatedEmails(tx, [createdEmailOf(id, fields, createdEmail)], now, 'sqlite')
  return { orderId: id }
}

/**
 * PostgreSQL: one order's statements (the index, the limits, the copy, the row grown with its
 * e-mail), in a transaction that holds the address counter's row already.
 */
async function storeOnePostgres(
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
