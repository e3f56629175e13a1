import type { InStatement } from '@libsql/client'
import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../collections/slugs'
import type { PgRunner, SqliteRunner } from './engine'
import {
  engineOf,
  mongo,
  nowIso,
  postgres,
  postgresFor,
  sessionOf,
  sqlite,
  sqliteFor,
} from './engine'

/**
 * A product's copies on the shelf: taken by a sale, given back by an expiry or a cancel, one
 * conditional write each so two processes never sell the same last copy.
 */

/**
 * Stock moved by a sale or an expiry is not an edit of the product: its updatedAt stays. (Payload's
 * admin compares it on an open form and told an owner editing the product, at every sale, that
 * someone had changed it; the Products hook keeps a save right when copies sold meanwhile, and
 * the catalogue's version reads the stock itself.)
 */

/** SQLite: the products row is for sale (not deleted, not withdrawn). */
const FOR_SALE = 'deleted_at IS NULL AND coalesce(is_available, 1) = 1'

/** PostgreSQL: the products row is for sale (is_available is a boolean there). */
const FOR_SALE_PG = 'deleted_at IS NULL AND coalesce(is_available, true)'

/**
 * PostgreSQL: one copy off the shelf of a product for sale ($1); changes no row when none is
 * left. A concurrent sale waits for the row and checks `current_stock > 0` again on the row the
 * other one left (READ COMMITTED's re-check of an UPDATE), so the last copy sells once.
 */
export const TAKE_ONE_COPY_PG = `UPDATE products SET current_stock = current_stock - 1
  WHERE id = $1 AND current_stock > 0 AND ${FOR_SALE_PG}`

/** SQLite: one copy off the shelf of a product for sale; changes no row when none is left. */
export function takeOneCopy(productId: string | number): InStatement {
  return {
    sql: `UPDATE products SET current_stock = current_stock - 1
          WHERE id = ? AND current_stock > 0 AND ${FOR_SALE}`,
    args: [Number(productId)],
  }
}

/**
 * SQLite, inside a write transaction: takes up to `wanted` copies of a product for sale off the
 * shelf at once, answering how many it took (as many as are left, 0 when none is).
 */
export async function takeCopies(
  tx: Pick<SqliteRunner, 'execute'>,
  productId: string | number,
  wanted: number,
): Promise<number> {
  const shelf = await tx.execute({
    sql: `SELECT current_stock FROM products WHERE id = ? AND ${FOR_SALE}`,
    args: [Number(productId)],
  })
  const taken = Math.min(wanted, Math.max(Number(shelf.rows[0]?.current_stock ?? 0), 0))
  if (taken === 0) return 0
  const took = await tx.execute({
    sql: 'UPDATE products SET current_stock = current_stock - ? WHERE id = ? AND current_stock >= ?',
    args: [taken, Number(productId), taken],
  })
  return took.rowsAffected === 1 ? taken : 0
}

/**
 * PostgreSQL, inside a transaction: takes up to `wanted` copies of a product for sale off the
 * shelf in one statement, answering how many it took. The shelf's row is locked and read as the
 * last writer left it (`FOR UPDATE` under READ COMMITTED), so a sale or an expiry committed
 * meanwhile is counted.
 */
export async function takeCopiesPg(
  db: PgRunner,
  productId: string | number,
  wanted: number,
): Promise<number> {
  const took = await db.query(
    `WITH shelf AS (
       SELECT id, least(current_stock, $2) AS taken FROM products
        WHERE id = $1 AND current_stock > 0 AND ${FOR_SALE_PG} FOR UPDATE
     )
     UPDATE products SET current_stock = products.current_stock - shelf.taken
       FROM shelf WHERE products.id = shelf.id RETURNING shelf.taken`,
    [Number(productId), wanted],
  )
  return Number(took.rows[0]?.taken ?? 0)
}

/** Takes one copy off the shelf; false when none is left (or the product is not for sale). */
export async function reserveStock({
  payload,
  productId,
}: {
  payload: Payload
  productId: string | number
}): Promise<boolean> {
  if (engineOf(payload) === 'mongodb') {
    const doc = await mongo(payload, slugs.products)
      .findOneAndUpdate(
        { _id: productId, currentStock: { $gt: 0 }, isAvailable: { $ne: false }, deletedAt: null },
        { $inc: { currentStock: -1 } },
        { new: true },
      )
      .lean()
    return doc !== null
  }
  if (engineOf(payload) === 'postgres') {
    const result = await postgres(payload).query(TAKE_ONE_COPY_PG, [Number(productId)])
    return result.rowCount === 1
  }
  const result = await sqlite(payload).execute(takeOneCopy(productId))
  return result.rowsAffected === 1
}

/**
 * Puts an expired order's copy back, exactly once: the order's stockReleasedAt is set in the same
 * atomic step, so a second call (a restarted worker, a second worker) changes nothing. With
 * `req`, it runs inside that request's transaction (the Orders status seam passes it).
 */
