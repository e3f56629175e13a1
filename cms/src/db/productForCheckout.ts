import type { InValue } from '@libsql/client'
import { normalizeProductType } from '@shop/domain'
import type { Payload } from 'payload'

import { isDocumentId } from './ids'
import { slugs } from '../collections/slugs'
import type { Product } from '../payload-types'
import { dateOf, engineOf, numbered, postgres, preparedQuery, sqlite } from './engine'

/** What checkout reads of the product it sells. */
export type CheckoutProduct = Pick<
  Product,
  | 'id'
  | 'name'
  | 'type'
  | 'priceEUR'
  | 'shippingCostEUR'
  | 'currentStock'
  | 'isAvailable'
  | 'deletedAt'
>

const SELECT_PRODUCT = `SELECT id, name, type, price_e_u_r, shipping_cost_e_u_r, current_stock,
    is_available, deleted_at FROM products WHERE id = ?`

const orNull = <T>(value: unknown, as: (v: unknown) => T): T | null =>
  value === null || value === undefined ? null : as(value)

/**
 * The product a checkout sells, or null when there is none with that id. On SQLite one prepared
 * statement on checkout's hot path (decision 014): Payload's `findByID` builds its query, reads
 * every field and runs the collection's read hooks and field traversal, 4 % of the web process
 * under 50 buyers at once. The one read hook that changes these fields (old types PDF
 * and EPUB read as DIGITAL) is applied here too; `cms/test/checkout/order-row.test.ts` checks the
 * answer equals Payload's read of the same product. On MongoDB, Payload's `findByID`.
 *
 * `also`: scalar columns read in the same statement on SQLite (checkout's count of the buyer's
 * waiting orders), answered as `also`; on MongoDB they are not read (`also` is undefined).
 */
export async function productForCheckout(
  payload: Payload,
  id: string,
  also?: { sql: string; args: InValue[] },
): Promise<(CheckoutProduct & { also?: Record<string, unknown> }) | null> {
  if (!isDocumentId(payload, id)) return null
  if (engineOf(payload) === 'mongodb') {
    const product = (await payload.findByID({
      collection: slugs.products,
      id,
      depth: 0,
      disableErrors: true,
    })) as Product | null
    return product
  }
  const statement = also
    ? {
        sql: SELECT_PRODUCT.replace(' FROM products', `, ${also.sql} FROM products`),
        args: [...also.args, Number(id)],
      }
    : { sql: SELECT_PRODUCT, args: [Number(id)] }
  // The same statement on both SQL engines; PostgreSQL numbers its parameters.
  const row =
    engineOf(payload) === 'postgres'
      ? (await preparedQuery(postgres(payload), numbered(statement.sql), statement.args)).rows[0]
      : (await sqlite(payload).execute(statement)).rows[0]
  if (!row) return null
  return {
    id: Number(row.id),
    name: String(row.name),
    type: (normalizeProductType(row.type) ?? row.type) as Product['type'],
    priceEUR: Number(row.price_e_u_r),
    shippingCostEUR: orNull(row.shipping_cost_e_u_r, Number),
    currentStock: Number(row.current_stock),
    isAvailable: orNull(row.is_available, (v) => Boolean(Number(v))),
    // SQLite stores the ISO text, PostgreSQL answers a Date: both read as Payload gives them.
    deletedAt: orNull(row.deleted_at, (v) => dateOf(v).toISOString()),
    ...(also ? { also: row as Record<string, unknown> } : {}),
  }
}
