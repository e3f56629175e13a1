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
  takeOneCopy,
} from './atomic'

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

const INSERT_ORDER = `INSERT INTO orders (id, status, product_id, amount_satoshi_received,
    flags_paid_late, flags_paid_partial, flags_paid_over, flags_paid_invalid,
    payment_address, address_index, created_at, updated_at, ${FIELDS.map((f) => COLUMNS[f]).join(', ')})
  VALUES (${Array.from({ length: 12 + FIELDS.length }, () => '?').join(', ')})`

/**
 * Stores a new order holding one copy of its book, with a never-used address index and the
 * address derived from it, in one transaction: all of it or nothing (null when no copy is left).
 *
 * On SQLite, checkout's hot path (decision 014): one write transaction of three statements (the
 * index, the order row, the copy) and one commit, without Payload's create, which cost more than
 * the rest of a checkout together (issue 18). The new order's rules come from the collection
 * (`collections/Orders/newOrder.ts`); `cms/test/checkout/order-row.test.ts` checks the row
 * equals the one Payload's create writes. On MongoDB, Payload's create in one transaction.
 */
export async function storeNewOrder({
  payload,
  fields,
  addressFor,
}: {
  payload: Payload
  fields: NewOrderFields
  /** The payment address of an index (derived while the index is held, never reused). */
  addressFor: (index: number) => string
}): Promise<{ orderId: string } | null> {
  if (engineOf(payload) === 'mongodb') return storeWithPayload({ payload, fields, addressFor })

  const id = newOrderId()
  const now = new Date().toISOString()
  const { flags } = NEW_ORDER_DEFAULTS
  const tx = await sqlite(payload).transaction('write')
  try {
    const counted = await tx.execute(counterIncrement(ADDRESS_INDEX_COUNTER))
    const addressIndex = Number(counted.rows[0]?.value) - 1
    const [, taken] = await tx.batch([
      {
        sql: INSERT_ORDER,
        args: [
          id,
          NEW_ORDER_DEFAULTS.status,
          Number(fields.product),
          NEW_ORDER_DEFAULTS.amountSatoshiReceived,
          Number(flags.paidLate),
          Number(flags.paidPartial),
          Number(flags.paidOver),
          Number(flags.paidInvalid),
          addressFor(addressIndex),
          addressIndex,
          now,
          now,
          ...FIELDS.map((field) => fields[field] ?? null),
        ],
      },
      takeOneCopy(fields.product),
    ])
    if (taken?.rowsAffected !== 1) return null
    await tx.commit()
    return { orderId: id }
  } finally {
    // Rolls back whatever was not committed (no copy left, or an error) and frees the writer.
    tx.close()
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
}: Parameters<typeof storeNewOrder>[0]): Promise<{ orderId: string } | null> {
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
