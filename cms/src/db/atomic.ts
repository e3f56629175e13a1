import type { Client, InStatement, ResultSet, TransactionMode } from '@libsql/client'
import type { Payload, PayloadRequest } from 'payload'

import { slugs } from '../collections/slugs'
import { hasBegun } from './sqlite-client'

/**
 * The few writes that must be atomic under concurrency (two web processes, the worker), one
 * function each, with one implementation per database engine: a single conditional
 * `UPDATE ... RETURNING` on SQLite, a conditional `updateOne`/`findOneAndUpdate` on MongoDB.
 * Everything else goes through Payload's Local API.
 */

export const ADDRESS_INDEX_COUNTER = 'address-index'

type Engine = 'sqlite' | 'mongodb'

export function engineOf(payload: Payload): Engine {
  return payload.db.name === 'mongoose' ? 'mongodb' : 'sqlite'
}

export function sqlite(payload: Payload): Client {
  const client = (payload.db as unknown as { client?: Client }).client
  if (!client) throw new Error('The SQLite client is not connected.')
  return client
}

/** A write that need not survive a power cut (ShopSqliteClient.executeWithoutSync). */
function withoutSync(payload: Payload, stmt: InStatement): Promise<ResultSet> {
  const client = sqlite(payload) as Client & {
    executeWithoutSync?: (stmt: InStatement) => Promise<ResultSet>
  }
  return client.executeWithoutSync ? client.executeWithoutSync(stmt) : client.execute(stmt)
}

type SqliteRunner = {
  execute: (stmt: InStatement) => Promise<ResultSet>
  batch: (stmts: InStatement[], mode?: TransactionMode) => Promise<ResultSet[]>
}

/** The transaction a Payload request has open, if any (the adapter keeps one per id). */
async function sessionOf(payload: Payload, req?: Partial<PayloadRequest>): Promise<unknown> {
  const id = req?.transactionID ? await req.transactionID : undefined
  if (id === undefined || id === null) return undefined
  return (payload.db as unknown as { sessions?: Record<string, unknown> }).sessions?.[String(id)]
}

/**
 * Where a write of this module runs on SQLite: inside the request's open transaction when it has
 * one (so it commits or rolls back with the change that caused it, for example an order's
 * status), otherwise on the client.
 */
async function sqliteFor(
  payload: Payload,
  req?: Partial<PayloadRequest>,
  { onlyIfBegun = false }: { onlyIfBegun?: boolean } = {},
): Promise<SqliteRunner> {
  const session = (await sessionOf(payload, req)) as
    { db?: { session?: { tx?: SqliteRunner } } } | undefined
  const tx = session?.db?.session?.tx
  // A transaction opened but not yet begun holds no lock: with `onlyIfBegun`, a write that must
  // not hold one for the rest of the operation commits on its own instead of beginning it.
  if (tx && (!onlyIfBegun || hasBegun(tx)))
    return { execute: (stmt) => tx.execute(stmt), batch: (stmts) => tx.batch(stmts) }
  return sqlite(payload)
}

// Mongoose models, typed just enough for the calls below.
type MongoModel = {
  findOneAndUpdate: (
    filter: Record<string, unknown>,
    update: Record<string, unknown> | Record<string, unknown>[],
    options: Record<string, unknown>,
  ) => { lean: () => Promise<Record<string, unknown> | null> }
  updateOne: (
    filter: Record<string, unknown>,
    update: Record<string, unknown>,
    options?: Record<string, unknown>,
  ) => Promise<{ modifiedCount: number }>
  findOne: (filter: Record<string, unknown>) => {
    lean: () => Promise<Record<string, unknown> | null>
  }
}

function mongo(payload: Payload, slug: string): MongoModel {
  const model = (payload.db as unknown as { collections: Record<string, MongoModel> }).collections[
    slug
  ]
  if (!model) throw new Error(`No MongoDB model for ${slug}.`)
  return model
}

