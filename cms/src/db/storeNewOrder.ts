import type { Client, InValue, Transaction } from '@libsql/client'
import type { Payload } from 'payload'
import { commitTransaction, createLocalReq, initTransaction, killTransaction } from 'payload'

import { NEW_ORDER_DEFAULTS, newOrderId } from '../collections/Orders/newOrder'
import { slugs } from '../collections/slugs'
import type { Order } from '../payload-types'
import {
  ADDRESS_INDEX_COUNTER,
  claimAddressIndex,
  counterIncrement,
  engineOf,
  reserveStockForOrder,
  sqlite,
  takeCopies,
  takeOneCopy,
} from './atomic'
import { runInWriterScope } from './sqlite-client'

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

/** The values of one new order's row, in ORDER_COLUMNS' order. */
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
}

type Stored = { orderId: string } | null

/**
 * Stores a new order holding one copy of its book, with a never-used address index and the
 * address derived from it, in one transaction: all of it or nothing (null when no copy is left).
 *
 * On SQLite, checkout's hot path (decision 014): plain statements (the copies, the indexes, the
 * order rows) without Payload's create, which cost more than the rest of a checkout together
 * (issue 18). The checkouts that reach this point in the same turn of the event loop are written
 * together (`writeGroups`, `storeTogether`): one transaction, a few statements and one fsync for
 * all of them instead of their own each. The new order's rules
 * come from the collection (`collections/Orders/newOrder.ts`); `cms/test/checkout/order-row.test.ts`
 * checks the row equals the one Payload's create writes. On MongoDB, Payload's create in one
 * transaction.
 */
export async function storeNewOrder({
  payload,
  fields,
  addressFor,
}: NewOrder & { payload: Payload }): Promise<Stored> {
  if (engineOf(payload) === 'mongodb') return storeWithPayload({ payload, fields, addressFor })
  const client = sqlite(payload)
  return new Promise<Stored>((resolve, reject) => {
    let waiting = groups.get(client)
    if (!waiting) {
      waiting = []
      groups.set(client, waiting)
      // In a writer scope of its own: the group's transaction belongs to no one request.
      setImmediate(() => runInWriterScope(() => void writeGroups(client)))
    }
    waiting.push({ fields, addressFor, resolve, reject })
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
 * The whole group at once, in four statements whatever its size: the copies of its book taken
 * together (`takeCopies`; the first orders in the group get them), as many address indexes
 * claimed in one step, and every order that got a copy inserted in one statement. Under a rush
 * each checkout ran five statements of its own in the group (a savepoint, the index, the row, the
 * copy, a release), and SQLite's calls were a quarter of the web process's time (issue 18). When
 * any of it fails (an address that cannot be derived, a row SQLite refuses), none of it is kept
 * and the group goes one order at a time (`storeOne`), so one bad order fails alone.
 */
async function storeTogether(tx: Transaction, group: Waiting[]): Promise<Stored[] | null> {
  await tx.execute('SAVEPOINT new_orders')
  try {
    const wanted = new Map<number, number>()
    for (const { fields } of group) {
      const product = Number(fields.product)
      wanted.set(product, (wanted.get(product) ?? 0) + 1)
    }
    const copies = new Map<number, number>()
    for (const [product, count] of wanted) copies.set(product, await takeCopies(tx, product, count))
    const sold = group.map(({ fields }) => {
      const left = copies.get(Number(fields.product))!
      copies.set(Number(fields.product), Math.max(left - 1, 0))
      return left > 0
    })
    const count = sold.filter(Boolean).length
    const stored: Stored[] = group.map(() => null)
    if (count > 0) {
      const counted = await tx.execute(counterIncrement(ADDRESS_INDEX_COUNTER, count))
      let addressIndex = Number(counted.rows[0]?.value) - count
      const now = new Date().toISOString()
      const args: InValue[] = []
      group.forEach(({ fields, addressFor }, i) => {
        if (!sold[i]) return
        const id = newOrderId()
        args.push(...orderRow(id, fields, addressIndex, addressFor(addressIndex), now))
        stored[i] = { orderId: id }
        addressIndex += 1
      })
      await tx.execute({ sql: insertOrders(count), args })
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
 * One order of a group, under a savepoint: an order whose copy is gone, or whose address cannot
 * be derived, leaves nothing behind (no order, no copy, no index) and the others go on.
 */
async function storeOne(
  tx: Transaction,
  { fields, addressFor }: NewOrder,
): Promise<Stored | { failed: unknown }> {
  const id = newOrderId()
  const now = new Date().toISOString()
  await tx.execute('SAVEPOINT new_order')
  try {
    const counted = await tx.execute(counterIncrement(ADDRESS_INDEX_COUNTER))
    const addressIndex = Number(counted.rows[0]?.value) - 1
    const [, taken] = await tx.batch([
      {
        sql: insertOrders(1),
        args: orderRow(id, fields, addressIndex, addressFor(addressIndex), now),
      },
      takeOneCopy(fields.product),
    ])
    if (taken?.rowsAffected === 1) return { orderId: id }
    await tx.execute('ROLLBACK TO new_order')
    return null
  } catch (error) {
    await tx.execute('ROLLBACK TO new_order')
    return { failed: error }
  } finally {
    await tx.execute('RELEASE new_order')
  }
}

/**
 * Payload's create, inside one transaction with the index and the copy: the order is stored
 * holding no copy (stockReleasedAt set), then the copy is taken and claimed by the order in one
 * conditional step; when none is left, everything is rolled back.
 */
async function storeWithPayload({
  payload,
  fields,
  addressFor,
}: NewOrder & { payload: Payload }): Promise<Stored> {
  const req = await createLocalReq({}, payload)
  const ownsTransaction = await initTransaction(req)
  try {
    const addressIndex = await claimAddressIndex({ payload, req })
    const order = await payload.create({
      collection: slugs.orders,
      depth: 0,
      select: { id: true },
      req,
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