export async function releaseReservedStock({
  payload,
  orderId,
  productId,
  req,
}: {
  payload: Payload
  orderId: string
  productId: string | number
  req?: Partial<PayloadRequest>
}): Promise<boolean> {
  const at = nowIso()
  if (engineOf(payload) === 'mongodb') {
    const session = await sessionOf(payload, req)
    // The marker first: a crash between the two steps loses a copy for sale, never sells one twice.
    const marked = await mongo(payload, slugs.orders).updateOne(
      { _id: orderId, stockReleasedAt: null },
      { $set: { stockReleasedAt: new Date(at) } },
      session ? { session } : undefined,
    )
    if (marked.modifiedCount !== 1) return false
    await mongo(payload, slugs.products).updateOne(
      { _id: productId },
      { $inc: { currentStock: 1 } },
      session ? { session } : undefined,
    )
    return true
  }
  if (engineOf(payload) === 'postgres') {
    // One statement: the order's marker and the copy together, or neither. A second release
    // waits for the order's row and finds its marker set.
    const released = await (
      await postgresFor(payload, req)
    ).query(
      `WITH marked AS (
         UPDATE orders SET stock_released_at = $1, updated_at = $1
         WHERE id = $2 AND stock_released_at IS NULL RETURNING id)
       UPDATE products SET current_stock = current_stock + 1
       WHERE id = $3 AND EXISTS (SELECT 1 FROM marked) RETURNING id`,
      [at, orderId, Number(productId)],
    )
    return released.rowCount === 1
  }
  const [product, order] = await (
    await sqliteFor(payload, req)
  ).batch(
    [
      {
        sql: `UPDATE products SET current_stock = current_stock + 1
              WHERE id = ? AND EXISTS (SELECT 1 FROM orders WHERE id = ? AND stock_released_at IS NULL)`,
        args: [Number(productId), orderId],
      },
      {
        sql: `UPDATE orders SET stock_released_at = ?, updated_at = ? WHERE id = ? AND stock_released_at IS NULL`,
        args: [at, at, orderId],
      },
    ],
    'write',
  )
  return (order?.rowsAffected ?? 0) === 1 && (product?.rowsAffected ?? 0) === 1
}

/**
 * Takes one copy off the shelf for a stored order that holds none yet (its stockReleasedAt is
 * set): on SQLite the copy and the order's claim on it change in one transaction, so a process
 * killed at any moment of a checkout neither loses a copy nor counts one twice. False when no
 * copy is left. (MongoDB without a transaction: the copy is taken first, so a crash between the
 * two steps can only keep a copy off the shelf, never sell one twice.)
 */
export async function reserveStockForOrder({
  payload,
  productId,
  orderId,
  req,
}: {
  payload: Payload
  productId: string | number
  orderId: string
  /** Inside this request's transaction (the owner marking an expired order paid). */
  req?: Partial<PayloadRequest>
}): Promise<boolean> {
  if (engineOf(payload) === 'mongodb') {
    const session = await sessionOf(payload, req)
    const options = session ? { session } : undefined
    const taken = await mongo(payload, slugs.products).updateOne(
      { _id: productId, currentStock: { $gt: 0 }, isAvailable: { $ne: false }, deletedAt: null },
      { $inc: { currentStock: -1 } },
      options,
    )
    if (taken.modifiedCount !== 1) return false
    await mongo(payload, slugs.orders).updateOne(
      { _id: orderId },
      { $set: { stockReleasedAt: null } },
      options,
    )
    return true
  }
  const at = nowIso()
  if (engineOf(payload) === 'postgres') {
    // The order's row is locked first and its claim checked again on the row a concurrent call
    // left: one copy for one order, however many ask at once; nothing changes without a copy.
    const claimed = await (
      await postgresFor(payload, req)
    ).query(
      `WITH claim AS (
         SELECT id FROM orders WHERE id = $2 AND stock_released_at IS NOT NULL FOR UPDATE),
       taken AS (
         UPDATE products SET current_stock = current_stock - 1
         WHERE id = $1 AND current_stock > 0 AND ${FOR_SALE_PG} AND EXISTS (SELECT 1 FROM claim)
         RETURNING id)
       UPDATE orders SET stock_released_at = NULL, updated_at = $3
       WHERE id = $2 AND EXISTS (SELECT 1 FROM taken) RETURNING id`,
      [Number(productId), orderId, at],
    )
    return claimed.rowCount === 1
  }
  const [, order] = await (
    await sqliteFor(payload, req)
  ).batch(
    [
      {
        sql: `UPDATE products SET current_stock = current_stock - 1
              WHERE id = ? AND current_stock > 0 AND deleted_at IS NULL AND coalesce(is_available, 1) = 1
                AND EXISTS (SELECT 1 FROM orders WHERE id = ? AND stock_released_at IS NOT NULL)`,
        args: [Number(productId), orderId],
      },
      {
        // changes(): the rows the statement above changed, in this same transaction.
        sql: `UPDATE orders SET stock_released_at = NULL, updated_at = ? WHERE id = ? AND changes() = 1`,
        args: [at, orderId],
      },
    ],
    'write',
  )
  return (order?.rowsAffected ?? 0) === 1
}