const nowIso = () => new Date().toISOString()

/**
 * Stock moved by a sale or an expiry is not an edit of the product: its updatedAt stays. (Payload's
 * admin compares it on an open form and told an owner editing the product, at every sale, that
 * someone had changed it; the Products hook keeps a save right when copies sold meanwhile, and
 * the catalogue's version reads the stock itself.)
 */

/** SQLite: the products row is for sale (not deleted, not withdrawn). */
const FOR_SALE = 'deleted_at IS NULL AND coalesce(is_available, 1) = 1'

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

/** Adds one to the counter `name` (created at 1) and answers its new value, atomically. */
async function incrementCounter(
  payload: Payload,
  name: string,
  req?: Partial<PayloadRequest>,
): Promise<number> {
  if (engineOf(payload) === 'mongodb') {
    const session = await sessionOf(payload, req)
    const doc = await mongo(payload, slugs.counters)
      .findOneAndUpdate(
        { name },
        {
          $inc: { value: 1 },
          $setOnInsert: { createdAt: new Date() },
          $set: { updatedAt: new Date() },
        },
        { new: true, upsert: true, ...(session ? { session } : {}) },
      )
      .lean()
    return Number(doc?.value)
  }
  const result = await (await sqliteFor(payload, req)).execute(counterIncrement(name))
  return Number(result.rows[0]?.value)
}

/**
 * SQLite: adds `by` (one unless told) to the counter `name` (created at `by`), answering its new
 * value as `value`.
 */
export function counterIncrement(name: string, by = 1): InStatement {
  const at = nowIso()
  return {
    sql: `INSERT INTO counters (name, value, updated_at, created_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET value = value + excluded.value, updated_at = excluded.updated_at
          RETURNING value`,
    args: [name, by, at, at],
  }
}

/**
 * Claims the next BIP32 index (0/n) for a payment address. Never returns the same n twice; in a
 * transaction (`req`), an index whose order is rolled back was never given out and comes again.
 */
export async function claimAddressIndex({
  payload,
  req,
}: {
  payload: Payload
  req?: Partial<PayloadRequest>
}): Promise<number> {
  return (await incrementCounter(payload, ADDRESS_INDEX_COUNTER, req)) - 1
}

/**
 * The worker's looks at the chain: counted once per pass that asked the chain about orders, so
 * the counter's updatedAt says when the worker last did (the owner's health view reads it).
 */
export const CHAIN_LOOKS_COUNTER = 'chain-looks'

export async function countChainLook({ payload }: { payload: Payload }): Promise<void> {
  await incrementCounter(payload, CHAIN_LOOKS_COUNTER)
}

export type DownloadUse =
  | { ok: true; tokenId: string | number; orderId: string; productId: string | number }
  | { ok: false; reason: 'unknown' | 'expired' | 'used-up' }

/** Consumes one use of a download token; concurrent requests can never exceed maxUses. */
export async function consumeDownloadUse({
  payload,
  tokenHash,
}: {
  payload: Payload
  tokenHash: string
}): Promise<DownloadUse> {
  const now = new Date()
  if (engineOf(payload) === 'mongodb') {
    const model = mongo(payload, slugs.downloadTokens)
    const doc = await model
      .findOneAndUpdate(
        { tokenHash, expiresAt: { $gt: now }, $expr: { $lt: ['$uses', '$maxUses'] } },
        { $inc: { uses: 1 } },
        { new: true },
      )
      .lean()
    if (doc)
      return {
        ok: true,
        tokenId: String(doc._id),
        orderId: String(doc.order),
        productId: String(doc.product),
      }
    const existing = await model.findOne({ tokenHash }).lean()
    if (!existing) return { ok: false, reason: 'unknown' }
    return {
      ok: false,
      reason: new Date(String(existing.expiresAt)) <= now ? 'expired' : 'used-up',
    }
  }
  const client = sqlite(payload)
  const result = await client.execute({
    sql: `UPDATE download_tokens SET uses = uses + 1, updated_at = ?
          WHERE token_hash = ? AND uses < max_uses AND expires_at > ?
          RETURNING id, order_id, product_id`,
    args: [now.toISOString(), tokenHash, now.toISOString()],
  })
  const row = result.rows[0]
  if (row)
    return {
      ok: true,
      tokenId: Number(row.id),
      orderId: String(row.order_id),
      productId: Number(row.product_id),
    }
  const existing = await client.execute({
    sql: 'SELECT expires_at FROM download_tokens WHERE token_hash = ?',
    args: [tokenHash],
  })
  const found = existing.rows[0]
  if (!found) return { ok: false, reason: 'unknown' }
  return {
    ok: false,
    reason: String(found.expires_at) <= now.toISOString() ? 'expired' : 'used-up',
  }
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

/** The payment worker's lease: one worker process watches the chain at a time. */
export const WORKER_LEASE = 'payment-worker'

/**
 * Takes or renews the lease `name` for `holder` until now + ttlMs: true when `holder` holds it
 * (it held it already, or the last holder's time ran out), false while another holder's lease
 * is still running. One conditional upsert: two claimants can never both get it.
 */
export async function claimLease({
  payload,
  name,
  holder,
  ttlMs,
}: {
  payload: Payload
  name: string
  holder: string
  ttlMs: number
}): Promise<boolean> {
  const now = new Date()
  const expiresAt = new Date(now.getTime() + ttlMs)
  if (engineOf(payload) === 'mongodb') {
    try {
      const doc = await mongo(payload, slugs.leases)
        .findOneAndUpdate(
          { name, $or: [{ holder }, { expiresAt: { $lt: now } }] },
          { $set: { holder, expiresAt, updatedAt: now }, $setOnInsert: { createdAt: now } },
          { new: true, upsert: true },
        )
        .lean()
      return doc?.holder === holder
    } catch (error) {
      // The upsert met the unique name: the lease exists and another holder's time runs.
      if ((error as { code?: number }).code === 11000) return false
      throw error
    }
  }
  const result = await sqlite(payload).execute({
    sql: `INSERT INTO leases (name, holder, expires_at, updated_at, created_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,
            expires_at = excluded.expires_at, updated_at = excluded.updated_at
          WHERE leases.holder = excluded.holder OR leases.expires_at < ?
          RETURNING holder`,
    args: [
      name,
      holder,
      expiresAt.toISOString(),
      now.toISOString(),
      now.toISOString(),
      now.toISOString(),
    ],
  })
  return result.rows[0]?.holder === holder
}

/** Gives the lease up at once (a clean stop), so a standby need not wait for it to run out. */
export async function releaseLease({
  payload,
  name,
  holder,
}: {
  payload: Payload
  name: string
  holder: string
}): Promise<void> {
  const past = new Date(0)
  if (engineOf(payload) === 'mongodb') {
    await mongo(payload, slugs.leases).updateOne({ name, holder }, { $set: { expiresAt: past } })
    return
  }
  await sqlite(payload).execute({
    sql: 'UPDATE leases SET expires_at = ? WHERE name = ? AND holder = ?',
    args: [past.toISOString(), name, holder],
  })
}

/**
 * Counts one hit (delta 1) or takes one back (delta -1, a request the limit skips) for `key` in
 * its current window, starting a new window of windowMs once the last one ended: the hits and
 * the window's end after the change. One conditional upsert, so every web process counts into
 * the same row.
 */
export async function countRateLimitHit({
  payload,
  key,
  windowMs,
  delta,
}: {
  payload: Payload
  key: string
  windowMs: number
  delta: 1 | -1
}): Promise<{ hits: number; resetAt: Date }> {
  const now = new Date()
  const resetAt = new Date(now.getTime() + windowMs)
  const first = Math.max(delta, 0)
  if (engineOf(payload) === 'mongodb') {
    const expired = {
      $or: [{ $lte: ['$resetAt', now] }, { $eq: [{ $type: '$resetAt' }, 'missing'] }],
    }
    const doc = await mongo(payload, slugs.rateLimits)
      .findOneAndUpdate(
        { key },
        [
          {
            $set: {
              hits: {
                $cond: [expired, first, { $max: [{ $add: ['$hits', delta] }, 0] }],
              },
              resetAt: { $cond: [expired, resetAt, '$resetAt'] },
              updatedAt: now,
              createdAt: { $ifNull: ['$createdAt', now] },
            },
          },
        ],
        { new: true, upsert: true },
      )
      .lean()
    return { hits: Number(doc?.hits ?? first), resetAt: new Date(doc?.resetAt as Date) }
  }
  const at = now.toISOString()
  // A counter lost in a power cut harms nobody: no fsync, which blocked the event loop for a
  // millisecond or more on every checkout (issue 18).
  const result = await withoutSync(payload, {
    sql: `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at) VALUES (?, ?, ?, ?, ?)
          ON CONFLICT (key) DO UPDATE SET
            hits = CASE WHEN rate_limits.reset_at <= ? THEN ? ELSE max(rate_limits.hits + ?, 0) END,
            reset_at = CASE WHEN rate_limits.reset_at <= ? THEN excluded.reset_at ELSE rate_limits.reset_at END,
            updated_at = excluded.updated_at
          RETURNING hits, reset_at`,
    args: [key, first, resetAt.toISOString(), at, at, at, first, delta, at],
  })
  const row = result.rows[0]
  return { hits: Number(row?.hits ?? first), resetAt: new Date(String(row?.reset_at)) }
}

/** Forgets one key's window (a limit reset by hand). */
export async function resetRateLimit({ payload, key }: { payload: Payload; key: string }) {
  await payload.delete({ collection: slugs.rateLimits, where: { key: { equals: key } } })
}

/** Sweeps windows that ended before `before` (they would start afresh anyway). */
export async function sweepRateLimits({ payload, before }: { payload: Payload; before: Date }) {
  if (engineOf(payload) === 'mongodb') {
    await payload.delete({
      collection: slugs.rateLimits,
      where: { resetAt: { less_than: before.toISOString() } },
    })
    return
  }
  await sqlite(payload).execute({
    sql: 'DELETE FROM rate_limits WHERE reset_at < ?',
    args: [before.toISOString()],
  })
}

/**
 * Per-account sign-in spacing (decision 007), shared by every web process: one rate-limits row
 * per account key, holding the failures in a row (`hits`), the start of the last attempt's turn
 * (`updatedAt`) and when the account is forgotten (`resetAt`). Read, then written only if nobody
 * wrote in between (compare-and-set on hits and updatedAt), so concurrent guesses each get their
 * own turn.
 */
export type SignInSpacing = {
  freeFailures: number
  baseDelayMs: number
  maxDelayMs: number
  maxWaitMs: number
  forgetAfterMs: number
}

export function spacingAfter(failures: number, s: SignInSpacing): number {
  if (failures < s.freeFailures) return 0
  return Math.min(s.maxDelayMs, s.baseDelayMs * 2 ** (failures - s.freeFailures))
}

export async function reserveSignInTurn({
  payload,
  key,
  spacing,
  req,
  now = Date.now(),
}: {
  payload: Payload
  key: string
  spacing: SignInSpacing
  /**
   * A sign-in inside a transaction that already writes (Payload's first-register signs the new
   * user in within its own): the count joins it rather than wait on the lock it holds. A
   * transaction opened but not begun is left alone: the count commits on its own, so the
   * caller's wait for the turn holds no lock (a reset request waiting inside Payload's
   * transaction held the shop's writes, every checkout included, for seconds).
   */
  req?: Partial<PayloadRequest>
  now?: number
}): Promise<{ waitMs: number } | { retryAfterMs: number }> {
  const epoch = new Date(0)
  const db =
    engineOf(payload) === 'mongodb'
      ? undefined
      : await sqliteFor(payload, req, { onlyIfBegun: true })
  for (let attempt = 0; attempt < 50; attempt++) {
    let row: { hits: number; startedAt: Date; resetAt: Date; version: unknown } | null = null
    if (engineOf(payload) === 'mongodb') {
      const model = mongo(payload, slugs.rateLimits)
      const doc = await model.findOne({ key }).lean()
      if (doc)
        row = {
          hits: Number(doc.hits),
          startedAt: new Date(doc.updatedAt as Date),
          resetAt: new Date(doc.resetAt as Date),
          version: doc.updatedAt,
        }
    } else {
      const found = await db!.execute({
        sql: 'SELECT hits, updated_at, reset_at FROM rate_limits WHERE key = ?',
        args: [key],
      })
      const r = found.rows[0]
      if (r)
        row = {
          hits: Number(r.hits),
          startedAt: new Date(String(r.updated_at)),
          resetAt: new Date(String(r.reset_at)),
          version: r.updated_at,
        }
    }
    const fresh = !row || row.resetAt.getTime() <= now
    const failures = fresh ? 0 : row!.hits
    const startAt = fresh
      ? now
      : Math.max(now, row!.startedAt.getTime() + spacingAfter(failures, spacing))
    const waitMs = startAt - now
    if (waitMs > spacing.maxWaitMs) return { retryAfterMs: waitMs }
    const next = {
      hits: failures + 1,
      startedAt: new Date(startAt),
      resetAt: new Date(startAt + spacing.forgetAfterMs),
    }
    let written: boolean
    if (engineOf(payload) === 'mongodb') {
      const model = mongo(payload, slugs.rateLimits)
      if (!row) {
        try {
          await model.updateOne(
            { key },
            {
              $setOnInsert: {
                key,
                hits: 0,
                resetAt: epoch,
                updatedAt: epoch,
                createdAt: new Date(),
              },
            },
            { upsert: true },
          )
        } catch {
          // Another process created it first: read it again.
        }
        continue
      }
      const done = await model
        .findOneAndUpdate(
          { key, hits: row.hits, updatedAt: row.version },
          { $set: { hits: next.hits, updatedAt: next.startedAt, resetAt: next.resetAt } },
          { new: true },
        )
        .lean()
      written = Boolean(done)
    } else {
      if (!row) {
        await db!.execute({
          sql: `INSERT INTO rate_limits (key, hits, reset_at, updated_at, created_at) VALUES (?, 0, ?, ?, ?)
                ON CONFLICT (key) DO NOTHING`,
          args: [key, epoch.toISOString(), epoch.toISOString(), new Date().toISOString()],
        })
        continue
      }
      const done = await db!.execute({
        sql: `UPDATE rate_limits SET hits = ?, updated_at = ?, reset_at = ?
              WHERE key = ? AND hits = ? AND updated_at = ? RETURNING key`,
        args: [
          next.hits,
          next.startedAt.toISOString(),
          next.resetAt.toISOString(),
          key,
          row.hits,
          String(row.version),
        ],
      })
      written = done.rows.length > 0
    }
    if (written) return { waitMs }
  }
  throw new Error('sign-in spacing: too much contention on one account')
}

/**
 * A successful sign-in: the account starts afresh. Written in the sign-in's own transaction
 * (`req`), so it never waits on the write that transaction holds.
 */
export async function clearSignInTurns({
  payload,
  key,
  req,
}: {
  payload: Payload
  key: string
  req?: Partial<PayloadRequest>
}): Promise<void> {
  if (engineOf(payload) === 'mongodb') {
    await payload.db.deleteMany({
      collection: slugs.rateLimits,
      where: { key: { equals: key } },
      req,
    })
    return
  }
  await (
    await sqliteFor(payload, req)
  ).execute({
    sql: 'DELETE FROM rate_limits WHERE key = ?',
    args: [key],
  })
}
